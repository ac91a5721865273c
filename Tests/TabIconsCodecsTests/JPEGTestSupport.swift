import Foundation
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// Pillow's decodes of corpus JPEGs, written by Fixtures/jpeg/oracle.py.
struct JPEGOracle: Decodable {
    struct Entry: Decodable {
        let width: Int
        let height: Int
        let orientation: Int
        let sourceMode: String
        let adobe: Bool
        /// A PPM (RGB) or PGM (grey) file under Fixtures/jpeg/expected/.
        let pixels: String
    }

    /// A file checked by sampled pixels: `samples` are [x, y, r, g, b] on an 8×8 grid.
    struct Sampled: Decodable {
        let width: Int
        let height: Int
        let orientation: Int
        let samples: [[Int]]
        let mean: [Double]
    }

    let files: [String: Entry]
    let sampled: [String: Sampled]

    /// The files the oracle covers, listed here so a missing oracle entry fails a test instead of
    /// silently dropping it.
    static let files = [
        "jpeg/pillow/hopper_orientation_2.jpg", "jpeg/pillow/hopper_orientation_3.jpg",
        "jpeg/pillow/hopper_orientation_4.jpg", "jpeg/pillow/hopper_orientation_5.jpg",
        "jpeg/pillow/hopper_orientation_6.jpg", "jpeg/pillow/hopper_orientation_7.jpg",
        "jpeg/pillow/hopper_orientation_8.jpg",
        "jpeg/testorig.jpg", "jpeg/testimgint.jpg", "jpeg/testimgari.jpg",
        "jpeg/history/testimgp.jpg", "jpeg/history/testimggray.jpg",
        "jpeg/pillow/pil_sample_cmyk.jpg"
    ]

    static let sampledFiles = [
        "bad/pillow/jpeg_ff00_header.jpg", "bad/pillow/junk_jpeg_header.jpg",
        "bad/pillow/photoshop-200dpi-broken.jpg", "bad/pillow/truncated_app14.jpg",
        "bad/pillow/truncated_jpeg.jpg", "jpeg/pillow/flower2.jpg", "jpeg/pillow/hopper_gray.jpg",
        "jpeg/pillow/exif-72dpi-int.jpg", "jpeg/image-rs/portrait_2.jpg",
        "jpeg/image-rs/progressive_cat.jpg", "jpeg/image-rs/progressive_3.jpg"
    ]

    /// The oracle, or an empty one when expected.json cannot be read (every lookup then fails).
    static let shared: JPEGOracle = {
        guard let data = try? Data(contentsOf: Fixtures.fixture("jpeg/expected.json")),
            let oracle = try? JSONDecoder().decode(JPEGOracle.self, from: data)
        else { return JPEGOracle(files: [:], sampled: [:]) }
        return oracle
    }()

    /// A binary PNM image: `channels` is 1 (P5) or 3 (P6), 8-bit samples.
    struct PNM {
        let width: Int
        let height: Int
        let channels: Int
        let bytes: [UInt8]
    }

    struct BadPNM: Error { let name: String }

    static func pixels(_ name: String) throws -> PNM {
        let bytes = [UInt8](try Data(contentsOf: Fixtures.fixture("jpeg/expected/" + name)))
        // "P6\n<w> <h>\n255\n" then the samples.
        var fields: [String] = [], index = 0, current = ""
        while fields.count < 4, index < bytes.count {
            let c = bytes[index]
            if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(c)))
            }
            index += 1
        }
        guard fields.count == 4, let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255",
            fields[0] == "P5" || fields[0] == "P6"
        else { throw BadPNM(name: name) }
        let channels = fields[0] == "P5" ? 1 : 3
        let samples = Array(bytes[index...])
        guard samples.count == width * height * channels else { throw BadPNM(name: name) }
        return PNM(width: width, height: height, channels: channels, bytes: samples)
    }

    /// The largest |ours − reference| over every R, G, B sample (a grey reference stands for
    /// R = G = B), or nil when the sizes differ or any alpha is not 255.
    static func largestDifference(_ bitmap: Bitmap, _ reference: PNM) -> Int? {
        guard bitmap.width == reference.width, bitmap.height == reference.height else { return nil }
        var largest = 0
        for pixel in 0..<(bitmap.width * bitmap.height) {
            guard bitmap.pixels[pixel * 4 + 3] == 255 else { return nil }
            for channel in 0..<3 {
                let ours = Int(bitmap.pixels[pixel * 4 + channel])
                let theirs = Int(reference.bytes[pixel * reference.channels + (reference.channels == 1 ? 0 : channel)])
                largest = max(largest, abs(ours - theirs))
            }
        }
        return largest
    }

    static func mean(_ bytes: [UInt8], channel: Int, step: Int) -> Double {
        let values = stride(from: channel, to: bytes.count, by: step).map { Double(bytes[$0]) }
        return values.reduce(0, +) / Double(max(1, values.count))
    }
}

