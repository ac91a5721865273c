import TabIconsCore
import Foundation

/// Roughly how many bytes decoding an input will hold at once, read from its header without
/// decoding: what a batch weighs against its memory budget (`BatchNormalizer.memoryBudget`) so
/// that two photos are not decoded side by side when together they would raise the peak.
///
/// Counted: the input itself, the RGBA output at the size the decoder will deliver (after shrink
/// on load), for a PNG libpng's own working set (`PNGChunks.libpngWorkingBytes`), and for a
/// JPEG the coefficient buffers libjpeg itself reports for the scale chosen (`JPEGDecoder.prepare`,
/// `tabicons_jpeg_output`: every coefficient of a progressive photo, the reason it costs far more
/// than a baseline one, or, decoded at 1/8 from its DC scans alone, one a block); for WebP what
/// `webp` counts. Not counted: fixed costs under a few hundred kilobytes. Bytes that are
/// none of these (base64 text, or what the decoder will refuse) are charged four times their size; a PNG or JPEG header that cannot be
/// read, its size alone. So is a header whose size `limits` refuse: the decoder rejects it before
/// allocating a pixel (`DecodeOptions.Limits.check`), so its decode costs nothing; a header of
/// 4294967295 × 536883232 px must not turn into an overflowing estimate.
package enum DecodeMemoryEstimate {
    /// What the process holds besides any decode (Swift runtime, Foundation, the libraries, the
    /// CLI), with room to spare over what it measures (bench/README.md, "the process's own
    /// memory"). Charged on top of every decode checked against `Limits.maxDecodeMemory`.
    package static let processBytes = 32 << 20

    /// Throws `tooLarge` naming the limit when `bytes` (the input and what the decode will hold)
    /// plus the process pass `limits.maxDecodeMemory`. Called from the header, before allocating.
    package static func check(
        _ bytes: Int, decoding what: String, limits: DecodeOptions.Limits,
        format: ImageFormat
    ) throws(TabIconsError) {
        let total = bytes.addingReportingOverflow(processBytes)
        guard total.overflow || total.partialValue > limits.maxDecodeMemory else { return }
        let mib = { (value: Int) in (value + (1 << 20) - 1) >> 20 }
        let needed = total.overflow ? "" : " (about \(mib(total.partialValue)) MiB with the input and the process)"
        throw TabIconsError(.tooLarge, "\(what) needs more than \(mib(limits.maxDecodeMemory)) MiB\(needed)", format: format)
    }

    package static func bytes(
        _ data: Data, longestSideNeeded: Int?,
        limits: DecodeOptions.Limits = .default
    ) -> Int {
        // Each format's own estimate (`FormatDecoder.decodeMemory`, in its folder).
        guard let format = ImageFormat.sniff(data) else { return data.count + data.count * 4 }
        let decoder = ImageDecoder.decoder(for: format)
        return data.withUnsafeBytes { raw in
            data.count + decoder.decodeMemory(raw, longestSideNeeded: longestSideNeeded, limits: limits)
        }
    }

    /// A WebP of `width` × `height` delivered at `output`: the RGBA output; for a lossless
    /// bitstream libwebp's full-size ARGB (it decodes whole before scaling), for lossy with alpha
    /// its alpha plane (a byte a pixel). An animation is composited at full size (libwebp cannot
    /// scale it): libwebp's current and previous canvases and the copy kept (12 bytes a canvas
    /// pixel), and its first frame's decode, at most 4 bytes a frame pixel (lossless ARGB).
    static func webp(
        width: Int, height: Int, output: (width: Int, height: Int), isLossless: Bool,
        hasAlpha: Bool, animationFirstFrame: (width: Int, height: Int)?
    ) -> Int {
        let pixels = width * height
        if let frame = animationFirstFrame { return 12 * pixels + 4 * frame.width * frame.height }
        let decoded = isLossless ? 4 * pixels : (hasAlpha ? pixels : 0)
        return decoded + 4 * output.width * output.height
    }

    /// librsvg's document tree, about 16 bytes of tree a byte of markup (1.1 M elements in 1.8 GB),
    /// on the markup after decompression (an .svgz is charged as if it inflated 10:1, within the
    /// SVG limit), plus, when the markup may embed a `data:` image (an .svgz cannot be searched
    /// without inflating it), all that screening lets through (`SVGEmbeddedImages`, 8 bytes a
    /// pixel, charged in full since only decoding the images would tell).
    static func svg(_ data: Data, limits: DecodeOptions.Limits) -> Int {
        let compressed = SVGSniff.isGzip(data)
        let markup = min(compressed ? data.count * 10 : data.count, limits.maxSVGBytes)
        let mayEmbed = compressed ? data.count > 4096 : data.range(of: Data("data:".utf8)) != nil
        return markup * 16 + (mayEmbed ? SVGEmbeddedImages.maxPixels * 8 : 0)
    }

    /// A PNG decoded whole (`PNGDecoder`): from its header (`PNGChunks.probe`), `pngWhole` with
    /// libpng's working set; nothing when the decoder will refuse the header.
    static func png(_ bytes: UnsafeRawBufferPointer, limits: DecodeOptions.Limits) -> Int {
        guard let chunks = PNGChunks.probe(bytes, limits: limits) else { return 0 }
        let header = chunks.header
        return pngWhole(
            width: header.width, height: header.height, bitDepth: header.bitDepth,
            isInterlaced: header.isInterlaced, libpngBytes: chunks.libpngWorkingBytes)
    }

    /// A whole PNG decode: the RGBA result (4 bytes a pixel, whatever the depth or interlace:
    /// 16-bit rows are made 8-bit as read, Adam7 passes are placed as read), `PNGRowDecoder`'s rows
    /// and libpng's `libpngBytes` (`PNGChunks.libpngWorkingBytes`). Within the limits' sides and
    /// pixels, so it cannot overflow.
    static func pngWhole(width: Int, height: Int, bitDepth: Int, isInterlaced: Bool, libpngBytes: Int) -> Int {
        width * height * 4 + libpngBytes
            + PNGRowDecoder.heldBytes(
                width: width, height: height, bitDepth: bitDepth, isInterlaced: isInterlaced, streamed: false)
    }
}
