import TabIconsCore
internal import CPNGEncode

/// PNG (SPEC §4), written by the `CPNGEncode` C target: rows filtered by libpng's rule, the image
/// compressed in one libdeflate call.
///
/// The output is as small as the colour content allows without changing a pixel: gray when
/// R = G = B everywhere, no alpha channel when every pixel is opaque (`PNGColorReduction`), and,
/// when there are at most 256 distinct colours, an indexed form if that compresses smaller. The
/// bytes are deterministic: IHDR, sRGB, (PLTE, tRNS,) IDAT, IEND and never a timestamp, and
/// libdeflate's output depends only on its input and level.
///
/// Settings: truecolour and gray rows get libpng's adaptive filter choice (all five filters, the
/// smallest sum of signed magnitudes, as libpng and Pillow choose), indexed rows no filter
/// (libpng's rule for palettes). `.balanced` is libdeflate's default level, smaller than zlib's
/// level 6 and faster than its level 5 (bench/README.md has the measurement): what `tabicon`
/// writes. `.fast` trades size for time (tests' fixtures, caches).
enum PNGEncoder {
    enum Compression: Sendable, Equatable {
        /// libdeflate level 6. The default.
        case balanced
        /// libdeflate level 1: larger files, written faster.
        case fast

        var level: Int32 {
            switch self {
            case .balanced: 6
            case .fast: 1
            }
        }
    }

    /// The PNG bytes of `bitmap`, which decode back to exactly its pixels.
    static func encode(_ bitmap: Bitmap, compression: Compression = .balanced) throws(TabIconsError) -> [UInt8] {
        let reduced = PNGColorReduction(bitmap)
        let channels = reduced.layout.channels
        var settings = tabicons_png_settings()
        settings.color_type = colorType(reduced.layout)
        settings.bit_depth = 8
        settings.level = compression.level
        settings.filters = Int32(TABICONS_PNG_ALL_FILTERS)
        var best = try write(
            reduced.samples, width: bitmap.width, height: bitmap.height,
            stride: bitmap.width * channels, settings: settings)
        if let palette = reduced.palette, Self.smallestIndexedSize(palette) < best.count {
            let entries = palette.count
            var rgb: [UInt8] = [], alpha: [UInt8] = []
            rgb.reserveCapacity(entries * 3)
            for i in 0..<entries {
                rgb += palette.colormap[(i * 4)..<(i * 4 + 3)]
                alpha.append(palette.colormap[i * 4 + 3])
            }
            // tRNS holds the entries up to the last translucent one (they come first).
            let translucent = alpha.lastIndex { $0 != 255 }.map { $0 + 1 } ?? 0
            settings.color_type = 3
            settings.bit_depth = entries <= 2 ? 1 : entries <= 4 ? 2 : entries <= 16 ? 4 : 8
            settings.filters = Int32(TABICONS_PNG_FILTER_NONE)
            settings.palette_count = Int32(entries)
            settings.trns_count = Int32(translucent)
            let indexed = try rgb.withUnsafeBufferPointer { rgbBuffer throws(TabIconsError) in
                try alpha.withUnsafeBufferPointer { alphaBuffer throws(TabIconsError) in
                    settings.palette = rgbBuffer.baseAddress
                    settings.trns = alphaBuffer.baseAddress
                    return try write(
                        palette.indices, width: bitmap.width, height: bitmap.height,
                        stride: bitmap.width, settings: settings)
                }
            }
            if indexed.count < best.count { best = indexed }
        }
        return best
    }

    /// A lower bound on the indexed file's size: signature, IHDR, sRGB, PLTE, tRNS, an IDAT of
    /// at least zlib's 8-byte minimum, IEND. When the truecolour file is already no larger, the
    /// indexed one cannot win and is not compressed at all (small icons with many colours: their
    /// palette chunks alone outweigh the whole truecolour file).
    static func smallestIndexedSize(_ palette: PNGColorReduction.Palette) -> Int {
        var translucent = 0
        for entry in 0..<palette.count where palette.colormap[entry * 4 + 3] != 255 { translucent = entry + 1 }
        let fixed = 8 + 25 + 13 + (12 + 8) + 12  // signature, IHDR, sRGB, smallest IDAT, IEND
        let plte = 12 + 3 * palette.count
        let trns = translucent > 0 ? 12 + translucent : 0
        return fixed + plte + trns
    }

    private static func colorType(_ layout: PNGColorReduction.Layout) -> Int32 {
        switch layout {
        case .gray: 0
        case .grayAlpha: 4
        case .rgb: 2
        case .rgba: 6
        }
    }

    private static func write(
        _ pixels: [UInt8], width: Int, height: Int, stride: Int,
        settings: tabicons_png_settings
    ) throws(TabIconsError) -> [UInt8] {
        var output = tabicons_png_output()
        defer { tabicons_png_output_free(&output) }
        var message = [CChar](repeating: 0, count: 200)
        var settings = settings
        let ok = pixels.withUnsafeBufferPointer { src in
            message.withUnsafeMutableBufferPointer { text in
                tabicons_png_encode(
                    src.baseAddress, Int32(width), Int32(height), stride, &settings, &output,
                    text.baseAddress, text.count)
            }
        }
        guard ok != 0, let data = output.data else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // Running out of memory (or an image too large for PNG's chunks) is the only way a bitmap
            // this package made can fail to encode; anything else means the settings were wrong:
            // a bug, not an input.
            guard reason.contains("memory") || reason.contains("too large") else {
                preconditionFailure("the PNG writer refused its settings: \(reason)")
            }
            throw TabIconsError(.tooLarge, reason, format: .png)
        }
        return Array(UnsafeBufferPointer(start: data, count: output.size))
    }
}
