import TabIconsCore
internal import CWebP

/// WebP through libwebp: lossy (VP8), lossless (VP8L), with alpha, extended (VP8X) and animated.
///
/// The header is read first (`WebPGetFeatures`) so the size limits are checked before a single
/// pixel is allocated. Still images then decode through libwebp's advanced API straight into a
/// buffer this decoder owns (no second copy), optionally through libwebp's own scaler when the
/// caller needs fewer pixels; animations go through `WebPAnimDecoder`, which composites frames
/// onto the canvas, and only the first composited frame is kept (SPEC §2).
///
/// Decisions a reader should know:
/// - A file whose header says it has no alpha comes out fully opaque. VP8L can still store alpha
///   values below 255 while its header says "no alpha" (libwebp-test-data `bad_palette_index.webp`
///   does, through palette indices past the palette's end); `hasAlpha == false` promises an opaque
///   bitmap to the normalizer, so that promise is made true here. Pillow does the same.
/// - EXIF orientation in a VP8X `EXIF` chunk is applied, as for JPEG, so the rule "pixels come
///   out as they should be displayed" has no per-format exception. (Browsers differ on this for
///   WebP; Pillow's `exif_transpose`, libvips and ImageMagick's auto-orient apply it.)
/// - Colour model: lossy files report `ycbcr` (VP8 stores Y'CbCr; `hasAlpha` tells about the
///   separate alpha plane), lossless and animated files report `rgb` or `rgba`. Bit depth is 8.
enum WebPDecoder: FormatDecoder {
    static let format = ImageFormat.webp
    static let name = "WebP"
    static let fileExtensions = ["webp"]

    static func sniff<Bytes: Collection>(head: [UInt8], _ data: Bytes) -> Bool where Bytes.Element == UInt8 {
        head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("WEBP".utf8)
    }

    /// `RIFF` with fewer than 12 bytes, or `RIFF....WE`.
    static func truncatedSignature(_ head: [UInt8]) -> String? {
        head.count >= 4 && head.count < 12 && head.starts(with: Array("RIFF".utf8))
            && Array("WEBP".utf8).starts(with: head.dropFirst(8)) ? "WebP (RIFF)" : nil
    }

    /// What libwebp holds (`heldBytes`); four times the input when it cannot read a header.
    static func decodeMemory(_ bytes: UnsafeRawBufferPointer, longestSideNeeded: Int?, limits: DecodeOptions.Limits) -> Int {
        heldBytes(bytes, longestSideNeeded: longestSideNeeded, limits: limits) ?? bytes.count * 4
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            throw TabIconsError(.truncated, "the input is empty", format: format)
        }
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(base, bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw error(status, during: "WebPGetFeatures") }

        let width = Int(features.width), height = Int(features.height)
        try options.limits.check(width: width, height: height, format: format)

        let hasAlpha = features.has_alpha != 0
        let isAnimated = features.has_animation != 0
        // A turned bitmap is a second copy of the output (`Orientation.apply`).
        let orientation = exifOrientation(bytes)
        let output = shrunkSize(width: width, height: height, longestSideNeeded: isAnimated ? nil : options.longestSideNeeded)
        let turned = orientation == .up ? 0 : 4 * (output?.width ?? width) * (output?.height ?? height)
        try DecodeMemoryEstimate.check(
            bytes.count + heldBytes(features, bytes, longestSideNeeded: options.longestSideNeeded) + turned,
            decoding: "a \(width)×\(height) \(isAnimated ? "animated WebP canvas" : "WebP")", limits: options.limits,
            format: format)
        var bitmap =
            isAnimated
            ? try WebPAnimationDecoder.firstFrame(bytes)
            : try decodeStill(
                base, count: bytes.count, width: width, height: height,
                longestSideNeeded: options.longestSideNeeded)
        // Lossy (VP8) without an ALPH chunk always writes alpha 255; the others may not.
        if !hasAlpha && features.format != 1 { makeOpaque(&bitmap) }

