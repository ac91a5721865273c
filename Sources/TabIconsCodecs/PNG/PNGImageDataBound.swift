import TabIconsCore
/// Whether the image data a PNG carries could ever fill the image its header declares, checked
/// before anything is allocated for the pixels (SPEC §2: a header alone never allocates more than
/// its data can fill).
///
/// Deflate expands at most 1032:1 (a 258-byte match in under two bits), so the filtered rows the
/// header needs (a filter byte and the packed samples per row, per Adam7 pass when interlaced)
/// can come only from at least 1/1032 as many compressed bytes. Everything from the first IDAT to
/// the end of the input is counted as image data, an upper bound. A 67-byte file claiming a
/// 10000×10000 16-bit interlaced image is `truncated` here in the words libpng would use once it
/// ran out, instead of first having 763 MiB allocated for it.
enum PNGImageDataBound {
    /// Deflate's largest expansion ratio (zlib's technical details: 1032:1).
    static let deflateMaxRatio = 1032

    /// The filtered bytes the image data must inflate to for `header`.
    static func filteredBytes(_ header: PNGChunks.Header) -> Int {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][header.colorType] ?? 1
        let bitsPerPixel = header.bitDepth * channels
        let passes =
            header.isInterlaced
            ? PNGAdam7.passes(width: header.width, height: header.height)
            : [PNGAdam7.Pass.whole]
        return passes.reduce(0) { total, pass in
            let rowBytes = 1 + (pass.width(ofImageWidth: header.width) * bitsPerPixel + 7) / 8
            return total + rowBytes * pass.rows(ofImageHeight: header.height)
        }
    }

    /// Throws `truncated` when the `inputBytes - chunks.imageDataOffset` bytes from the first IDAT
    /// on cannot inflate to the rows the header declares.
    static func check(_ chunks: PNGChunks, inputBytes: Int) throws(TabIconsError) {
        guard let start = chunks.imageDataOffset else { return }
        let available = inputBytes - start
        let needed = filteredBytes(chunks.header)
        guard needed > (available + 1) * deflateMaxRatio else { return }
        throw TabIconsError(
            .truncated,
            "Not enough image data: \(available) bytes from the first IDAT cannot inflate to the \(needed) bytes of rows a \(chunks.header.width)×\(chunks.header.height) image needs",
            format: .png)
    }
}
