import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// The whole-image inflate (`CPNGDecode`'s fast path: libdeflate in one call, unfiltered at once)
/// against libpng's row reading of the same file: the same pixels, byte for byte, or the same
/// error (code and words) — on every PNG of the corpus, the hostile ones included, and on files
/// made here to reach each way the path must step aside. Each case also says which way it went,
/// so a path that silently never runs fails.
@Suite("PNG whole-image inflate")
struct PNGWholeInflateTests {
    struct Decoded: Equatable {
        var pixels: Result<[UInt8], TabIconsError>
        var inflatedWhole: Bool
    }

    static func decode(_ data: Data, inflateSmall: Bool) -> Decoded {
        var whole = false
        let pixels = Result { () throws(TabIconsError) -> [UInt8] in
            try data.withUnsafeBytesTyped { bytes throws(TabIconsError) -> [UInt8] in
                let decoder = try PNGRowDecoder(bytes, limits: .default)
                try decoder.start(inflateSmall: inflateSmall)
                whole = decoder.inflatedWhole
                var pixels = [UInt8](repeating: 0, count: decoder.width * decoder.height * 4)
                try pixels.withUnsafeMutableBufferPointer { buffer throws(TabIconsError) in
                    try decoder.readImage(into: buffer.baseAddress!)
                }
                return pixels
            }
        }
        return Decoded(pixels: pixels, inflatedWhole: whole)
    }

    /// Decodes both ways; returns whether the fast path took it.
    @discardableResult
    static func expectSame(_ data: Data, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let fast = decode(data, inflateSmall: true)
        let libpng = decode(data, inflateSmall: false)
        #expect(!libpng.inflatedWhole, sourceLocation: sourceLocation)
        #expect(fast.pixels == libpng.pixels, "\(name)", sourceLocation: sourceLocation)
        return fast.inflatedWhole
    }

    // MARK: files nobody here wrote

