import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// The WebP decoder's oracle: what Pillow made of every corpus WebP, written by
/// `Fixtures/webp/make_expected.py` into `Fixtures/webp/expected.json` (see PROVENANCE.md there).
enum WebPOracle {
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        /// Relative to the corpus root.
        let path: String
        let mode: String?
        let frames: Int?
        let orientation: Int?
        let width: Int?
        let height: Int?
        /// Fingerprints of the first frame as RGBA, orientation applied: SHA-256 for people,
        /// XXH3-128 in `ContentHash`'s form for the tests (cheap in an unoptimized build).
        let sha256: String?
        let xxh3: String?
        let pillowError: String?
        /// Whether libwebp's own reference decode (libwebp_tests.md5) agrees with Pillow's pixels.
        let libwebpReference: String?

        var testDescription: String { path }
    }

    struct Document: Decodable {
        let pillow: String
        let pillowLibwebp: String
        let files: [Entry]
        /// Pillow's BOX downscale of pillow/flower.webp to 75×56, hex RGBA.
        let flowerBox75x56: String
        /// The mean R, G, B of the whole of bryce.webp (its pixels may not be copied here).
        let bryceMeanRGB: [Double]
    }

    static let document: Document = {
        do {
            let data = try Data(contentsOf: Fixtures.fixture("webp/expected.json"))
            return try JSONDecoder().decode(Document.self, from: data)
        } catch {
            // A missing or unreadable oracle must fail the tests loudly, not skip them.
            return Document(
                pillow: "missing", pillowLibwebp: "missing", files: [],
                flowerBox75x56: "", bryceMeanRGB: [])
        }
    }()

    static var decodable: [Entry] { document.files.filter { $0.xxh3 != nil } }

    /// The fingerprint the oracle records for decoded pixels.
    static func fingerprint(_ pixels: [UInt8]) -> String { ContentHash(of: pixels).description }

    static func entry(_ path: String) -> Entry? { document.files.first { $0.path == path } }

    /// Lowercase hex of bytes.
    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes of a hex string (pairs of lowercase digits).
    static func bytes(hex: String) -> [UInt8] {
        let chars = Array(hex.utf8)
        func nibble(_ c: UInt8) -> UInt8 { c >= 97 ? c - 87 : c - 48 }
        return stride(from: 0, to: chars.count - 1, by: 2).map { nibble(chars[$0]) << 4 | nibble(chars[$0 + 1]) }
    }
}
