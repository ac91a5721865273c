import TabIconsCore
internal import CPNGDecode

/// A PNG read row by row (libpng's sequential API, `CPNGDecode`): the one PNG reader, behind both
/// `PNGDecoder` (the whole image) and streamed normalization (one final row at a time). Every
/// row is what libpng's simplified API (`png_image_finish_read`) would write, byte for byte.
///
/// Memory is the point (SPEC §2, "Memory follows the limits"):
/// - libpng discards text and other unused ancillary chunks unread, from the first chunk on;
/// - nothing is allocated for pixels before `PNGImageDataBound` has found the image data able to
///   fill the header's size;
/// - a 16-bit source is read as libpng's 16-bit linear RGBA one row at a time and made 8-bit
///   sRGB as it arrives (`PNGLinear16`): the 16-bit image never exists;
/// - an Adam7 source is read pass by pass. Whole, each pass's pixels go straight to their place;
///   streamed, the even rows (complete after pass 6) wait at 4 bytes a pixel, and each odd row
///   (all of it in pass 7) is handed on as it is read, after the even row above it.
///   What this decoder holds is `heldBytes`.
///
/// The bytes given to `init` must stay valid for the decoder's lifetime.
package final class PNGRowDecoder {
    package let width: Int
    package let height: Int
    /// An alpha channel or tRNS (`ImageInfo.hasAlpha`).
    package let hasAlpha: Bool
    package let isInterlaced: Bool
    package let bitDepth: Int
    package let colorModel: ImageInfo.ColorModel
    package let isAnimated: Bool
    /// The header and the chunks before the image data, as `PNGChunks.scan` read them.
    package let chunks: PNGChunks
    /// gAMA, sRGB, iCCP or cHRM before the image data: a 16-bit source then goes through libpng's
    /// colour handling (`PNG_IMAGE_FLAG_16BIT_sRGB`), otherwise its samples are taken as sRGB.
    private let hasColorSpace: Bool
    private let reader: OpaquePointer
    /// One row as libpng delivers it (16-bit: 8 bytes a pixel; interlaced 8-bit: 4), and a 16-bit
    /// row made 8-bit; nil where not needed. Owned here (freed in deinit) so that pointers into
    /// them stay valid between calls.
    private var libpngRow: UnsafeMutableRawPointer?
    private var convertedRow: UnsafeMutablePointer<UInt8>?
    /// Streamed Adam7: the even rows after pass 6, and the next final row to hand on.
    private var evenRows: UnsafeMutablePointer<UInt8>?
    private var nextRow = 0

    /// Reads everything up to the image data, after the structure walk (`PNGChunks`), the size
    /// limits and the image-data bound have passed. `scanned` is the walk's result for these very
    /// bytes when the caller has it already (the normalization's route, `PNGChunks.probe`).
    package init(_ bytes: UnsafeRawBufferPointer, limits: DecodeOptions.Limits, scanned: PNGChunks? = nil) throws(TabIconsError) {
        let chunks: PNGChunks
        if let scanned { chunks = scanned } else { chunks = try PNGChunks.scan(bytes) }
        let header = chunks.header
        try limits.check(width: header.width, height: header.height, format: .png)
        try PNGImageDataBound.check(chunks, inputBytes: bytes.count)
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
            throw TabIconsError(
                .corrupt, "IHDR size \(header.width)×\(header.height) disagrees with libpng's \(info.width)×\(info.height)",
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
        hasColorSpace = chunks.hasColorSpace
        self.chunks = chunks
    }

    deinit {
        tabicons_png_rows_free(reader)
        libpngRow?.deallocate()
        convertedRow?.deallocate()
        evenRows?.deallocate()
    }

    /// What this decoder's own buffers hold besides libpng (`libpngPeakBytes`) for a source of
    /// these facts: streamed, the waiting even rows of an Adam7 image; either way the rows libpng
    /// delivers into and their 8-bit conversion.
    package static func heldBytes(width: Int, height: Int, bitDepth: Int, isInterlaced: Bool, streamed: Bool) -> Int {
        let rows = bitDepth == 16 ? width * 8 + width * 4 : (isInterlaced ? width * 4 : 0)
        return rows + (streamed && isInterlaced ? (height + 1) / 2 * width * 4 : 0)
            + inflatedBytes(width: width, height: height, bitDepth: bitDepth, isInterlaced: isInterlaced)
    }

    /// What the whole-image inflate (`CPNGDecode`'s fast path) can hold for a source of these
    /// facts: its rows of image data and the IDAT chunks' data joined, each at most
    /// `TABICONS_PNG_INFLATED_MAX_BYTES` and a sixteenth, and libdeflate's state (under 16 KiB);
    /// charged at 4 bytes a pixel whatever the colour type, and only where the path can apply.
    static func inflatedBytes(width: Int, height: Int, bitDepth: Int, isInterlaced: Bool) -> Int {
        let most = Int(TABICONS_PNG_INFLATED_MAX_BYTES)
        guard bitDepth <= 8, !isInterlaced, width <= most, height <= most else { return 0 }
        let filtered = height * (1 + (width * 4))
        return filtered <= most ? 2 * filtered + filtered / 16 + 4096 + (16 << 10) : 0
    }

    /// Sets libpng's transformations; call once, before reading. `inflateSmall: false` reads every
    /// image through libpng (the tests compare the two ways).
    package func start(inflateSmall: Bool = true) throws(TabIconsError) {
        let linear: Int32 = bitDepth == 16 ? 1 : 0
        guard tabicons_png_rows_start(reader, linear, hasColorSpace ? 1 : 0, inflateSmall ? 1 : 0) != 0 else {
            throw lastError()
        }
        if bitDepth == 16 || isInterlaced {
            libpngRow = UnsafeMutableRawPointer.allocate(byteCount: width * (bitDepth == 16 ? 8 : 4), alignment: 8)
        }
        if bitDepth == 16 { convertedRow = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 4) }
    }

    /// The whole image as 8-bit sRGB RGBA (`width × 4` bytes a row, packed) into `pixels`.
    package func readImage(into pixels: UnsafeMutablePointer<UInt8>) throws(TabIconsError) {
        let rowBytes = width * 4
        if !isInterlaced && bitDepth != 16 {
            try read(into: pixels, count: height, stride: rowBytes)
            return
        }
        for pass in isInterlaced ? PNGAdam7.passes(width: width, height: height) : [PNGAdam7.Pass.whole] {
            let passWidth = pass.width(ofImageWidth: width)
            for y in stride(from: pass.yStart, to: height, by: pass.yStep) {
                let pixels8 = try readPassRow(width: passWidth)
                place(pixels8, count: passWidth, into: pixels + y * rowBytes, pass: pass)
            }
        }
    }

    /// The next `count` final rows as 8-bit sRGB RGBA (`width × 4` bytes each, packed) into `rows`,
    /// top to bottom.
    package func readRows(into rows: UnsafeMutablePointer<UInt8>, count: Int) throws(TabIconsError) {
        let rowBytes = width * 4
        if !isInterlaced && bitDepth != 16 {
            try read(into: rows, count: count, stride: rowBytes)
            return
        }
        for i in 0..<count {
            let destination = rows + i * rowBytes
            defer { nextRow += 1 }
            if !isInterlaced {
                let pixels8 = try readPassRow(width: width)
                destination.update(from: pixels8, count: rowBytes)
            } else if nextRow % 2 == 1 {
                let pixels8 = try readPassRow(width: width)  // pass 7: every pixel of an odd row
                destination.update(from: pixels8, count: rowBytes)
            } else {
                let even: UnsafeMutablePointer<UInt8>
                if let read = evenRows { even = read } else { even = try readEvenRows() }
                destination.update(from: even + nextRow / 2 * rowBytes, count: rowBytes)
            }
        }
    }

    /// Passes 1–6 of an Adam7 image (every pixel of the even rows), placed in `evenRows`.
    private func readEvenRows() throws(TabIconsError) -> UnsafeMutablePointer<UInt8> {
        let rowBytes = width * 4
        let even = UnsafeMutablePointer<UInt8>.allocate(capacity: (height + 1) / 2 * rowBytes)
        evenRows = even
        for pass in PNGAdam7.passes(width: width, height: height) where pass.yStart % 2 == 0 {
            let passWidth = pass.width(ofImageWidth: width)
            for y in stride(from: pass.yStart, to: height, by: pass.yStep) {
                place(try readPassRow(width: passWidth), count: passWidth, into: even + y / 2 * rowBytes, pass: pass)
            }
        }
        return even
    }

    /// The next row libpng delivers, `width` pixels of it, as 8-bit RGBA (valid until the next call).
    private func readPassRow(width: Int) throws(TabIconsError) -> UnsafePointer<UInt8> {
        guard let raw = libpngRow else { preconditionFailure("PNGRowDecoder: start() first") }
        try read(into: raw.assumingMemoryBound(to: UInt8.self), count: 1, stride: 0)
        guard let converted = convertedRow else { return UnsafePointer(raw.assumingMemoryBound(to: UInt8.self)) }
        let samples = UnsafeBufferPointer(start: raw.assumingMemoryBound(to: UInt16.self), count: width * 4)
        PNGLinear16.convert(samples, into: converted, samplesAreSRGB: !hasColorSpace)
        return UnsafePointer(converted)
    }

    /// A pass row's `count` pixels to their columns in the image row at `row`.
    private func place(_ pixels: UnsafePointer<UInt8>, count: Int, into row: UnsafeMutablePointer<UInt8>, pass: PNGAdam7.Pass) {
        if pass.xStep == 1 {
            row.update(from: pixels, count: count * 4)
            return
        }
        for k in 0..<count {
            (row + (pass.xStart + k * pass.xStep) * 4).update(from: pixels + k * 4, count: 4)
        }
    }

    private func read(into rows: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) throws(TabIconsError) {
        guard tabicons_png_rows_read(reader, rows, UInt32(count), stride) != 0 else { throw lastError() }
    }

    /// The rows come from the whole-image inflate, not from libpng's row reading.
    package var inflatedWhole: Bool { tabicons_png_rows_inflated_whole(reader) != 0 }

    /// The most bytes libpng has held at once for this decoder (its own allocations, counted).
    package var libpngPeakBytes: Int { tabicons_png_rows_peak_bytes(reader) }

    private func lastError() -> TabIconsError {
        PNGDecoder.libpngError(message: String(cString: tabicons_png_rows_message(reader)))
    }
}
