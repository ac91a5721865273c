import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// Inputs built to hurt (SPEC §2: limits before allocation, errors as values): every cut of a few
/// small files, chunk and segment lengths that overflow or run past the end, and decompression
/// bombs in PNG's compressed ancillary chunks. Each answer is a coded error or a valid image.
///
/// The single hostile headers (PNG 100k², WebP 16383², JPEG 65500²) and the corpus of known
/// crashers have their own tests beside each decoder.
@Suite("hostile inputs")
struct HostileInputTests {
    /// What one input became, comparable in `#expect`.
    enum Outcome: Equatable, CustomStringConvertible {
        case decoded(Bitmap)
        case failed(TabIconsError.Code)

        init(_ body: () throws(TabIconsError) -> Bitmap) {
            do { self = .decoded(try body()) } catch { self = .failed(error.code) }
        }

        var size: (width: Int, height: Int)? {
            if case .decoded(let bitmap) = self { (bitmap.width, bitmap.height) } else { nil }
        }

        var description: String {
            switch self {
            case .decoded(let b): "decoded \(b.width)×\(b.height)"
            case .failed(let code): "failed \(code.rawValue)"
            }
        }
    }

    // MARK: Every truncation point

    /// Cuts that still decode, and why: libpng stops reading once the last row is in, so the
    /// IEND chunk (the last 12 bytes) may be cut; libjpeg-turbo's Huffman decoder reads ahead
    /// past the last coded byte and `jpeg_finish_decompress` tolerates a missing EOI (2 bytes)
    /// when every pixel is there; a WebP needs every byte of its RIFF payload.
    static let samples: [(name: String, completeFromCut: Int)] = [
        ("home.png", 12), ("rgba-32.png", 12), ("palette-trns.png", 12), ("rgba16-32.png", 12),
        ("avatar-exif6.jpg", 2),
        ("lossless.webp", 0), ("lossy-alpha.webp", 0), ("bell-filled.webp", 0), ("animated.webp", 0)
    ]

    @Test(
        "every prefix of a small sample is truncated, or unsupportedFormat before its signature, or the whole image when only the trailer is cut",
        arguments: samples.map(\.name))
    func everyTruncation(name: String) throws {
        let data = try Fixtures.data(Fixtures.testImage(name))
        let whole = try ImageDecoder.decode(data).bitmap
        let sample = try #require(Self.samples.first { $0.name == name })
        // The shortest prefix that is a format's start ending early (`ImageFormat.truncatedSignature`):
        // `\x89P`, FF D8, RIFF. Shorter prefixes are not recognisably anything.
        let signatureLength = name.hasSuffix(".png") ? 2 : name.hasSuffix(".jpg") ? 2 : 4

        var codes: [TabIconsError.Code: Int] = [:]
        for length in 0..<data.count {
            let prefix = data.prefix(length)
            let outcome = Outcome { () throws(TabIconsError) in try ImageDecoder.decode(prefix).bitmap }
            if length >= data.count - sample.completeFromCut {
                #expect(outcome == .decoded(whole), "\(name) cut at \(length)")
            } else if length < signatureLength {
                #expect(outcome == .failed(.unsupportedFormat), "\(name) cut at \(length)")
            } else {
                #expect(outcome == .failed(.truncated), "\(name) cut at \(length) of \(data.count): \(outcome)")
            }
            if case .failed(let code) = outcome { codes[code, default: 0] += 1 }
        }
        #expect(codes[.truncated, default: 0] > 0)
    }

    @Test(
        "every prefix through the normalizer (shrink-on-load decodes included) fails the way the decoder does",
        arguments: samples.map(\.name))
    func everyTruncationNormalized(name: String) throws {
        let data = try Fixtures.data(Fixtures.testImage(name))
        let normalizer = Normalizer(options: NormalizeOptions())
        let whole = try normalizer.normalize(data)
        for length in 0..<data.count {
            let prefix = data.prefix(length)
            let decoded = Outcome { () throws(TabIconsError) in try ImageDecoder.decode(prefix).bitmap }
            do {
                let icon = try normalizer.normalize(prefix)
                #expect(decoded != .failed(.truncated), "\(name) cut at \(length) normalized but does not decode")
                #expect(icon.renditions.map(\.bitmap) == whole.renditions.map(\.bitmap), "\(name) cut at \(length)")
            } catch {
                #expect(decoded == .failed(error.code), "\(name) cut at \(length): normalize \(error.code), decode \(decoded)")
            }
        }
    }

