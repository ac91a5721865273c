import TabIconsCore
/// The chunk structure of a PNG up to its image data, read in Swift before libpng sees the bytes.
///
/// Why a walker in front of libpng: libpng (1.6) allocates a chunk's *declared* length before
/// reading its data, so a 57-byte file whose tEXt, zTXt, iTXt, sPLT, pCAL or sCAL chunk claims
/// 1 GiB makes it allocate (and touch) 1 GiB before failing with "read beyond end of data"
/// (libpng `contrib/testpngs/crashers/huge_*_chunk.png`). The simplified API offers no
/// `png_set_chunk_malloc_max`. So every chunk before the first IDAT must lie wholly inside the
/// input; then nothing libpng allocates for a chunk can exceed the input, which the input-size
/// limit already bounds.
///
/// The walk stops at the first IDAT: from there libpng reads IDAT data in small pieces and only
/// the *headers* of later chunks (a non-IDAT chunk while rows are missing is "Not enough image
/// data"), and `png_image_finish_read` stops once the last row is read, so nothing after the image
/// data is ever allocated. Compressed ancillary chunks (zTXt, iCCP, iTXt) need no cap of their
/// own: libpng inflates them at most to its chunk limit (PNG_USER_CHUNK_MALLOC_MAX, 8 MB in
/// libpng's default build), which keeps decompression bombs cheap.
///
/// The walker also yields what the simplified API does not expose: the IHDR bit depth and colour
/// type (for `ImageInfo`), and the APNG frame count (`acTL`, which the APNG spec places before
/// the first IDAT). It validates the IHDR CRC itself, because the size limits are checked on
/// these IHDR numbers before libpng runs.
///
/// The one reader of a PNG's header: the decoders (`PNGRowDecoder`), the memory estimates
/// (`DecodeMemoryEstimate`, the streamed normalization's) and the normalization's route all take
/// the IHDR and the kept chunks from here (`probe`).
package struct PNGChunks: Equatable, Sendable {
    /// The IHDR fields, as stored (libpng validates their combinations in begin_read).
    package struct Header: Equatable, Sendable {
        package var width: Int
        package var height: Int
        package var bitDepth: Int
        package var colorType: Int
        /// Adam7 (interlace method 1).
        package var isInterlaced = false

        package init(width: Int, height: Int, bitDepth: Int, colorType: Int, isInterlaced: Bool = false) {
            (self.width, self.height, self.bitDepth, self.colorType, self.isInterlaced) = (
                width, height, bitDepth, colorType, isInterlaced
            )
        }
    }

    package var header: Header
    /// The frame count of an APNG `acTL` chunk found before the image data; nil when absent.
    var animationFrames: Int?
    /// A gAMA, sRGB, iCCP or cHRM chunk came before the image data: libpng then has colour-space
    /// information of the file's own to apply.
    var hasColorSpace = false
    /// Where the first IDAT chunk starts (its length field); nil when IEND came first (libpng then
    /// names that).
    var imageDataOffset: Int?
    /// What libpng holds of the chunks before the image data (`keptChunks`): each one's length,
    /// and for iCCP, the one compressed chunk kept, twice what it can inflate to (zlib's 1032:1 at
    /// most, capped by libpng's 8 MB chunk limit), the inflated copy and the one it stores.
    var keptChunkBytes = 0

    /// The chunks before the image data libpng reads into memory (critical ones, tRNS, and what
    /// `CPNGDecode`'s skip list processes); every other one is discarded as it is read.
    static let keptChunks: Set<String> = ["IHDR", "PLTE", "tRNS", "bKGD", "cHRM", "gAMA", "iCCP", "sBIT", "sRGB"]

    /// The header when a decoder will go on past it: nil when the structure walk (`scan`) or the
    /// size limits refuse it, which they do before allocating anything for the pixels.
    package static func probe(_ bytes: UnsafeRawBufferPointer, limits: DecodeOptions.Limits) -> PNGChunks? {
        guard let chunks = try? scan(bytes),
            (try? limits.check(width: chunks.header.width, height: chunks.header.height, format: .png)) != nil
        else { return nil }
        return chunks
    }

    /// What libpng itself holds while it reads this PNG, simplified API or row by row
    /// (`PNGRowDecoder` counts it, and the tests hold it to this): its structures, zlib's inflate
    /// state and 32 KiB window and its IDAT read buffer (together under 64 KiB), three rows at the
    /// widest pixel it transforms to (8 bytes: 16-bit RGBA), and the chunks before the image data
    /// that it keeps (`keptChunkBytes`; `CPNGDecode` has it discard every other ancillary chunk
    /// unread, text included), charged in total, not per chunk. A 16-bit source adds libpng's three
    /// 16-bit gamma tables (256 rows of 256 samples each, at most).
    package var libpngWorkingBytes: Int {
        (64 << 10) + 3 * (header.width * 8 + 64) + (header.bitDepth == 16 ? 3 * 256 * (256 * 2 + 8) : 0) + keptChunkBytes
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The largest four-byte integer PNG allows in a chunk length or an image side (2^31 - 1).
    static let maxPNGInteger = 0x7FFF_FFFF

    /// Reads the signature and the chunks before the first IDAT.
    ///
    /// Throws `corrupt` for a bad signature, an invalid chunk type, a length beyond 2^31 - 1, a
    /// first chunk other than a 13-byte IHDR or a bad IHDR CRC; `truncated` when a chunk before
    /// the image data runs past the end of the input (or the input ends before any image data).
    package static func scan(_ bytes: UnsafeRawBufferPointer) throws(TabIconsError) -> PNGChunks {
        let count = bytes.count
        // libpng's own words for a damaged signature: it blames ASCII conversion when "\x89PNG"
        // is intact and only the line-ending bytes differ.
        for i in 0..<min(8, count) where bytes[i] != signature[i] {
            throw corrupt(i < 4 ? "Not a PNG file" : "PNG file corrupted by ASCII conversion")
        }
        guard count >= 8 else { throw truncated("the input ends inside the PNG signature") }

        var offset = 8
        var header: Header?
        var animationFrames: Int?
        var hasColorSpace = false
        var imageDataOffset: Int?
        var keptChunkBytes = 0
        walk: while true {
            guard count - offset >= 8 else {
                throw truncated("the input ends at byte \(count), before any image data (IDAT)")
            }
            let length = Int(readUInt32(bytes, offset))
            let type = Array(bytes[(offset + 4)..<(offset + 8)])
            let name = chunkName(type)
            guard type.allSatisfy(isASCIILetter) else { throw corrupt("\(name): invalid chunk type") }
            guard length <= maxPNGInteger else {
                throw corrupt("\(name): chunk length \(length) is out of range (PNG allows at most 2^31-1)")
            }
            if header == nil, name != "IHDR" { throw corrupt("missing IHDR: the first chunk is \(name)") }
            if name == "IDAT" { imageDataOffset = offset; break walk }
            // Data and CRC must both be inside the input: this is the check libpng lacks.
            guard length + 12 <= count - offset else {
                throw truncated("\(name) chunk of \(length) bytes at byte \(offset) runs past the end of the \(count)-byte input")
            }
            let data = offset + 8
            if keptChunks.contains(name) { keptChunkBytes += length }
            if name == "iCCP" { keptChunkBytes += 2 * min(8_000_000, length * 1032 + 1024) }
            switch name {
            case "IHDR":
                guard header == nil else { throw corrupt("IHDR: out of place") }
                guard length == 13 else { throw corrupt("IHDR: invalid length \(length)") }
                let stored = readUInt32(bytes, data + length)
                guard crc32(UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(data + length)])) == stored else {
                    throw corrupt("IHDR: CRC error")
                }
                let width = Int(readUInt32(bytes, data)), height = Int(readUInt32(bytes, data + 4))
                guard width <= maxPNGInteger, height <= maxPNGInteger else {
                    throw corrupt("IHDR: \(width)×\(height) is out of range (PNG unsigned integer out of range)")
                }
                header = Header(
                    width: width, height: height,
                    bitDepth: Int(bytes[data + 8]), colorType: Int(bytes[data + 9]),
                    isInterlaced: bytes[data + 12] == 1)
            case "acTL" where length == 8:
                animationFrames = Int(readUInt32(bytes, data))
            case "gAMA", "sRGB", "iCCP", "cHRM":
                hasColorSpace = true
            case "IEND":
                break walk  // no image data at all: libpng names that ("IEND: out of place")
            default:
                break
            }
            offset = data + length + 4
        }
        guard let header else { throw corrupt("missing IHDR") }
        return PNGChunks(
            header: header, animationFrames: animationFrames, hasColorSpace: hasColorSpace,
            imageDataOffset: imageDataOffset, keptChunkBytes: keptChunkBytes)
    }

    private static func readUInt32(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// A chunk type as libpng prints it: letters as they are, other bytes as `[HEX]`.
    static func chunkName(_ type: [UInt8]) -> String {
        type.map { byte in
            isASCIILetter(byte)
                ? String(UnicodeScalar(byte)) : "[" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) + "]"
        }.joined()
    }

    private static func corrupt(_ message: String) -> TabIconsError {
        TabIconsError(.corrupt, message, format: .png)
    }

    private static func truncated(_ message: String) -> TabIconsError {
        TabIconsError(.truncated, message, format: .png)
    }

    /// CRC-32 (ISO 3309, as PNG uses it) of `bytes`.
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
