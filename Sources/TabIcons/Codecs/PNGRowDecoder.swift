internal import CPNGDecode

/// A PNG read row by row (libpng's sequential API, `CPNGDecode`), for streamed normalization: the
/// rows are what `PNGDecoder` would produce, byte for byte, but only one exists at a time.
///
/// The front is `PNGDecoder`'s: `PNGChunks.scan` and the size limits before libpng sees the
/// bytes, the same IHDR agreement check, the same error codes and words. Only a non-interlaced
/// source of 8 bits or less can be streamed (`canStream`): an Adam7 image has no final row before
/// its last pass, and 16-bit sources take `PNGDecoder`'s linear path (`PNGLinear16`).
///
/// The bytes given to `init` must stay valid for the decoder's lifetime.
final class PNGRowDecoder {
    let width: Int
    let height: Int
    /// An alpha channel or tRNS (`ImageInfo.hasAlpha`).
    let hasAlpha: Bool
    let isInterlaced: Bool
    let bitDepth: Int
    let colorModel: ImageInfo.ColorModel
    let isAnimated: Bool
    private let reader: OpaquePointer

    /// Reads everything up to the image data. Throws what `PNGDecoder.decode` throws for the same
    /// bytes up to that point.
    init(_ bytes: UnsafeRawBufferPointer, limits: DecodeOptions.Limits) throws(TabIconsError) {
        let chunks = try PNGChunks.scan(bytes)
        let header = chunks.header
        try limits.check(width: header.width, height: header.height, format: .png)
        var info = tabicons_png_rows_header()
        var message = [CChar](repeating: 0, count: 64)
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard let reader = tabicons_png_rows_begin(base, bytes.count, &info, &message, message.count) else {
            let words = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            throw PNGDecoder.libpngError(message: String(decoding: words, as: UTF8.self))
        }
        // libpng has validated the IHDR the limits were checked on; they must agree.
        guard Int(info.width) == header.width, Int(info.height) == header.height else {
            tabicons_png_rows_free(reader)
            throw TabIconsError(.corrupt, "IHDR size \(header.width)×\(header.height) disagrees with libpng's \(info.width)×\(info.height)",
                                format: .png)
        }
        self.reader = reader
        width = header.width
        height = header.height
        hasAlpha = info.has_alpha != 0
        isInterlaced = info.interlaced != 0
        bitDepth = header.bitDepth
        colorModel = PNGDecoder.colorModel(header.colorType)
        isAnimated = (chunks.animationFrames ?? 0) > 1
    }

    deinit { tabicons_png_rows_free(reader) }

    /// Whether the rows can be read one at a time (see the type's comment).
    var canStream: Bool { !isInterlaced && bitDepth <= 8 }

    /// Sets libpng's RGBA transformations; call once, before the first `readRows`.
    func start() throws(TabIconsError) {
        precondition(canStream, "PNGRowDecoder.start: this source cannot be streamed")
        guard tabicons_png_rows_start(reader) != 0 else { throw lastError() }
    }

    /// The next `count` rows as 8-bit sRGB RGBA (`width × 4` bytes each, packed) into `rows`.
    func readRows(into rows: UnsafeMutablePointer<UInt8>, count: Int) throws(TabIconsError) {
        guard tabicons_png_rows_read(reader, rows, UInt32(count), width * 4) != 0 else { throw lastError() }
    }

    /// The most bytes libpng has held at once for this decoder (its own allocations, counted).
    var libpngPeakBytes: Int { tabicons_png_rows_peak_bytes(reader) }

    private func lastError() -> TabIconsError {
        PNGDecoder.libpngError(message: String(cString: tabicons_png_rows_message(reader)))
    }
}