    // MARK: Lengths that overflow or run past the end

    /// A valid 2×1 grey PNG's IHDR, then `chunk`, then the rest of the image.
    func png(inserting chunk: [UInt8], beforeImageData: Bool = true) -> Data {
        let image = PNGBytes.image(width: 2, height: 1)
        let split = beforeImageData ? 33 : image.count - 12  // after IHDR, or before IEND
        return Data(image[..<split] + chunk + image[split...])
    }

    @Test(
        "PNG chunk lengths of 2^32-1, 2^31 and 2^31-1 before the image data: corrupt, corrupt, truncated",
        arguments: [
            (UInt32(0xFFFF_FFFF), TabIconsError.Code.corrupt), (0x8000_0000, .corrupt),
            (0x7FFF_FFFF, .truncated), (0x7FFF_FFF4, .truncated), (100, .truncated)
        ])
    func pngLengthOverflow(length: UInt32, code: TabIconsError.Code) {
        for type in ["tEXt", "zTXt", "iCCP", "IHDR", "PLTE", "abCd"] {
            let bytes = png(inserting: PNGBytes.be32(length) + Array(type.utf8) + [0, 0, 0, 0])
            let outcome = Outcome { () throws(TabIconsError) in try ImageDecoder.decode(bytes).bitmap }
            #expect(outcome == .failed(code), "\(type) of \(length) bytes")
        }
    }

    @Test(
        "an IDAT whose length overflows or runs past the end is an error, never a read past the input",
        arguments: [UInt32(0xFFFF_FFFF), 0x8000_0000, 0x7FFF_FFFF, 0xFFFF, 20])
    func pngImageDataLength(length: UInt32) {
        // The real IDAT's length field is at 33; its data is 18 bytes.
        var bytes = PNGBytes.image(width: 2, height: 1)
        bytes.replaceSubrange(33..<37, with: PNGBytes.be32(length))
        let outcome = Outcome { () throws(TabIconsError) in try ImageDecoder.decode(Data(bytes)).bitmap }
        let expected: TabIconsError.Code = length > 0x7FFF_FFFF ? .corrupt : (length == 20 ? .corrupt : .truncated)
        // 20: libpng reads two more bytes than the IDAT holds, into the CRC; the CRC check then fails.
        #expect(outcome == .failed(expected), "IDAT of \(length) bytes: \(outcome)")
    }

    @Test(
        "a chunk after the image data with any length leaves the image intact",
        arguments: [UInt32(0xFFFF_FFFF), 0x7FFF_FFFF, 1000])
    func pngLengthAfterImageData(length: UInt32) {
        let bytes = png(inserting: PNGBytes.be32(length) + Array("tEXt".utf8) + [1, 2, 3], beforeImageData: false)
        let outcome = Outcome { () throws(TabIconsError) in try ImageDecoder.decode(bytes).bitmap }
        #expect(outcome == .decoded(Bitmap(width: 2, height: 1, pixels: [0, 0, 0, 255, 0, 0, 0, 255])))
    }

