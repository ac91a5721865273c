import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

@Suite("PNG encoding")
struct PNGEncoderTests {
    /// PNG colour types as IHDR stores them.
    enum ColorType: UInt8 {
        case gray = 0
        case rgb = 2
        case palette = 3
        case grayAlpha = 4
        case rgba = 6
    }

    @Test(
        "decode(encode(x)) == x, in the smallest colour type the content allows",
        arguments: [
            ("random RGBA", PNGSample.randomRGBA(width: 37, height: 23), ColorType.rgba),
            ("random opaque colour", PNGSample.randomOpaque(width: 41, height: 17), .rgb),
            ("random gray with alpha", PNGSample.randomGrayAlpha(width: 33, height: 29), .grayAlpha),
            ("full gray ramp, opaque", PNGSample.grayRamp(width: 256, height: 8), .gray),
            ("random gray, opaque", PNGSample.randomGray(width: 64, height: 64), .gray)
        ])
    func roundTrip(name: String, bitmap: Bitmap, expected: ColorType) throws {
        let png = try PNGEncoder.encode(bitmap)
        #expect(png[25] == expected.rawValue, "\(name): IHDR colour type")
        #expect(png[24] == 8, "\(name): IHDR bit depth")
        let decoded = try ImageDecoder.decode(Data(png))
        #expect(decoded.bitmap == bitmap, "\(name)")
    }

    @Test("one pixel in the last block of a large gray, opaque image keeps its colour or its alpha")
    func lastPixel() throws {
        // 300 × 10 = 3,000 pixels: the reduction looks at 1,024 a block; the odd pixel is the last.
        let gray = PNGSample.randomGray(width: 300, height: 10)
        var colour = gray.pixels, translucent = gray.pixels
        colour[colour.count - 3] ^= 1  // G of the last pixel
        translucent[translucent.count - 1] = 254
        for (pixels, expected) in [(colour, ColorType.rgb), (translucent, .grayAlpha)] {
            let bitmap = Bitmap(width: 300, height: 10, pixels: pixels)
            let png = try PNGEncoder.encode(bitmap)
            #expect(png[25] == expected.rawValue || png[25] == ColorType.palette.rawValue)
            #expect(try ImageDecoder.decode(Data(png)).bitmap == bitmap)
        }
        #expect(PNGColorReduction(Bitmap(width: 300, height: 10, pixels: colour)).layout == .rgb)
        #expect(PNGColorReduction(Bitmap(width: 300, height: 10, pixels: translucent)).layout == .grayAlpha)
        #expect(PNGColorReduction(gray).layout == .gray)
    }

