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

    static func decodeMemory(_ bytes: UnsafeRawBufferPointer, longestSideNeeded: Int?, limits: DecodeOptions.Limits) -> Int {
        DecodeMemoryEstimate.jpeg(bytes.bindMemory(to: UInt8.self), longestSideNeeded: longestSideNeeded, limits: limits)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage {
        guard let session = tabicons_jpeg_open(bytes.baseAddress, bytes.count) else {
            throw TabIconsError(.tooLarge, "out of memory for a JPEG decoder", format: format)
        }
        defer { tabicons_jpeg_close(session) }

        var header = tabicons_jpeg_header()
        let headerStatus = tabicons_jpeg_read_header(session, &header)
        if headerStatus == TABICONS_JPEG_UNSUPPORTED, header.data_precision != 8, header.data_precision > 0 {
            throw TabIconsError(.unsupported,
                                "\(header.data_precision)-bit JPEG is not supported (\(message(session)))",
                                format: format)
        }
        try check(headerStatus, session)

        // The EXIF block lives inside the session (libjpeg's saved APP1 marker): copy it out here.
        let orientation = header.exif.map { block in
            EXIF.orientation(tiff: Array(UnsafeBufferPointer(start: block, count: header.exif_length)))
        } ?? .up
        let colorModel = try colorModel(of: header)
        let width = Int(header.width), height = Int(header.height)
        try options.limits.check(width: width, height: height, format: format)

        let numerator = scaleNumerator(longestSide: max(width, height), needed: options.longestSideNeeded)
        var outputWidth: Int32 = 0, outputHeight: Int32 = 0
        try check(tabicons_jpeg_set_scale(session, Int32(numerator), &outputWidth, &outputHeight), session)
        guard outputWidth > 0, outputHeight > 0 else {
            throw TabIconsError(.corrupt, "invalid output size \(outputWidth)×\(outputHeight)", format: format)
        }

        // What libjpeg and the output hold (`DecodeMemoryEstimate`), and a second copy of the
        // output when the orientation is applied.
        let walked = bytes.withMemoryRebound(to: UInt8.self) {
            DecodeMemoryEstimate.jpeg($0, longestSideNeeded: options.longestSideNeeded, limits: options.limits)
        }
        // Markers the walker cannot follow (junk libjpeg skips with a warning): every coefficient
        // of every component at full resolution for a progressive file, the most it can hold.
        let output = Int(outputWidth) * Int(outputHeight) * 4
        let held = walked > 0 ? walked : output + (header.progressive != 0 ? width * height * Int(header.components) * 2 : 0)
        let turned = orientation == .up ? 0 : output
        try DecodeMemoryEstimate.check(bytes.count + held + turned,
                                       decoding: "a \(width)×\(height) JPEG decoded at \(numerator)/8", limits: options.limits, format: format)

        var pixels = [UInt8](repeating: 0, count: Int(outputWidth) * Int(outputHeight) * 4)
        let status = pixels.withUnsafeMutableBytes { buffer in
            tabicons_jpeg_read_rgba(session, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count)
        }
        try check(status, session)

        let stored = Bitmap(width: Int(outputWidth), height: Int(outputHeight), pixels: pixels)
        let swaps = orientation.swapsAxes
        return DecodedImage(bitmap: orientation.apply(to: stored), format: format,
                            sourceWidth: swaps ? height : width, sourceHeight: swaps ? width : height,
                            hasAlpha: false, orientation: orientation,
                            bitDepth: Int(header.data_precision), colorModel: colorModel)
    }

    /// Whether a component sampled `h`×`v` (of the frame's `hMax`×`vMax`) goes through libjpeg's
    /// 1×1 IDCT at 1/8: libjpeg-turbo scales a component's IDCT up (and upsamples less) only when
    /// it is subsampled by 2 or more in both directions (jdmaster.c), as 4:2:0 chroma is; a
    /// file whose components all pass is decoded at 1/8 from its DC scans alone (CJPEGDecode).
    static func hasOneByOneIDCT(h: Int, v: Int, hMax: Int, vMax: Int) -> Bool {
        !(hMax % (2 * h) == 0 && vMax % (2 * v) == 0)
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
            throw TabIconsError(.unsupported, "JPEG with \(header.components) components in an unknown colour space",
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