    /// The bytes of `TestImages/lossless.webp` with a little-endian 32-bit field replaced.
    func webp(_ name: String, patching offset: Int, with value: UInt32) throws -> Data {
        var bytes = [UInt8](try Fixtures.data(Fixtures.testImage(name)))
        bytes.replaceSubrange(
            offset..<(offset + 4),
            with: [
                UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF),
                UInt8(value >> 16 & 0xFF), UInt8(value >> 24)
            ])
        return Data(bytes)
    }

    @Test(
        "WebP RIFF and chunk sizes that overflow or run past the end fail with a code",
        arguments: [UInt32(0xFFFF_FFFF), 0xFFFF_FFF7, 0x7FFF_FFFF, 0x1_0000])
    func webpLengthOverflow(size: UInt32) throws {
        for name in ["lossless.webp", "lossy-alpha.webp", "animated.webp"] {
            for offset in [4, 16] {  // the RIFF size, the first chunk's size
                let bytes = try webp(name, patching: offset, with: size)
                let outcome = Outcome { () throws(TabIconsError) in try ImageDecoder.decode(bytes).bitmap }
                // libwebp: past the end is NOT_ENOUGH_DATA, past its payload limit BITSTREAM_ERROR.
                #expect(
                    [.failed(.truncated), .failed(.corrupt)].contains(outcome), "\(name) size \(size) at \(offset): \(outcome)")
            }
        }
    }

    /// libwebp reads a simple (VP8L) file's bitstream to the end of the data, not to its chunk
    /// size, so an understated size can still give the whole image; that is libwebp's rule (and
    /// browsers'), kept here. What must never happen is a different picture or a crash.
    @Test("WebP chunk sizes that understate the data give the whole image or a code", arguments: [UInt32(0), 1, 5])
    func webpLengthUnderstated(size: UInt32) throws {
        for name in ["lossless.webp", "lossy-alpha.webp", "animated.webp"] {
            let whole = try ImageDecoder.decode(Fixtures.data(Fixtures.testImage(name))).bitmap
            for offset in [4, 16] {
                let bytes = try webp(name, patching: offset, with: size)
                let outcome = Outcome { () throws(TabIconsError) in try ImageDecoder.decode(bytes).bitmap }
                let acceptable: [Outcome] = [.decoded(whole), .failed(.truncated), .failed(.corrupt)]
                #expect(acceptable.contains(outcome), "\(name) size \(size) at \(offset): \(outcome)")
            }
        }
    }

    /// The offsets of every marker segment (marker byte, length field) before the scan data.
    func jpegSegments(_ bytes: [UInt8]) -> [(marker: UInt8, lengthAt: Int)] {
        var segments: [(UInt8, Int)] = []
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF, bytes[i + 1] != 0xDA {
            segments.append((bytes[i + 1], i + 2))
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return segments
    }

    /// An APPn segment whose length is below 2 makes libjpeg skip nothing: the bytes that were
    /// its payload become "extraneous bytes before marker", a warning the decoder's policy
    /// tolerates (camera files have such junk). The picture is intact; an APP1 loses its EXIF,
    /// so the avatar then comes out unrotated (62×50 stored instead of 50×62 shown).
    @Test("JPEG segment lengths of 0, 1, 0xFFFF and one past the end fail with a code, except an APPn below 2")
    func jpegSegmentLengths() throws {
        let original = [UInt8](try Fixtures.data(Fixtures.testImage("avatar-exif6.jpg")))
        let whole = try ImageDecoder.decode(Data(original))
        let segments = jpegSegments(original)
        #expect(segments.map(\.marker) == [0xE0, 0xE1, 0xDB, 0xDB, 0xC0, 0xC4, 0xC4, 0xC4, 0xC4])
        for (marker, offset) in segments {
            for length in [0, 1, 0xFFFF, original.count - offset + 1] {
                var bytes = original
                bytes[offset] = UInt8(length >> 8 & 0xFF)
                bytes[offset + 1] = UInt8(length & 0xFF)
                let outcome = Outcome { () throws(TabIconsError) in try ImageDecoder.decode(Data(bytes)).bitmap }
                if (0xE0...0xEF).contains(marker) && length < 2 {
                    let exifLost = marker == 0xE1
                    let size = outcome.size
                    #expect(
                        size?.width == (exifLost ? whole.bitmap.height : whole.bitmap.width),
                        "APP\(marker - 0xE0) length \(length)")
                    #expect(
                        size?.height == (exifLost ? whole.bitmap.width : whole.bitmap.height),
                        "APP\(marker - 0xE0) length \(length)")
                    continue
                }
                guard case .failed(let code) = outcome else {
                    Issue.record("segment \(String(marker, radix: 16)) with length \(length) decoded")
                    continue
                }
                #expect([.truncated, .corrupt].contains(code), "segment \(String(marker, radix: 16)), length \(length): \(code)")
            }
        }
    }

    // MARK: Decompression bombs

    @Test("a zTXt chunk inflating to 256 MiB is dropped by libpng at its chunk limit; the image decodes")
    func zTXtBomb() {
        let bomb = DeflateBomb.zlib(zeros: 256 << 20)
        #expect(bomb.count < 2 << 20)  // the point: a small input that claims a huge output
        let chunk = PNGBytes.chunk("zTXt", Array("Comment".utf8) + [0, 0] + bomb)
        let outcome = Outcome { () throws(TabIconsError) in try ImageDecoder.decode(png(inserting: chunk)).bitmap }
        #expect(outcome == .decoded(Bitmap(width: 2, height: 1, pixels: [0, 0, 0, 255, 0, 0, 0, 255])))
    }

    @Test("an iCCP profile inflating to 256 MiB is refused by libpng's profile checks; the image decodes")
    func iCCPBomb() {
        let chunk = PNGBytes.chunk("iCCP", Array("icc".utf8) + [0, 0] + DeflateBomb.zlib(zeros: 256 << 20))
        let outcome = Outcome { () throws(TabIconsError) in try ImageDecoder.decode(png(inserting: chunk)).bitmap }
        #expect(outcome == .decoded(Bitmap(width: 2, height: 1, pixels: [0, 0, 0, 255, 0, 0, 0, 255])))
    }

    @Test("the deflate bomb builder makes a stream that inflates to what it says (checked on a small one)")
    func deflateBombBuilder() throws {
        // 2×1 grey PNG whose IDAT is a bomb of exactly the image's 2 rows of 3 bytes, made of zeros.
        let idat = DeflateBomb.zlib(zeros: 6)
        let bytes =
            PNGBytes.signature + PNGBytes.chunk("IHDR", PNGBytes.ihdr(width: 2, height: 2))
            + PNGBytes.chunk("IDAT", idat) + PNGBytes.chunk("IEND", [])
        let image = try ImageDecoder.decode(Data(bytes))
        #expect(image.bitmap == Bitmap(width: 2, height: 2, pixels: [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]))
    }
}