    @Test("few colours are written indexed, with tRNS only for the translucent entries")
    func palette() throws {
        // A two-colour glyph: transparent background, opaque dark ink.
        let glyph = PNGSample.glyph(width: 48, height: 48, ink: [20, 30, 40, 255], background: [255, 255, 255, 0])
        let png = try PNGEncoder.encode(glyph)
        #expect(png[25] == ColorType.palette.rawValue)
        #expect(png[24] == 1)  // two entries: 1-bit indices
        let chunks = Self.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "sRGB", "PLTE", "tRNS", "IDAT", "IEND"])
        #expect(chunks.first { $0.type == "tRNS" }?.length == 1)
        #expect(try ImageDecoder.decode(Data(png)).bitmap == glyph)
        // Colour under zero alpha survives too: a straight-alpha bitmap is written as it is.
        #expect(try ImageDecoder.decode(Data(png)).bitmap.pixels.prefix(4) == [255, 255, 255, 0])
    }

    @Test("256 gray levels stay gray (no 768-byte PLTE); 257 colours cannot be indexed")
    func paletteOnlyWhenSmaller() throws {
        // 256 gray levels, opaque: gray 8-bit needs no 768-byte PLTE.
        let ramp = PNGSample.grayRamp(width: 256, height: 8)
        #expect(try PNGEncoder.encode(ramp)[25] == ColorType.gray.rawValue)
        // 257 colours: no palette possible.
        var pixels = PNGSample.randomRGBA(width: 257, height: 1).pixels
        for x in 0..<257 { pixels[x * 4] = UInt8(x & 0xFF); pixels[x * 4 + 1] = x == 256 ? 1 : 0; pixels[x * 4 + 3] = 255 }
        let many = Bitmap(width: 257, height: 1, pixels: pixels)
        let png = try PNGEncoder.encode(many)
        #expect(png[25] != ColorType.palette.rawValue)
        #expect(try ImageDecoder.decode(Data(png)).bitmap == many)
    }

    @Test(
        "output is deterministic and carries no timestamp",
        arguments: [
            PNGSample.randomRGBA(width: 20, height: 20), PNGSample.randomGray(width: 9, height: 3),
            PNGSample.glyph(width: 16, height: 16, ink: [0, 0, 0, 255], background: [0, 0, 0, 0])
        ])
    func deterministic(bitmap: Bitmap) throws {
        let first = try PNGEncoder.encode(bitmap), second = try PNGEncoder.encode(bitmap)
        #expect(first == second)
        let types = Set(Self.chunks(first).map(\.type))
        #expect(!types.contains("tIME"))
        #expect(types.isSubset(of: ["IHDR", "sRGB", "PLTE", "tRNS", "IDAT", "IEND"]))
    }

    @Test("fast compression writes the same pixels")
    func fast() throws {
        let bitmap = PNGSample.randomRGBA(width: 64, height: 40)
        let png = try PNGEncoder.encode(bitmap, compression: .fast)
        #expect(try ImageDecoder.decode(Data(png)).bitmap == bitmap)
    }

    @Test("a 1×1 image and a fully transparent one round-trip")
    func tiny() throws {
        for bitmap in [Bitmap(width: 1, height: 1, pixels: [1, 2, 3, 4]), Bitmap(width: 7, height: 5)] {
            #expect(try ImageDecoder.decode(Data(PNGEncoder.encode(bitmap))).bitmap == bitmap)
        }
    }

    @Test(
        "decoded corpus files re-encode losslessly", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            "pngsuite/basn6a08.png", "pngsuite/tbrn2c08.png", "pngsuite/basn3p04.png", "pngsuite/basn0g02.png",
            "libpng/testpngs/rgb-alpha-16.png"
        ])
    func corpusRoundTrip(path: String) throws {
        let original = try ImageDecoder.decode(Fixtures.data(Fixtures.corpus(path))).bitmap
        #expect(try ImageDecoder.decode(Data(PNGEncoder.encode(original))).bitmap == original)
    }

    /// (type, data length) of each chunk.
    static func chunks(_ png: [UInt8]) -> [(type: String, length: Int)] {
        var result: [(String, Int)] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            result.append((String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self), length))
            offset += 12 + length
        }
        return result
    }
}

/// Bitmaps for encoder tests, from a fixed-seed generator so every run sees the same pixels.
enum PNGSample {
    typealias Generator = SeededGenerator

    static func make(width: Int, height: Int, seed: UInt64, _ pixel: (inout Generator) -> [UInt8]) -> Bitmap {
        var generator = Generator(seed: seed)
        var pixels: [UInt8] = []
        for _ in 0..<(width * height) { pixels += pixel(&generator) }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    static func randomRGBA(width: Int, height: Int) -> Bitmap {
        make(width: width, height: height, seed: 1) { g in [g.byte(), g.byte(), g.byte(), g.byte()] }
    }

    static func randomOpaque(width: Int, height: Int) -> Bitmap {
        make(width: width, height: height, seed: 2) { g in [g.byte(), g.byte(), g.byte(), 255] }
    }

    static func randomGray(width: Int, height: Int) -> Bitmap {
        make(width: width, height: height, seed: 3) { g in
            let v = g.byte(); return [v, v, v, 255]
        }
    }

    static func randomGrayAlpha(width: Int, height: Int) -> Bitmap {
        make(width: width, height: height, seed: 4) { g in
            let v = g.byte(); return [v, v, v, g.byte()]
        }
    }

    static func grayRamp(width: Int, height: Int) -> Bitmap {
        var pixels: [UInt8] = []
        for _ in 0..<height { for x in 0..<width { let v = UInt8(x * 255 / max(1, width - 1)); pixels += [v, v, v, 255] } }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// A ring of `ink` on `background`: the shape of a tab-bar glyph.
    static func glyph(width: Int, height: Int, ink: [UInt8], background: [UInt8]) -> Bitmap {
        var pixels: [UInt8] = []
        let cx = Double(width) / 2, cy = Double(height) / 2, r = Double(min(width, height)) * 0.35
        for y in 0..<height {
            for x in 0..<width {
                let d = ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy) * (Double(y) + 0.5 - cy))
                    .squareRoot()
                pixels += abs(d - r) < 3 ? ink : background
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }
}