/// Byte-level surgery on JPEG files for the damage tests, written independently of the decoder.
enum JPEGBytes {
    /// Every marker of the file with its offset: header segments are skipped by their length,
    /// entropy-coded data is scanned (RSTn markers inside it are listed too).
    static func markers(in data: Data) -> [(code: UInt8, offset: Int)] {
        let b = [UInt8](data)
        guard b.count >= 2, b[0] == 0xFF, b[1] == 0xD8 else { return [] }
        var out: [(code: UInt8, offset: Int)] = [(0xD8, 0)]
        var i = 2
        while i + 1 < b.count {
            guard b[i] == 0xFF else { i += 1; continue }
            let code = b[i + 1]
            if code == 0xFF { i += 1; continue }
            out.append((code, i))
            if code == 0xD9 { break }
            if (0xD0...0xD7).contains(code) || code == 0x01 { i += 2; continue }
            guard i + 3 < b.count else { break }
            i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3]))
            guard code == 0xDA else { continue }
            while i + 1 < b.count {
                if b[i] == 0xFF, b[i + 1] != 0 {
                    guard (0xD0...0xD7).contains(b[i + 1]) else { break }
                    out.append((b[i + 1], i))
                    i += 2
                    continue
                }
                i += 1
            }
        }
        return out
    }

    static func markerOffsets(_ code: UInt8, in data: Data) -> [Int] {
        markers(in: data).filter { $0.code == code }.map(\.offset)
    }

    static func markerOffsets(_ codes: ClosedRange<UInt8>, in data: Data, from start: Int) -> [Int] {
        markers(in: data).filter { codes.contains($0.code) && $0.offset > start }.map(\.offset)
    }

    /// The offset of the SOFn marker (C0–CF but DHT C4, JPG C8, DAC CC).
    static func sofOffset(in data: Data) -> Int? {
        markers(in: data).first { (0xC0...0xCF).contains($0.code) && ![0xC4, 0xC8, 0xCC].contains($0.code) }?.offset
    }

    /// A copy of `data` whose EXIF orientation tag (which must exist) says `value`.
    static func settingOrientation(_ value: UInt16, in data: Data) -> Data? {
        var b = [UInt8](data)
        guard let app1 = markers(in: data).first(where: { $0.code == 0xE1 })?.offset,
            b.count > app1 + 18, Array(b[app1 + 4..<app1 + 10]) == Array("Exif".utf8) + [0, 0]
        else { return nil }
        let tiff = app1 + 10
        let little = b[tiff] == 0x49
        func u16(_ at: Int) -> Int { little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1]) }
        func u32(_ at: Int) -> Int { little ? u16(at) | u16(at + 2) << 16 : u16(at) << 16 | u16(at + 2) }
        let ifd = tiff + u32(tiff + 4)
        guard ifd + 2 <= b.count else { return nil }
        for entry in 0..<u16(ifd) {
            let at = ifd + 2 + entry * 12
            guard at + 12 <= b.count else { return nil }
            guard u16(at) == 0x0112 else { continue }
            let (hi, lo) = (UInt8(value >> 8), UInt8(value & 0xFF))
            b[at + 8] = little ? lo : hi
            b[at + 9] = little ? hi : lo
            return Data(b)
        }
        return nil
    }

    /// The corpus files (relative paths) under jpeg/ and bad/ that are JPEG by their bytes.
    static func corpusJPEGs() throws -> [String] {
        var paths: [String] = []
        for folder in ["jpeg", "bad"] {
            let root = Fixtures.corpus(folder)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let relative as String in walker {
                let url = root.appendingPathComponent(relative)
                guard let handle = try? FileHandle(forReadingFrom: url) else { continue }
                let head = (try? handle.read(upToCount: 3)) ?? Data()
                try? handle.close()
                if head == Data([0xFF, 0xD8, 0xFF]) { paths.append(folder + "/" + relative) }
            }
        }
        return paths.sorted()
    }
}
