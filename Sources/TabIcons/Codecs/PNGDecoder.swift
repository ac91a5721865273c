internal import CPNG

/// PNG through libpng's simplified API (`png_image_*`), SPEC §2.
///
/// The order of work is the point of this type:
/// 1. `PNGChunks.scan` checks the structure up to the image data in Swift, so a chunk that claims
///    more bytes than the input holds never reaches libpng (which would allocate its length).
/// 2. `DecodeOptions.Limits.check` runs on the IHDR size, before libpng allocates anything and
///    before any pixel buffer exists.
/// 3. libpng reads the header, then the pixels, applying tRNS, Adam7 and gAMA/sRGB its way.
///
/// 8-bit and smaller sources are read as 8-bit sRGB RGBA, exactly what libpng produces.
/// 16-bit sources are read as libpng's 16-bit linear RGBA and encoded to 8-bit here
/// (`PNGLinear16`): libpng's own 16-to-8-bit path in `png_image_finish_read` scrambles Adam7
/// images in the patched releases (libpng issue #853) and overflows the caller's buffer in
/// unpatched ones before 1.6.51 (CVE-2025-65018). `PNG_IMAGE_FLAG_16BIT_sRGB` makes libpng treat
/// a 16-bit file without gAMA/sRGB as sRGB (its default is linear, which would brighten it).
///
/// PNG has no shrink-on-load: libpng always decodes the full size, so
/// `options.longestSideNeeded` is not used here (the limits still are).
///
/// Errors carry libpng's message ("IDAT: incorrect data check"); the code comes from its words
/// (`code(forLibpngMessage:)`). The `png_image` is freed on every path.
enum PNGDecoder: FormatDecoder {
    static let format = ImageFormat.png

    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage {
        let chunks = try PNGChunks.scan(bytes)
        let header = chunks.header
        try options.limits.check(width: header.width, height: header.height, format: format)

        var image = png_image()
        image.version = TABICONS_PNG_IMAGE_VERSION
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw libpngError(image)
        }
        // libpng has validated the IHDR the limits were checked on; they must agree.
        guard Int(image.width) == header.width, Int(image.height) == header.height else {
            throw TabIconsError(.corrupt, "IHDR size \(header.width)×\(header.height) disagrees with libpng's \(image.width)×\(image.height)",
                                format: format)
        }
        let hasAlpha = image.format & TABICONS_PNG_FORMAT_FLAG_ALPHA != 0 // alpha channel or tRNS
        let pixels: [UInt8]
        if header.bitDepth != 16 {
            pixels = try read8(&image)
        } else if chunks.hasColorSpace {
            image.flags |= TABICONS_PNG_IMAGE_FLAG_16BIT_sRGB // after begin_read, which resets flags
            pixels = try readLinear16(&image, samplesAreSRGB: false)
        } else {
            pixels = try readLinear16(&image, samplesAreSRGB: true)
        }

        return DecodedImage(
            bitmap: Bitmap(width: header.width, height: header.height, pixels: pixels),
            format: format, sourceWidth: header.width, sourceHeight: header.height,
            hasAlpha: hasAlpha, orientation: .up, isAnimated: (chunks.animationFrames ?? 0) > 1,
            bitDepth: header.bitDepth, colorModel: colorModel(header.colorType))
    }

    /// 8-bit sRGB RGBA with straight alpha, as libpng's simplified API writes it.
    private static func read8(_ image: inout png_image) throws(TabIconsError) -> [UInt8] {
        image.format = TABICONS_PNG_FORMAT_RGBA
        var pixels = [UInt8](repeating: 0, count: Int(tabicons_png_image_size(&image)))
        // Row stride 0: libpng's own minimal stride, the layout `Bitmap` wants.
        let ok = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard ok != 0 else { throw libpngError(image) }
        return pixels
    }

    /// 16-bit RGBA with associated alpha from libpng's linear output, made 8-bit sRGB here.
    ///
    /// A file with no colour-space chunk is sRGB by assumption (the 16-bit sRGB flag would make
    /// libpng convert it to linear light through a 64 K-entry `pow` table built for every file,
    /// and back in `PNGLinear16`: the table cost more than the decode). Without the flag libpng takes such a file for linear,
    /// which is then also the output's encoding: the samples arrive as they are stored, only
    /// premultiplied, and rounding them to 8 bits is the whole conversion (`samplesAreSRGB`).
    /// A file with gAMA, sRGB, iCCP or cHRM goes through libpng's colour handling as before.
    private static func readLinear16(_ image: inout png_image, samplesAreSRGB: Bool) throws(TabIconsError) -> [UInt8] {
        image.format = TABICONS_PNG_FORMAT_LINEAR_RGB_ALPHA
        var samples = [UInt16](repeating: 0, count: Int(tabicons_png_image_size(&image)) / 2)
        let ok = samples.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard ok != 0 else { throw libpngError(image) }
        return samplesAreSRGB ? PNGLinear16.rounded8(fromAssociated: samples) : PNGLinear16.sRGB8(fromAssociated: samples)
    }

    static func colorModel(_ colorType: Int) -> ImageInfo.ColorModel {
        switch colorType {
        case 0: .gray
        case 3: .palette
        case 4: .grayAlpha
        case 6: .rgba
        default: .rgb
        }
    }

    /// The failure libpng reported in `image.message`, with a code read off its words.
    private static func libpngError(_ image: png_image) -> TabIconsError {
        let message = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return libpngError(message: message)
    }

    /// The error for libpng's `message` (also `PNGRowDecoder`'s, so both readers fail alike).
    static func libpngError(message: String) -> TabIconsError {
        let reason = message.isEmpty ? "libpng failed without a message" : message
        return TabIconsError(code(forLibpngMessage: reason), reason, format: format)
    }

    /// `truncated` for libpng's ways of saying the data ran out, `tooLarge` for its memory and
    /// chunk-size limits, `corrupt` for everything else (CRC, signature, IHDR, zlib, filter...).
    static func code(forLibpngMessage message: String) -> TabIconsError.Code {
        let text = message.lowercased()
        if ["read beyond end", "not enough image data", "unexpected end", "truncated"].contains(where: text.contains) {
            return .truncated
        }
        if ["out of memory", "insufficient memory", "too large", "exceeds application limits"].contains(where: text.contains) {
            return .tooLarge
        }
        return .corrupt
    }
}
