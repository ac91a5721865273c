import TabIconsCore
internal import CJPEGDecode

/// JPEG through libjpeg-turbo: baseline, progressive, arithmetic, grayscale, CMYK and YCCK
/// (Adobe-inverted data handled), EXIF orientation applied, DCT scaling for shrink on load.
///
/// libjpeg itself lives behind the C target `CJPEGDecode`, which owns the setjmp/longjmp error
/// manager (libjpeg's error_exit must not return). This type runs the two phases around it:
/// read the header, check the size limits, and only then allocate and decode.
///
/// What is an error (see jpeg_decode.c for the full warning policy): every libjpeg error, a
/// premature end of the data (`truncated`, where libjpeg alone would fill grey), and damaged
/// entropy data (`corrupt`). Warnings that leave the coded pixels intact, such as extraneous
/// bytes before a marker, do not reject a picture.
enum JPEGDecoder: FormatDecoder {
    static let format = ImageFormat.jpeg
    static let name = "JPEG"
    static let fileExtensions = ["jpg", "jpeg"]

    static func sniff<Bytes: Collection>(head: [UInt8], _ data: Bytes) -> Bool where Bytes.Element == UInt8 {
        head.starts(with: [0xFF, 0xD8, 0xFF])
    }

    static func truncatedSignature(_ head: [UInt8]) -> String? {
        head.count < 3 && [0xFF, 0xD8].starts(with: head) ? name : nil
    }

    /// What libjpeg will hold decoding `bytes` at the hint (`Plan.heldBytes`); nothing for a
    /// header the decoder refuses.
    static func decodeMemory(_ bytes: UnsafeRawBufferPointer, longestSideNeeded: Int?, limits: DecodeOptions.Limits) -> Int {
        (try? plan(bytes, longestSideNeeded: longestSideNeeded, limits: limits))?.heldBytes ?? 0
    }

    /// What libjpeg decided for a decode of `bytes` at the hint, from its own header read and scale
    /// set-up (`prepare`), without decoding.
    struct Plan: Equatable {
        var numerator: Int
        /// The DC scans alone are read (jpeg_dc_only.c).
        var readsDCScansOnly: Bool
        /// The RGBA output and libjpeg's coefficient buffers.
        var heldBytes: Int
    }

