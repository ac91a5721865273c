internal import CPNG

/// PNG through libpng's simplified write API (`png_image_write_to_memory`), SPEC §4.
///
/// The output is as small as the colour content allows without changing a pixel: gray when
/// R = G = B everywhere, no alpha channel when every pixel is opaque (`PNGColorReduction`), and,
/// when there are at most 256 distinct colours, an indexed form if that compresses smaller. The
/// bytes are deterministic: the simplified writer emits IHDR, sRGB, (PLTE, tRNS,) IDAT, IEND and
/// never a timestamp, and zlib's output depends only on its input and settings.
///
/// The simplified API has one speed knob, `PNG_IMAGE_FLAG_FAST` (no filtering search, quicker
/// zlib settings); `Compression.fast` sets it. libpng advises it only for intermediate files, so
/// the default is `.smallest`.
public enum PNGEncoder {
    public enum Compression: Sendable, Equatable {
        /// libpng's default filtering and compression: the files to ship.
        case smallest
        /// `PNG_IMAGE_FLAG_FAST`: larger files, written faster (caches, intermediates).
        case fast
    }

    /// The PNG bytes of `bitmap`, which decode back to exactly its pixels.
    public static func encode(_ bitmap: Bitmap, compression: Compression = .smallest) throws(TabIconsError) -> [UInt8] {
        let reduced = PNGColorReduction(bitmap)
        var best = try write(width: bitmap.width, height: bitmap.height, format: format(reduced.layout),
                             pixels: reduced.samples, colormap: nil, compression: compression)
        if let palette = reduced.palette {
            let indexed = try write(width: bitmap.width, height: bitmap.height, format: TABICONS_PNG_FORMAT_RGBA_COLORMAP,
                                    pixels: palette.indices, colormap: palette, compression: compression)
            if indexed.count < best.count { best = indexed }
        }
        return best
    }

    private static func format(_ layout: PNGColorReduction.Layout) -> png_uint_32 {
        switch layout {
        case .gray: TABICONS_PNG_FORMAT_GRAY
        case .grayAlpha: TABICONS_PNG_FORMAT_GA
        case .rgb: TABICONS_PNG_FORMAT_RGB
        case .rgba: TABICONS_PNG_FORMAT_RGBA
        }
    }

    private static func write(width: Int, height: Int, format: png_uint_32, pixels: [UInt8],
                              colormap: PNGColorReduction.Palette?, compression: Compression) throws(TabIconsError) -> [UInt8] {
        var image = png_image()
        image.version = TABICONS_PNG_IMAGE_VERSION
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = format
        image.flags = compression == .fast ? TABICONS_PNG_IMAGE_FLAG_FAST : 0
        image.colormap_entries = png_uint_32(colormap?.count ?? 0)
        defer { png_image_free(&image) }

        // Compress once into a buffer libpng says is always large enough; should it still be
        // short, libpng reports the size it needs and the write is repeated once.
        var capacity = tabicons_png_image_png_size_max(&image)
        for _ in 0..<2 {
            var out = [UInt8](repeating: 0, count: Int(capacity))
            var written = capacity
            let ok = out.withUnsafeMutableBytes { dst in
                pixels.withUnsafeBytes { src in
                    (colormap?.colormap ?? []).withUnsafeBytes { map in
                        png_image_write_to_memory(&image, dst.baseAddress, &written, 0, src.baseAddress, 0,
                                                  colormap == nil ? nil : map.baseAddress)
                    }
                }
            }
            if ok != 0 {
                out.removeSubrange(Int(written)...)
                return out
            }
            guard written > capacity else { break }
            capacity = written
        }
        let message = withUnsafeBytes(of: image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        let code: TabIconsError.Code = message.lowercased().contains("memory") ? .tooLarge : .invalidArgument
        throw TabIconsError(code, message.isEmpty ? "libpng could not write the image" : message, format: .png)
    }
}