    static func pngs(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension.lowercased() == "png" }
            .sorted { $0.path < $1.path }
    }

    @Test("the repository's PNGs: the same pixels both ways, most of them inflated whole")
    func repositoryFiles() throws {
        let files =
            Self.pngs(under: Fixtures.packageRoot.appendingPathComponent("TestImages"))
            + Self.pngs(under: Fixtures.fixture("png"))
        #expect(files.count >= 10)
        var whole = 0
        for file in files where Self.expectSame(try Fixtures.data(file), file.lastPathComponent) { whole += 1 }
        #expect(whole * 2 >= files.count, "\(whole) of \(files.count) took the fast path")
    }

    @Test(
        "the corpus's PNGs (PngSuite, libpng's test images, broken and hostile files): the same pixels or error both ways",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func corpusFiles() throws {
        var total = 0, whole = 0
        for folder in ["pngsuite", "libpng", "bad"] {
            for file in Self.pngs(under: Fixtures.corpus(folder)) {
                total += 1
                if Self.expectSame(try Fixtures.data(file), file.path) { whole += 1 }
            }
        }
        #expect(total > 200)
        // Most of PngSuite declares gAMA 1.0 (a conversion: libpng's); libpng's test images and
        // the broken files give the rest (32 when written).
        #expect(whole >= 30, "\(whole) of \(total) took the fast path")
    }

    // MARK: made to reach each refusal

    /// Rows of `channels` 8-bit samples filtered with filter `y % 5` (the test's own filters).
    static func filtered(_ raw: [[UInt8]], bpp: Int) -> [UInt8] {
        var out: [UInt8] = []
        for (y, row) in raw.enumerated() {
            let prior = y > 0 ? raw[y - 1] : [UInt8](repeating: 0, count: row.count)
            let filter = y % 5
            out.append(UInt8(filter))
            for i in row.indices {
                let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(prior[i]), c = i >= bpp ? Int(prior[i - bpp]) : 0
                let predicted: Int
                switch filter {
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: predicted = 0
                }
                out.append(UInt8(truncatingIfNeeded: Int(row[i]) - predicted))
            }
        }
        return out
    }

    static func rows(width: Int, height: Int, bytesPerPixel: Int, seed: Int) -> [[UInt8]] {
        (0..<height).map { y in
            (0..<(width * bytesPerPixel)).map { i in UInt8(truncatingIfNeeded: (i * 37 + y * 101 + seed * 13) ^ (i * y)) }
        }
    }

    /// A PNG of `zlib` split into IDAT chunks of at most `piece` bytes.
    static func png(
        width: Int, height: Int, bitDepth: Int = 8, colorType: Int, before: [UInt8] = [], zlib: [UInt8], piece: Int = .max
    ) -> Data {
        let ihdr = PNGBytes.be32(UInt32(width)) + PNGBytes.be32(UInt32(height)) + [UInt8(bitDepth), UInt8(colorType), 0, 0, 0]
        var idat: [UInt8] = []
        var start = 0
        repeat {
            let end = min(zlib.count, start + piece)
            idat += PNGBytes.chunk("IDAT", Array(zlib[start..<end]))
            start = end
        } while start < zlib.count
        return Data(PNGBytes.signature + PNGBytes.chunk("IHDR", ihdr) + before + idat + PNGBytes.chunk("IEND", []))
    }

    /// `count` palette entries, RGB.
    static func colours(_ count: Int) -> [UInt8] {
        var rgb: [UInt8] = []
        for i in 0..<count { rgb += [UInt8(i * 16 % 256), UInt8(255 - i * 16 % 256), UInt8(i * 7 % 256)] }
        return rgb
    }

    @Test("every colour type and depth the path takes, all five filters, one IDAT or many: libpng's pixels")
    func colourTypes() {
        let palette = PNGBytes.chunk("PLTE", Self.colours(16))
        let cases: [(name: String, colorType: Int, bitDepth: Int, bpp: Int, before: [UInt8])] = [
            ("RGBA", 6, 8, 4, []), ("RGB", 2, 8, 3, []), ("gray+alpha", 4, 8, 2, []), ("gray", 0, 8, 1, []),
            ("sRGB chunk", 6, 8, 4, PNGBytes.chunk("sRGB", [0])),
            ("gAMA of sRGB", 6, 8, 4, PNGBytes.chunk("gAMA", PNGBytes.be32(45455)))
        ]
        for c in cases {
            let raw = Self.rows(width: 13, height: 11, bytesPerPixel: c.bpp, seed: c.colorType)
            let zlib = PNGTestWriter.stored(Self.filtered(raw, bpp: c.bpp))
            for piece in [Int.max, 7] {
                let data = Self.png(width: 13, height: 11, colorType: c.colorType, before: c.before, zlib: zlib, piece: piece)
                #expect(Self.expectSame(data, "\(c.name), IDAT pieces of \(piece)"), "\(c.name)")
            }
        }
        // RGB and RGBA are unfiltered a pixel at a time in SIMD lanes: bytes from a few values
        // near 0, 128 and 255 make Paeth's ties (a before b before c) and every sum's wrap common.
        var random = SeededGenerator(seed: 42)
        let near: [UInt8] = [0, 1, 2, 127, 128, 129, 253, 254, 255]
        for (colorType, bpp) in [(6, 4), (2, 3)] {
            let raw = (0..<40).map { _ in (0..<(17 * bpp)).map { _ in near.randomElement(using: &random)! } }
            let zlib = PNGTestWriter.stored(Self.filtered(raw, bpp: bpp))
            let data = Self.png(width: 17, height: 40, colorType: colorType, zlib: zlib)
            #expect(Self.expectSame(data, "ties and wraps, colour type \(colorType)"))
        }
        // Gray and palette at 1, 2 and 4 bits: packed samples, a byte a pixel for the filters.
        for depth in [1, 2, 4] {
            let width = 11, rowBytes = (width * depth + 7) / 8
            let raw = (0..<9).map { y in (0..<rowBytes).map { UInt8(truncatingIfNeeded: $0 * 29 + y * 71) } }
            let zlib = PNGTestWriter.stored(Self.filtered(raw, bpp: 1))
            #expect(
                Self.expectSame(Self.png(width: width, height: 9, bitDepth: depth, colorType: 0, zlib: zlib), "gray \(depth)"))
            let entries = 1 << depth
            let plte = PNGBytes.chunk("PLTE", Self.colours(entries))
            let trns = PNGBytes.chunk("tRNS", (0..<(entries / 2)).map { UInt8($0 * 30) })
            let indexed = Self.png(width: width, height: 9, bitDepth: depth, colorType: 3, before: plte + trns, zlib: zlib)
            #expect(Self.expectSame(indexed, "palette \(depth)"))
        }
        let indices = (0..<7).map { y in (0..<9).map { UInt8(($0 + y) % 16) } }
        let indexed = Self.png(
            width: 9, height: 7, colorType: 3, before: palette, zlib: PNGTestWriter.stored(Self.filtered(indices, bpp: 1)))
        #expect(Self.expectSame(indexed, "palette 8"))
    }

    @Test("what the path leaves to libpng: the same pixels or error, and libpng's own way")
    func refusals() {
        let raw = Self.rows(width: 8, height: 6, bytesPerPixel: 4, seed: 3)
        let zlib = PNGTestWriter.stored(Self.filtered(raw, bpp: 4))
        func rgba(_ zlib: [UInt8], before: [UInt8] = [], piece: Int = .max) -> Data {
            Self.png(width: 8, height: 6, colorType: 6, before: before, zlib: zlib, piece: piece)
        }
        var badAdler = zlib
        badAdler[badAdler.count - 1] ^= 1
        var badFilter = zlib
        badFilter[2 + 5] = 5  // the first row's filter byte, after the zlib header and block header
        // A 16 KiB window declared (CINFO 6): zlib would hold the stream to it.
        var smallWindow = zlib
        smallWindow[0] = 0x68
        smallWindow[1] = 0x05
        let short = PNGTestWriter.stored(Array(Self.filtered(raw, bpp: 4).dropLast(33)))
        let long = PNGTestWriter.stored(Self.filtered(raw, bpp: 4) + [0, 0, 0, 0])
        var secondCRC = [UInt8](rgba(zlib, piece: 40))
        let second = 8 + 25 + 52  // signature, IHDR, the first IDAT (40 bytes of data)
        secondCRC[second + 8] ^= 0xFF  // a data byte of the second IDAT: its CRC no longer matches
        let refused: [(String, Data)] = [
            ("bad Adler-32", rgba(badAdler)),
            ("filter type 5", rgba(badFilter)),
            ("a 16 KiB window", rgba(smallWindow)),
            ("rows missing", rgba(short)),
            ("too much data", rgba(long)),
            ("a bad CRC in the second IDAT", Data(secondCRC)),
            ("data after the zlib stream", rgba(zlib + [1, 2, 3])),
            ("gAMA 1.0", rgba(zlib, before: PNGBytes.chunk("gAMA", PNGBytes.be32(100_000))))
        ]
        for (name, data) in refused {
            #expect(!Self.expectSame(data, name), "\(name) was taken")
        }
        // A profile too short to be one: libpng drops it (a benign error), and so the path takes the
        // file. (A real profile is refused: the corpus has none small enough to copy here.)
        let brokenProfile = PNGBytes.chunk("iCCP", Array("x".utf8) + [0, 0] + PNGTestWriter.stored([1, 2, 3]))
        #expect(Self.expectSame(rgba(zlib, before: brokenProfile), "a profile of 3 bytes"))
        // A colour key (tRNS on RGB) is libpng's; so is a palette index past the palette.
        let rgb = PNGTestWriter.stored(Self.filtered(Self.rows(width: 8, height: 6, bytesPerPixel: 3, seed: 1), bpp: 3))
        let keyed = Self.png(width: 8, height: 6, colorType: 2, before: PNGBytes.chunk("tRNS", [0, 1, 0, 2, 0, 3]), zlib: rgb)
        #expect(!Self.expectSame(keyed, "colour key"))
        let plte = PNGBytes.chunk("PLTE", [1, 2, 3, 4, 5, 6])
        let outside = Self.png(
            width: 4, height: 2, colorType: 3, before: plte, zlib: PNGTestWriter.stored([0, 0, 1, 1, 2, 0, 1, 0, 1, 0]))
        #expect(!Self.expectSame(outside, "index past the palette"))
        // Larger than TABICONS_PNG_INFLATED_MAX_BYTES of image data: row by row, as streaming wants.
        let big = Self.png(
            width: 600, height: 500, colorType: 6, zlib: PNGTestWriter.stored([UInt8](repeating: 0, count: 500 * (1 + 2400))))
        #expect(!Self.expectSame(big, "600 × 500 RGBA"))
        #expect(PNGRowDecoder.inflatedBytes(width: 600, height: 500, bitDepth: 8, isInterlaced: false) == 0)
        #expect(PNGRowDecoder.inflatedBytes(width: 512, height: 512, bitDepth: 8, isInterlaced: false) > 2 << 20)
    }
}
