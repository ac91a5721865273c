import TabIconsCore
/// A whole PNG as 8-bit sRGB RGBA (SPEC §2), through `PNGRowDecoder`, which reads with libpng's
/// sequential API exactly what its simplified API (`png_image_finish_read`) writes: tRNS, Adam7,
/// gAMA/sRGB handled its way, 16-bit sources through libpng's 16-bit linear output made 8-bit here
/// row by row (`PNGLinear16`; libpng's own 16-to-8-bit path scrambles Adam7 images in the patched
/// releases, libpng issue #853, and overflows in unpatched ones before 1.6.51, CVE-2025-65018).
///
/// The order of work is the point of this type:
/// 1. `PNGChunks.scan` checks the structure up to the image data in Swift, so a chunk that claims
///    more bytes than the input holds never reaches libpng (which would allocate its length).
/// 2. `DecodeOptions.Limits.check` runs on the IHDR size, `PNGImageDataBound` on what the data
///    could fill, then the memory this decode holds (`DecodeMemoryEstimate.pngWhole`) against the
///    decode-memory limit: all before libpng reads a row and before any pixel buffer exists.
/// 3. libpng reads the rows into one RGBA buffer.
///
/// PNG has no shrink-on-load: the whole image is held, so `options.longestSideNeeded` is not used
/// here (streamed normalization reads PNG row by row instead).
///
/// Errors carry libpng's message ("IDAT: incorrect data check"); the code comes from its words
/// (`code(forLibpngMessage:)`).
enum PNGDecoder: FormatDecoder {
    static let format = ImageFormat.png
    static let name = "PNG"
    static let fileExtensions = ["png"]

    /// `\x89PNG` alone, not the whole 8-byte signature: a file whose line endings a text transfer
    /// mangled (the last four bytes) is still a PNG, and libpng then says exactly that ("PNG file
    /// corrupted by ASCII conversion") instead of "not an image".
    static func sniff<Bytes: Collection>(head: [UInt8], _ data: Bytes) -> Bool where Bytes.Element == UInt8 {
        head.starts(with: [0x89, 0x50, 0x4E, 0x47])
    }

    static func truncatedSignature(_ head: [UInt8]) -> String? {
        head.count < 8 && PNGChunks.signature.starts(with: head) ? name : nil
    }

    static func decodeMemory(_ bytes: UnsafeRawBufferPointer, longestSideNeeded: Int?, limits: DecodeOptions.Limits) -> Int {
        DecodeMemoryEstimate.png(bytes, limits: limits)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage {
        let decoder = try PNGRowDecoder(bytes, limits: options.limits)
        let width = decoder.width, height = decoder.height
        try DecodeMemoryEstimate.check(
            bytes.count
                + DecodeMemoryEstimate.pngWhole(
                    width: width, height: height, bitDepth: decoder.bitDepth,
                    isInterlaced: decoder.isInterlaced,
                    libpngBytes: decoder.chunks.libpngWorkingBytes),
            decoding: "a \(width)×\(height) PNG decoded whole", limits: options.limits, format: format)
        try decoder.start()
        // Uninitialized: pages the rows never reach (a file that ends early) are never touched.
        var failure: TabIconsError?
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
            do throws(TabIconsError) {
                if let base = buffer.baseAddress { try decoder.readImage(into: base) }
                initialized = buffer.count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }

        return DecodedImage(
            bitmap: Bitmap(width: width, height: height, pixels: pixels),
            format: format, sourceWidth: width, sourceHeight: height,
            hasAlpha: decoder.hasAlpha, orientation: .up, isAnimated: decoder.isAnimated,
            bitDepth: decoder.bitDepth, colorModel: decoder.colorModel)
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

    /// The error for libpng's `message`.
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