    static func plan(
        _ bytes: UnsafeRawBufferPointer, longestSideNeeded: Int?,
        limits: DecodeOptions.Limits
    ) throws(TabIconsError) -> Plan {
        guard let session = tabicons_jpeg_open(bytes.baseAddress, bytes.count) else {
            throw TabIconsError(.tooLarge, "out of memory for a JPEG decoder", format: format)
        }
        defer { tabicons_jpeg_close(session) }
        let prepared = try prepare(session, longestSideNeeded: longestSideNeeded, limits: limits)
        return Plan(
            numerator: prepared.numerator, readsDCScansOnly: prepared.output.dc_only != 0,
            heldBytes: prepared.heldBytes)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage {
        guard let session = tabicons_jpeg_open(bytes.baseAddress, bytes.count) else {
            throw TabIconsError(.tooLarge, "out of memory for a JPEG decoder", format: format)
        }
        defer { tabicons_jpeg_close(session) }
        let prepared = try prepare(session, longestSideNeeded: options.longestSideNeeded, limits: options.limits)
        let header = prepared.header, width = prepared.width, height = prepared.height

        // The EXIF block lives inside the session (libjpeg's skipped APP1 marker): copy it out here.
        let orientation =
            header.exif.map { block in
                EXIF.orientation(tiff: Array(UnsafeBufferPointer(start: block, count: header.exif_length)))
            } ?? .up
        // What libjpeg and the output hold, and a second copy of the output when the orientation
        // is applied.
        let turned = orientation == .up ? 0 : prepared.outputBytes
        try DecodeMemoryEstimate.check(
            bytes.count + prepared.heldBytes + turned,
            decoding: "a \(width)×\(height) JPEG decoded at \(prepared.numerator)/8",
            limits: options.limits, format: format)

        var pixels = [UInt8](repeating: 0, count: prepared.outputBytes)
        let status = pixels.withUnsafeMutableBytes { buffer in
            tabicons_jpeg_read_rgba(session, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count)
        }
        try check(status, session)

        let stored = Bitmap(width: Int(prepared.output.width), height: Int(prepared.output.height), pixels: pixels)
        let swaps = orientation.swapsAxes
        return DecodedImage(
            bitmap: orientation.apply(to: stored), format: format,
            sourceWidth: swaps ? height : width, sourceHeight: swaps ? width : height,
            hasAlpha: false, orientation: orientation,
            bitDepth: Int(header.data_precision), colorModel: prepared.colorModel)
    }

    /// A session read up to its first scan and set to its scale: what libjpeg read and decided.
    struct Prepared {
        var header: tabicons_jpeg_header
        var colorModel: ImageInfo.ColorModel
        var numerator: Int
        /// libjpeg's answer for that scale (`tabicons_jpeg_output`): the output's size, whether
        /// the DC scans alone are read, the coefficients held.
        var output: tabicons_jpeg_output
        var width: Int { Int(header.width) }
        var height: Int { Int(header.height) }
        var outputBytes: Int { Int(output.width) * Int(output.height) * 4 }
        /// The RGBA output and libjpeg's coefficient buffers (fixed costs under a few hundred
        /// kilobytes are not counted).
        var heldBytes: Int { outputBytes + Int(output.coefficient_bytes) }
    }

    /// The decoder's first phase, shared with the memory estimate: libjpeg reads the header, the
    /// size limits are checked on it, then libjpeg sets up the scale the hint needs and reports
    /// what the decode will be (`tabicons_jpeg_set_scale`). Nothing is allocated for pixels.
    static func prepare(
        _ session: OpaquePointer, longestSideNeeded: Int?,
        limits: DecodeOptions.Limits
    ) throws(TabIconsError) -> Prepared {
        var header = tabicons_jpeg_header()
        let headerStatus = tabicons_jpeg_read_header(session, &header)
        if headerStatus == TABICONS_JPEG_UNSUPPORTED, header.data_precision != 8, header.data_precision > 0 {
            throw TabIconsError(
                .unsupported,
                "\(header.data_precision)-bit JPEG is not supported (\(message(session)))",
                format: format)
        }
        try check(headerStatus, session)
        let colorModel = try colorModel(of: header)
        let width = Int(header.width), height = Int(header.height)
        try limits.check(width: width, height: height, format: format)

        let numerator = scaleNumerator(longestSide: max(width, height), needed: longestSideNeeded)
        var output = tabicons_jpeg_output()
        try check(tabicons_jpeg_set_scale(session, Int32(numerator), &output), session)
        guard output.width > 0, output.height > 0 else {
            throw TabIconsError(.corrupt, "invalid output size \(output.width)×\(output.height)", format: format)
        }
        return Prepared(header: header, colorModel: colorModel, numerator: numerator, output: output)
    }

    /// The DCT scaling numerator M (the decode runs at M/8): the smallest M whose scaled longest
    /// side, ceil(longest × M / 8) as libjpeg computes it, is at least `needed`; 8 (full size)
    /// when no hint is given, when the hint is not positive, or when nothing smaller is enough.
    /// The longest side does not depend on orientation, so the stored size serves.
    static func scaleNumerator(longestSide: Int, needed: Int?) -> Int {
        guard let needed, needed > 0 else { return 8 }
        for m in 1..<8 where (longestSide * m + 7) / 8 >= needed {
            return m
        }
        return 8
    }

    private static func colorModel(of header: tabicons_jpeg_header) throws(TabIconsError) -> ImageInfo.ColorModel {
        switch header.color {
        case TABICONS_JPEG_COLOR_GRAY: return .gray
        case TABICONS_JPEG_COLOR_YCBCR: return .ycbcr
        case TABICONS_JPEG_COLOR_RGB: return .rgb
        case TABICONS_JPEG_COLOR_CMYK: return .cmyk
        case TABICONS_JPEG_COLOR_YCCK: return .ycck
        default:
            throw TabIconsError(
                .unsupported, "JPEG with \(header.components) components in an unknown colour space",
                format: format)
        }
    }

    private static func message(_ session: OpaquePointer) -> String {
        String(cString: tabicons_jpeg_message(session))
    }

    /// Throws the `TabIconsError` a C status stands for, with libjpeg's own words as the message.
    private static func check(_ status: tabicons_jpeg_status, _ session: OpaquePointer) throws(TabIconsError) {
        let code: TabIconsError.Code
        switch status {
        case TABICONS_JPEG_OK: return
        case TABICONS_JPEG_TRUNCATED: code = .truncated
        case TABICONS_JPEG_UNSUPPORTED: code = .unsupported
        case TABICONS_JPEG_TOO_LARGE: code = .tooLarge
        case TABICONS_JPEG_MISUSE: preconditionFailure("libjpeg misused: \(message(session))")
        default: code = .corrupt
        }
        throw TabIconsError(code, message(session), format: format)
    }
}
