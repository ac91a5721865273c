import Foundation

/// A tiny PNG writer for tests that need what the package's encoder never writes: 16-bit
/// samples, Adam7, arbitrary chunks before the image data, and compressed text. Image data is
/// zlib with stored (uncompressed) deflate blocks, so any picture can be written exactly; a
/// `run` of one byte repeated is written as a fixed-Huffman block of 258-byte matches (about
/// 160:1), which makes decompression bombs and large uniform images small.
package enum PNGTestWriter {
    /// Samples of the pixel at (x, y): `channels` values of `bitDepth` bits each (0...65535 for 16).
    package typealias Pixel = (_ x: Int, _ y: Int) -> [Int]

    package static func png(
        width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool,
        before: [UInt8] = [], pixel: Pixel
    ) -> Data {
        let channels = [0: 1, 2: 3, 4: 2, 6: 4][colorType]!
        var raw: [UInt8] = []
        let passes = interlaced ? Adam7.passes(width: width, height: height) : [Adam7.whole]
        for pass in passes {
            for y in stride(from: pass.yStart, to: height, by: pass.yStep) {
                raw.append(0)  // filter: none
                for x in stride(from: pass.xStart, to: width, by: pass.xStep) {
                    let samples = pixel(x, y)
                    precondition(samples.count == channels)
                    for sample in samples {
                        if bitDepth == 16 { raw += [UInt8(sample >> 8), UInt8(sample & 0xFF)] } else { raw.append(UInt8(sample)) }
                    }
                }
            }
        }
        return image(
            width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: interlaced,
            before: before, zlib: stored(raw))
    }

    /// Signature, IHDR, `before`, one IDAT of `zlib`, IEND.
    package static func image(
        width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool,
        before: [UInt8] = [], zlib: [UInt8]
    ) -> Data {
        let ihdr =
            PNGBytes.be32(UInt32(width)) + PNGBytes.be32(UInt32(height))
            + [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
        return Data(
            PNGBytes.signature + PNGBytes.chunk("IHDR", ihdr) + before
                + PNGBytes.chunk("IDAT", zlib) + PNGBytes.chunk("IEND", []))
    }

    /// zlib of `data` in stored blocks.
    package static func stored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65535, data.count - start)
            let final: UInt8 = start + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), ~UInt8(count & 0xFF), ~UInt8(count >> 8)]
            out += data[start..<(start + count)]
            start += count
        } while start < data.count
        return out + PNGBytes.be32(adler32(repeating: nil, data: data))
    }

    /// zlib of `count` copies of `byte`: one literal, then matches of 258 at distance 1 (fixed
    /// Huffman codes), then the rest as one shorter match or literals.
    package static func run(of byte: UInt8, count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1); bits.write(1, count: 2)  // BFINAL, BTYPE = fixed
        func literal(_ value: Int) {  // 0–143: 8 bits from 0x30
            bits.writeHuffman(0x30 + value, count: 8)
        }
        literal(Int(byte))
        var left = count - 1
        while left >= 258 {
            bits.writeHuffman(0xC5, count: 8)  // length code 285 = 258
            bits.writeHuffman(0, count: 5)  // distance 1
            left -= 258
        }
        for _ in 0..<left { literal(Int(byte)) }
        bits.writeHuffman(0, count: 7)  // end of block
        return [0x78, 0x01] + bits.bytes + PNGBytes.be32(adler32(repeating: (byte, count), data: []))
    }

    /// A chunk of the type holding `keyword`, the header bytes its type needs, and `zlib`.
    package static func compressedText(_ type: String, keyword: String, zlib: [UInt8]) -> [UInt8] {
        let header: [UInt8] = type == "iTXt" ? [0, 1, 0, 0, 0] : [0, 0]  // NUL, flag/method, [lang, key]
        return PNGBytes.chunk(type, Array(keyword.utf8) + header + zlib)
    }

    private static func adler32(repeating run: (UInt8, Int)?, data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        if let (byte, count) = run {
            for _ in 0..<count { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        } else {
            for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        }
        return b << 16 | a
    }

    /// Deflate's bit order: fields least significant bit first, Huffman codes most significant first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 8

        mutating func write(_ value: Int, count: Int) {
            for i in 0..<count { push(value >> i & 1) }
        }

        mutating func writeHuffman(_ code: Int, count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { push(code >> i & 1) }
        }

        private mutating func push(_ bit: Int) {
            if used == 8 { bytes.append(0); used = 0 }
            bytes[bytes.count - 1] |= UInt8(bit) << used
            used += 1
        }
    }

    /// Adam7's seven passes (PNG 1.2 §2.6), written here apart from the decoder's own table; a
    /// pass with no pixel in the image holds no data (libpng skips it).
    private struct Adam7 {
        let xStart: Int, yStart: Int, xStep: Int, yStep: Int

        static let whole = Adam7(xStart: 0, yStart: 0, xStep: 1, yStep: 1)

        static func passes(width: Int, height: Int) -> [Adam7] {
            [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
                .map { Adam7(xStart: $0.0, yStart: $0.1, xStep: $0.2, yStep: $0.3) }
                .filter { $0.xStart < width && $0.yStart < height }
        }
    }

    /// A black 9000×9000 1-bit PNG (65 KB): legal, and 324 MB as RGBA. Made afresh for each use:
    /// a `static let` holding `Data` is reported leaked by LeakSanitizer (scripts/lsan.supp says why).
    package static var black9000: Data {
        image(
            width: 9000, height: 9000, bitDepth: 1, colorType: 0, interlaced: false,
            zlib: run(of: 0, count: 9000 * (1 + 1125)))
    }
}
