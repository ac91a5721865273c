import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

@Suite("Lints")
struct LintTests {
    let black: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 255)
    let clear: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)

    func codes(
        _ bitmap: Bitmap, _ options: NormalizeOptions = NormalizeOptions(),
        animated: Bool = false
    ) throws -> [Lint.Code] {
        try Normalizer(options: options).normalize(TestImages.decoded(bitmap, animated: animated)).lints.map(\.code)
    }

    /// A `size`-square transparent image with a centred opaque `glyph`-square.
    func padded(size: Int, glyph: Int) -> Bitmap {
        let offset = (size - glyph) / 2
        return TestImages.painting(
            TestImages.filled(width: size, height: size, clear),
            x: offset, y: offset, width: glyph, height: glyph, black)
    }

    @Test("a well-made icon raises nothing")
    func clean() throws {
        #expect(try codes(padded(size: 96, glyph: 80)) == [])
    }

    @Test("opaque: raised when no pixel is transparent, not when one is")
    func opaque() throws {
        let solid = TestImages.filled(width: 80, height: 80, (90, 20, 200, 255))
        #expect(try codes(solid) == [.opaque])
        #expect(try codes(solid, NormalizeOptions(shape: .square)) == [.opaque])
        let oneHole = TestImages.painting(solid, x: 79, y: 79, width: 1, height: 1, (90, 20, 200, 254))
        #expect(try codes(oneHole) == [])
        // The circle's mask makes the corners transparent by design.
        #expect(try codes(solid, NormalizeOptions(shape: .circle)) == [])
        // template-luminance is judged by the alpha it produces: white becomes transparent.
        let darkOnLight = TestImages.painting(
            TestImages.filled(width: 80, height: 80, (255, 255, 255, 255)),
            x: 5, y: 5, width: 70, height: 70, black)
        #expect(try codes(darkOnLight) == [.opaque])
        #expect(try codes(darkOnLight, NormalizeOptions(render: .templateLuminance)) == [])
    }

    @Test("undersized: raised with the skipped scales, not when upscaling is allowed or nothing is skipped")
    func undersized() throws {
        let small = padded(size: 16, glyph: 14)
        let icon = try Normalizer().normalize(TestImages.decoded(small))
        let lint = try #require(icon.lints.first { $0.code == .undersized })
        #expect(lint.message == "2×, 3× skipped: the 16×16 px source would be upscaled")
        #expect(try codes(small, NormalizeOptions(allowUpscale: true)) == [])
        #expect(try codes(small, NormalizeOptions(scales: [1, 0.5])) == [])
        #expect(try codes(padded(size: 75, glyph: 70)) == [])
    }

    @Test(
        "not-square: raised beyond 4:5 either way, not at exactly 4:5",
        arguments: [
            (100, 79, true), (79, 100, true), (100, 80, false), (80, 100, false), (40, 100, true), (100, 100, false)
        ])
    func notSquare(width: Int, height: Int, raised: Bool) throws {
        let bitmap = TestImages.painting(
            TestImages.filled(width: width, height: height, black),
            x: 0, y: 0, width: 1, height: 1, clear)
        #expect(try codes(bitmap).contains(.notSquare) == raised)
    }

    @Test("not-square judges the trimmed glyph when trimming")
    func notSquareTrimmed() throws {
        // A 100×100 canvas holding a 90×40 bar: square canvas, wide glyph.
        let bar = TestImages.painting(
            TestImages.filled(width: 100, height: 100, clear),
            x: 5, y: 30, width: 90, height: 40, black)
        #expect(try codes(bar) == [])
        #expect(try codes(bar, NormalizeOptions(trim: true)) == [.opaque, .notSquare])
    }

    @Test("padding: raised when the visible glyph spans under half the box's side")
    func padding() throws {
        let icon = try Normalizer().normalize(TestImages.decoded(padded(size: 100, glyph: 40)))
        #expect(icon.lints == [Lint(.padding, "the glyph fills 40% of the box (40 of 100 px)")])
        #expect(try codes(padded(size: 100, glyph: 49)) == [.padding])
        #expect(try codes(padded(size: 100, glyph: 50)) == [])
        // Trimming removes the margin it complains about.
        #expect(try codes(padded(size: 200, glyph: 80), NormalizeOptions(trim: true)) == [.opaque])
        // A faint haze (alpha 10) over the margin does not count as glyph.
        var hazy = TestImages.filled(width: 100, height: 100, (0, 0, 0, 10))
        hazy = TestImages.painting(hazy, x: 30, y: 30, width: 40, height: 40, black)
        #expect(try codes(hazy) == [.padding])
        // A thin bar across the whole box is not padded: the longest side decides.
        let line = TestImages.painting(
            TestImages.filled(width: 100, height: 100, clear),
            x: 0, y: 48, width: 100, height: 4, black)
        #expect(try codes(line) == [])
        // Nothing visible at all.
        #expect(try codes(TestImages.filled(width: 80, height: 80, clear)) == [.padding])
    }

    @Test("animated: raised for an animated source only")
    func animated() throws {
        let icon = try Normalizer().normalize(TestImages.decoded(padded(size: 96, glyph: 80), animated: true))
        #expect(icon.lints == [Lint(.animated, "animated source: the first frame is used")])
        #expect(try codes(padded(size: 96, glyph: 80), animated: false) == [])
    }

    @Test("several lints come in a fixed order")
    func order() throws {
        // 20×8, opaque, 2× and 3× skipped, not square, animated.
        let strip = TestImages.filled(width: 20, height: 8, black)
        #expect(try codes(strip, animated: true) == [.opaque, .undersized, .notSquare, .animated])
    }
}