/// A zlib stream of `n` zero bytes, written by hand (the tests have no zlib): one fixed-Huffman
/// deflate block of a literal 0 followed by length-258, distance-1 matches, 13 bits per 258 bytes.
enum DeflateBomb {
    static func zlib(zeros n: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.write(1, bits: 1)  // BFINAL
        writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman
        var left = n
        if left > 0 {
            writer.writeHuffman(0b0011_0000, length: 8)  // literal 0
            left -= 1
        }
        while left >= 3 {
            let run = min(258, left)
            writeMatch(&writer, length: run)
            left -= run
        }
        while left > 0 {
            writer.writeHuffman(0b0011_0000, length: 8)
            left -= 1
        }
        writer.writeHuffman(0, length: 7)  // end of block (256)
        let adler = UInt32(1) | UInt32(n % 65521) << 16  // a stays 1 for zeros; b adds 1 per byte
        return [0x78, 0x01] + writer.finished + PNGBytes.be32(adler)
    }

    /// Length code (257...285 with extra bits, RFC 1951 §3.2.5), then distance code 0 (distance 1).
    private static func writeMatch(_ writer: inout BitWriter, length: Int) {
        let bases = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
            131, 163, 195, 227, 258
        ]
        let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        let index = bases.lastIndex { $0 <= length } ?? 0
        let symbol = 257 + index
        // Fixed codes: 256...279 are 7 bits from 0; 280...287 are 8 bits from 0b11000000.
        if symbol <= 279 {
            writer.writeHuffman(UInt32(symbol - 256), length: 7)
        } else {
            writer.writeHuffman(UInt32(0b1100_0000 + symbol - 280), length: 8)
        }
        writer.write(UInt32(length - bases[index]), bits: extras[index])
        writer.writeHuffman(0, length: 5)  // distance code 0: distance 1
    }

    struct BitWriter {
        private(set) var bytes: [UInt8] = []
        private var buffer: UInt32 = 0
        private var count = 0

        /// Extra bits and header fields: least significant bit first.
        mutating func write(_ value: UInt32, bits: Int) {
            for i in 0..<bits { push((value >> UInt32(i)) & 1) }
        }

        /// Huffman codes: most significant bit first.
        mutating func writeHuffman(_ code: UInt32, length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { push((code >> UInt32(i)) & 1) }
        }

        private mutating func push(_ bit: UInt32) {
            buffer |= bit << UInt32(count)
            count += 1
            if count == 8 { flush() }
        }

        private mutating func flush() {
            bytes.append(UInt8(buffer & 0xFF))
            buffer = 0
            count = 0
        }

        var finished: [UInt8] {
            var copy = self
            if copy.count > 0 { copy.flush() }
            return copy.bytes
        }
    }
}
