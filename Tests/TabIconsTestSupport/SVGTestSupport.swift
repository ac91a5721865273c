import Foundation
import TabIconsCore
import TabIconsCodecs

/// Small SVG documents built in the tests, and pixel helpers for comparing renderings.
package enum SVGTestSupport {
    package static let namespace = "xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""

    /// `<svg {attributes}>{body}</svg>` as bytes.
    package static func svg(_ attributes: String, _ body: String = "") -> Data {
        Data("<svg \(namespace) \(attributes)>\(body)</svg>".utf8)
    }

    /// A filled square icon: viewBox 0 0 16 16, a black rect with a 4-unit margin.
    /// (Computed, not a `static let`: LeakSanitizer cannot see a global `Data`'s storage, see
    /// scripts/lsan.supp.)
    package static var square: Data {
        svg("width=\"16\" height=\"16\" viewBox=\"0 0 16 16\"", "<rect x=\"4\" y=\"4\" width=\"8\" height=\"8\"/>")
    }

    /// Straight RGBA pixels premultiplied (round(c · a / 255)), the form references compare in.
    package static func premultiplied(_ bitmap: Bitmap) -> [UInt8] {
        var out = bitmap.pixels
        for i in stride(from: 0, to: out.count, by: 4) {
            let a = Int(out[i + 3])
            for c in 0..<3 { out[i + c] = UInt8((Int(out[i + c]) * a + 127) / 255) }
        }
        return out
    }

    /// The largest difference between two equal-size byte arrays.
    package static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// A PNG with only a signature, an IHDR of `width` × `height` (8-bit RGBA) and an IEND: what a
    /// decoder's header check sees, with no pixel data behind it.
    package static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IEND", []))
    }

    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// CRC-32 (the PNG and gzip polynomial), bit by bit: small inputs only.
    package static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