        let colorModel: ImageInfo.ColorModel =
            features.format == 1 && !isAnimated
            ? .ycbcr
            : (hasAlpha ? .rgba : .rgb)
        let swaps = orientation.swapsAxes
        return DecodedImage(
            bitmap: orientation.apply(to: bitmap), format: format,
            sourceWidth: swaps ? height : width, sourceHeight: swaps ? width : height,
            hasAlpha: hasAlpha, orientation: orientation, isAnimated: isAnimated,
            bitDepth: 8, colorModel: colorModel)
    }

    /// What decoding bytes of these features holds (`DecodeMemoryEstimate.webp`), from the header;
    /// nil when libwebp cannot read one, 0 when the limits refuse its size (nothing is allocated).
    static func heldBytes(_ bytes: UnsafeRawBufferPointer, longestSideNeeded: Int?, limits: DecodeOptions.Limits) -> Int? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { return nil }
        var features = WebPBitstreamFeatures()
        guard WebPGetFeatures(base, bytes.count, &features) == VP8_STATUS_OK else { return nil }
        guard (try? limits.check(width: Int(features.width), height: Int(features.height), format: format)) != nil else {
            return 0
        }
        return heldBytes(features, bytes, longestSideNeeded: longestSideNeeded)
    }

    private static func heldBytes(
        _ features: WebPBitstreamFeatures, _ bytes: UnsafeRawBufferPointer,
        longestSideNeeded: Int?
    ) -> Int {
        let width = Int(features.width), height = Int(features.height)
        let isAnimated = features.has_animation != 0
        let output = isAnimated ? nil : shrunkSize(width: width, height: height, longestSideNeeded: longestSideNeeded)
        // A first frame the demuxer cannot size is charged as large as the canvas.
        let frame = isAnimated ? WebPAnimationDecoder.firstFrameSize(bytes) ?? (width, height) : (0, 0)
        return DecodeMemoryEstimate.webp(
            width: width, height: height, output: output ?? (width, height),
            isLossless: features.format == 2, hasAlpha: features.has_alpha != 0,
            animationFirstFrame: isAnimated ? frame : nil)
    }

    /// The output size for a shrink-on-load hint: the longest side becomes exactly
    /// `longestSideNeeded` (at least 1), the other side keeps the aspect as the rule rounds it
    /// (`IconBox.fitted`), and nil means "decode at full size":
    /// no hint, or a hint at or above the source's longest side (never upscale).
    static func shrunkSize(width: Int, height: Int, longestSideNeeded: Int?) -> (width: Int, height: Int)? {
        guard let needed = longestSideNeeded else { return nil }
        let target = max(needed, 1)
        guard target < max(width, height) else { return nil }
        return IconBox.fitted(width: width, height: height, longestSide: target)
    }

    /// A still image through `WebPDecode` into a buffer allocated here, after the limits passed.
    ///
    /// Scaling uses libwebp's rescaler, an exact area average when shrinking (a box filter over
    /// the covered source pixels), which is what downscaling by large factors wants: no aliasing,
    /// no ringing. It works on premultiplied alpha for RGBA output, so transparent pixels' hidden
    /// colour does not bleed into the edges. The normalizer's Lanczos pass then starts from a
    /// bitmap no larger than the icon needs.
    private static func decodeStill(
        _ base: UnsafePointer<UInt8>, count: Int, width: Int, height: Int,
        longestSideNeeded: Int?
    ) throws(TabIconsError) -> Bitmap {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw TabIconsError(
                .unsupported, "libwebp rejected the decoder ABI version this build expects",
                format: format)
        }
        var outWidth = width, outHeight = height
        if let shrunk = shrunkSize(width: width, height: height, longestSideNeeded: longestSideNeeded) {
            (outWidth, outHeight) = shrunk
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(outWidth)
            config.options.scaled_height = Int32(outHeight)
        }
        config.options.use_threads = 0
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1

        let byteCount = outWidth * outHeight * 4
        var status = VP8_STATUS_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(outWidth * 4)
            config.output.u.RGBA.size = byteCount
            status = WebPDecode(base, count, &config)
            // On success libwebp has written every row; on failure the bytes are dropped.
            initialized = status == VP8_STATUS_OK ? byteCount : 0
        }
        WebPFreeDecBuffer(&config.output)  // frees nothing for external memory; kept for symmetry
        guard status == VP8_STATUS_OK else { throw error(status, during: "WebPDecode") }
        return Bitmap(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// Sets every alpha byte to 255 (see the type's note on files that say they have no alpha).
    private static func makeOpaque(_ bitmap: inout Bitmap) {
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            var i = 3
            while i < p.count {
                p[i] = 255
                i += 4
            }
        }
    }

    /// The orientation in the VP8X `EXIF` chunk, or `.up` when there is none or it cannot be read.
    /// Only extended files (VP8X with the EXIF flag) can carry one, so others skip the demuxer.
    private static func exifOrientation(_ bytes: UnsafeRawBufferPointer) -> Orientation {
        guard bytes.count >= 21, bytes[12] == 0x56, bytes[13] == 0x50, bytes[14] == 0x38, bytes[15] == 0x58,
            bytes[20] & UInt8(truncatingIfNeeded: EXIF_FLAG.rawValue) != 0,
            let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return .up }
        var data = WebPData(bytes: base, size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { return .up }
        defer { WebPDemuxDelete(demuxer) }
        var chunk = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "EXIF", 1, &chunk) != 0 else { return .up }
        defer { WebPDemuxReleaseChunkIterator(&chunk) }
        guard let payload = chunk.chunk.bytes else { return .up }
        return EXIF.orientation(Array(UnsafeRawBufferPointer(start: payload, count: chunk.chunk.size)))
    }

    /// A libwebp status as an error. libwebp has no message strings, so the message is the
    /// status's own name (what its headers and bug reports use) and its meaning in words.
    static func error(_ status: VP8StatusCode, during call: String) -> TabIconsError {
        let (code, name, meaning): (TabIconsError.Code, String, String)
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA:
            (code, name, meaning) = (.truncated, "VP8_STATUS_NOT_ENOUGH_DATA", "the data ends before the image does")
        case VP8_STATUS_BITSTREAM_ERROR:
            (code, name, meaning) = (.corrupt, "VP8_STATUS_BITSTREAM_ERROR", "the bitstream is corrupt")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            (code, name, meaning) = (
                .unsupported, "VP8_STATUS_UNSUPPORTED_FEATURE",
                "the file uses a feature this libwebp does not support"
            )
        case VP8_STATUS_OUT_OF_MEMORY:
            // Reached only past the pixel limits, so the image is too large for this machine.
            (code, name, meaning) = (.tooLarge, "VP8_STATUS_OUT_OF_MEMORY", "libwebp could not allocate memory")
        case VP8_STATUS_INVALID_PARAM:
            // libwebp answers this to headers whose values make no sense (e.g. a zero size).
            (code, name, meaning) = (.corrupt, "VP8_STATUS_INVALID_PARAM", "the header holds invalid values")
        case VP8_STATUS_SUSPENDED:
            (code, name, meaning) = (.truncated, "VP8_STATUS_SUSPENDED", "decoding stopped waiting for more data")
        case VP8_STATUS_USER_ABORT:
            (code, name, meaning) = (.corrupt, "VP8_STATUS_USER_ABORT", "decoding was aborted")
        default:
            (code, name, meaning) = (.corrupt, "VP8 status \(status.rawValue)", "an unknown libwebp error")
        }
        return TabIconsError(code, "\(call): \(name): \(meaning)", format: format)
    }
}
