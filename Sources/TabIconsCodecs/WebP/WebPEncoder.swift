import TabIconsCore
internal import CWebP

/// Bitmaps to WebP through libwebp (SPEC §4): lossless by default, lossy when given a quality.
///
/// Decisions:
/// - Lossless keeps every visible pixel exactly. Pixels with alpha 0 have no visible colour, so
///   their RGB is written as 0 (transparent black, the one form "nothing" takes under
///   premultiplication, which is how the resampler and every compositor see them) and libwebp's
///   `exact` mode then keeps that. The contract is therefore precise: decoding the output gives
///   the input with the RGB of alpha-0 pixels zeroed, byte for byte, on any libwebp version.
///   (libwebp's non-exact mode would also drop that colour, but leaves the bytes it writes there
///   to its predictor, which is version-dependent.)
/// - Lossy leaves transparent colour to libwebp (`exact` off): its clean-up flattens fully
///   transparent blocks, which compresses better than black and does not ring into the edges of
///   the visible glyph. It uses the sharp RGB→YUV conversion (icons are mostly hard colour
///   edges, where the plain conversion smears chroma) and the slowest, best method: icons are small.
/// - Opaque bitmaps are imported without alpha, so the file has no alpha channel (no VP8X/ALPH
///   for lossy, `alpha_is_used` 0 for lossless); libwebp's lossless coder handles grey content
///   (subtract-green and palette transforms) without being told.
/// - Output is deterministic: single-threaded, no timestamps, no metadata chunks.
enum WebPEncoder {
    /// The lossless effort level passed to `WebPConfigLosslessPreset` (0 fastest … 9 smallest).
    /// Level 9 saves about a percent of the bytes of level 6 for many times the time (bench/README.md,
    /// "Encoder settings"), so 6, cwebp's own default effort, is the better trade even for a build
    /// pipeline.
    static let losslessLevel: Int32 = 6

    /// The WebP format's limit on each side (WEBP_MAX_DIMENSION).
    static let maxSide = 16383

    /// Encodes `bitmap`: lossless when `quality` is nil, otherwise lossy at `quality` (0…100,
    /// libwebp's scale: 75 is cwebp's default, 100 the best).
    static func encode(_ bitmap: Bitmap, quality: Float? = nil) throws(TabIconsError) -> [UInt8] {
        if let quality, !(quality >= 0 && quality <= 100) {
            throw TabIconsError(
                .invalidArgument, "WebP quality must be between 0 and 100, not \(quality)",
                format: .webp)
        }
        guard bitmap.width <= maxSide, bitmap.height <= maxSide else {
            throw TabIconsError(
                .tooLarge, "WebP holds at most \(maxSide) px a side, not \(bitmap.width)×\(bitmap.height)",
                format: .webp)
        }
        var config = try makeConfig(quality: quality)

        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw TabIconsError(
                .unsupported, "libwebp rejected the encoder ABI version this build expects",
                format: .webp)
        }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(bitmap.width)
        picture.height = Int32(bitmap.height)
        // ARGB input lets WebPEncode do the RGB→YUV conversion itself, with the config's options.
        picture.use_argb = 1

        let opaque = !bitmap.hasTransparentPixels
        let pixels = opaque || quality != nil ? bitmap.pixels : zeroingHiddenColour(bitmap.pixels)
        let stride = Int32(bitmap.width * 4)
        let imported = pixels.withUnsafeBufferPointer { p -> Int32 in
            guard let base = p.baseAddress else { return 0 }
            return opaque ? WebPPictureImportRGBX(&picture, base, stride) : WebPPictureImportRGBA(&picture, base, stride)
        }
        guard imported != 0 else {
            throw TabIconsError(.tooLarge, "WebPPictureImportRGBA: libwebp could not allocate the picture", format: .webp)
        }

        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let succeeded = withUnsafeMutablePointer(to: &writer) { writerPointer -> Bool in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            defer { picture.custom_ptr = nil }
            return WebPEncode(&config, &picture) != 0
        }
        guard succeeded, let memory = writer.mem else { throw error(picture.error_code) }
        return Array(UnsafeBufferPointer(start: memory, count: writer.size))
    }

    private static func makeConfig(quality: Float?) throws(TabIconsError) -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw TabIconsError(
                .unsupported, "libwebp rejected the encoder ABI version this build expects",
                format: .webp)
        }
        if let quality {
            config.lossless = 0
            config.quality = quality
            config.method = 6
            config.use_sharp_yuv = 1
            config.exact = 0
        } else {
            // The level is ours and fixed: a refusal is a bug here, not a property of the input.
            guard WebPConfigLosslessPreset(&config, losslessLevel) != 0 else {
                preconditionFailure("WebPConfigLosslessPreset refused level \(losslessLevel)")
            }
            config.exact = 1
        }
        config.thread_level = 0
        guard WebPValidateConfig(&config) != 0 else {
            preconditionFailure("WebPValidateConfig: the encoder configuration is invalid")
        }
        return config
    }

    /// A copy of straight-alpha RGBA with the colour of alpha-0 pixels set to 0.
    static func zeroingHiddenColour(_ pixels: [UInt8]) -> [UInt8] {
        var out = pixels
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                if p[i + 3] == 0 { p[i] = 0; p[i + 1] = 0; p[i + 2] = 0 }
                i += 4
            }
        }
        return out
    }

    /// libwebp's encoding error as a TabIcons error, named as libwebp names it.
    private static func error(_ code: WebPEncodingError) -> TabIconsError {
        let (kind, name, meaning): (TabIconsError.Code, String, String)
        switch code {
        case VP8_ENC_ERROR_OUT_OF_MEMORY:
            (kind, name, meaning) = (.tooLarge, "VP8_ENC_ERROR_OUT_OF_MEMORY", "memory error allocating objects")
        case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY:
            (kind, name, meaning) = (.tooLarge, "VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY", "memory error while flushing bits")
        case VP8_ENC_ERROR_BAD_DIMENSION:
            (kind, name, meaning) = (.tooLarge, "VP8_ENC_ERROR_BAD_DIMENSION", "the picture has an invalid width or height")
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
            (kind, name, meaning) = (.tooLarge, "VP8_ENC_ERROR_PARTITION0_OVERFLOW", "partition 0 is bigger than 512 KiB")
        case VP8_ENC_ERROR_PARTITION_OVERFLOW:
            (kind, name, meaning) = (.tooLarge, "VP8_ENC_ERROR_PARTITION_OVERFLOW", "a partition is bigger than 16 MiB")
        case VP8_ENC_ERROR_FILE_TOO_BIG:
            (kind, name, meaning) = (.tooLarge, "VP8_ENC_ERROR_FILE_TOO_BIG", "the file would be bigger than 4 GiB")
        case VP8_ENC_ERROR_BAD_WRITE:
            (kind, name, meaning) = (.io, "VP8_ENC_ERROR_BAD_WRITE", "error while writing the bytes")
        case VP8_ENC_ERROR_USER_ABORT:
            (kind, name, meaning) = (.io, "VP8_ENC_ERROR_USER_ABORT", "encoding was aborted")
        default:
            // VP8_ENC_ERROR_INVALID_CONFIGURATION, VP8_ENC_ERROR_NULL_PARAMETER: what this file
            // passes is validated above, so these are bugs here, not properties of the input.
            preconditionFailure("WebPEncode misused: WebPEncodingError \(code.rawValue)")
        }
        return TabIconsError(kind, "WebPEncode: \(name): \(meaning)", format: .webp)
    }
}
