import Foundation

/// PNG bytes assembled in the tests: signature, chunks with correct CRCs.
package enum PNGBytes {
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    package static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    /// 8-bit grayscale IHDR.
    package static func ihdr(width: UInt32, height: UInt32) -> [UInt8] {
        be32(width) + be32(height) + [8, 0, 0, 0, 0]
    }

    /// Signature, IHDR, one tiny IDAT (a stored zlib block holding one black row of at most
    /// 2 px), IEND. For large sizes the data is far too short: nothing may get that far.
    package static func image(width: UInt32, height: UInt32) -> [UInt8] {
        let row: [UInt8] = [0, 0, 0]  // filter byte + 2 gray samples
        let adler = adler32(row)
        let zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(row.count), 0, ~UInt8(row.count), 0xFF] + row + be32(adler)
        return signature + chunk("IHDR", ihdr(width: width, height: height)) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    package static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// CRC-32 (the PNG and gzip polynomial), by table: the test's own, not the decoder's.
    package static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { (n: UInt32) -> UInt32 in
        var c = n
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return b << 16 | a
    }
}
