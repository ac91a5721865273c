import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// `--render auto`'s rule (`InkSurvey`, `IconIntent`): one ink is a template, more is original,
/// with the hard cases the survey's comment decides.
@Suite("the decided intent")
struct IconIntentTests {
    static let clear = TestImages.filled(width: 40, height: 40, (0, 0, 0, 0))

    func intent(_ bitmap: Bitmap, render: NormalizeOptions.Render = .auto) throws -> IconIntent {
        try Normalizer(options: NormalizeOptions(render: render)).normalize(TestImages.decoded(bitmap)).intent
    }

    @Test("a one-ink glyph is a template, in any ink")
    func oneInk() throws {
        #expect(try intent(TestImages.painting(Self.clear, x: 5, y: 5, width: 30, height: 30, (0, 0, 0, 255))) == .template)
        #expect(try intent(TestImages.painting(Self.clear, x: 5, y: 5, width: 30, height: 30, (0, 122, 255, 255))) == .template)
    }

    @Test("an anti-aliased glyph is a template: its soft edge does not decide, even off-colour")
    func antiAliased() throws {
        #expect(try intent(TestImages.softDisc(size: 40, radius: 16, softness: 4, background: 255)) == .template)
        // An edge blended towards white without premultiplication: grey, under half opaque.
        var glyph = TestImages.painting(Self.clear, x: 10, y: 10, width: 20, height: 20, (0, 0, 0, 255))
        glyph = TestImages.painting(glyph, x: 9, y: 10, width: 1, height: 20, (160, 160, 160, 100))
        #expect(try intent(glyph) == .template)
    }

    @Test("a single ink with a soft shadow is a template; a shadow at least half opaque is a second ink")
    func softShadow() throws {
        let shadowed = TestImages.painting(Self.clear, x: 8, y: 8, width: 26, height: 26, (0, 0, 0, 70))
        #expect(try intent(TestImages.painting(shadowed, x: 5, y: 5, width: 26, height: 26, (0, 122, 255, 255))) == .template)
        let hard = TestImages.painting(Self.clear, x: 8, y: 8, width: 26, height: 26, (0, 0, 0, 200))
        #expect(try intent(TestImages.painting(hard, x: 5, y: 5, width: 26, height: 26, (0, 122, 255, 255))) == .original)
    }

    @Test("near-greys are one ink; black with mid-grey details is two")
    func nearGreys() throws {
        let black = TestImages.painting(Self.clear, x: 5, y: 5, width: 30, height: 30, (0, 0, 0, 255))
        #expect(try intent(TestImages.painting(black, x: 10, y: 10, width: 5, height: 5, (34, 34, 34, 255))) == .template)
        #expect(try intent(TestImages.painting(black, x: 10, y: 10, width: 5, height: 5, (128, 128, 128, 255))) == .original)
    }

    @Test("a gradient wider than the ink spread is original; a subtle one is a template")
    func gradients() throws {
        func gradient(span: Int) -> Bitmap {
            var bitmap = Self.clear
            for y in 0..<40 {
                for x in 0..<40 {
                    let v = UInt8(x * span / 39)
                    let i = (y * 40 + x) * 4
                    (bitmap.pixels[i], bitmap.pixels[i + 1], bitmap.pixels[i + 2], bitmap.pixels[i + 3]) = (v, v, 255, 255)
                }
            }
            return bitmap
        }
        #expect(try intent(gradient(span: 200)) == .original)
        #expect(try intent(gradient(span: 40)) == .template)
    }

    @Test("a multicolour logo is original")
    func multicolour() throws {
        let red = TestImages.painting(Self.clear, x: 5, y: 5, width: 15, height: 30, (230, 30, 40, 255))
        #expect(try intent(TestImages.painting(red, x: 20, y: 5, width: 15, height: 30, (20, 90, 230, 255))) == .original)
    }

    @Test("a photo is original, and so is random colour")
    func photo() throws {
        let data = try Fixtures.data(Fixtures.testImage("avatar-exif6.jpg"))
        #expect(try Normalizer().normalize(data).intent == .original)
        #expect(try intent(TestImages.random(width: 40, height: 40, seed: 7)) == .original)
    }

    @Test("an empty or faint drawing is judged on what is visible")
    func faint() throws {
        #expect(try intent(Self.clear) == .template)
        #expect(try intent(TestImages.painting(Self.clear, x: 5, y: 5, width: 30, height: 30, (0, 0, 0, 60))) == .template)
    }

    @Test("--render original and template decide without looking")
    func explicitRender() throws {
        let logo = TestImages.painting(
            TestImages.painting(Self.clear, x: 0, y: 0, width: 20, height: 40, (255, 0, 0, 255)),
            x: 20, y: 0, width: 20, height: 40, (0, 0, 255, 255))
        #expect(try intent(logo, render: .template) == .template)
        #expect(try intent(logo, render: .templateLuminance) == .template)
        let glyph = TestImages.painting(Self.clear, x: 5, y: 5, width: 30, height: 30, (0, 0, 0, 255))
        #expect(try intent(glyph, render: .original) == .original)
    }

    @Test("auto keeps the pixels as decoded")
    func autoKeepsPixels() throws {
        let logo = TestImages.random(width: 25, height: 25, seed: 3)
        let icon = try Normalizer(options: NormalizeOptions(scales: [1])).normalize(TestImages.decoded(logo))
        #expect(icon.renditions.first?.bitmap == logo)
    }

    @Test("a streamed PNG and the whole image decide the same intent; so do vectors")
    func streamedAndVector() throws {
        for name in ["home.png", "rgba-32.png", "search-filled.png"] {
            let data = try Fixtures.data(Fixtures.testImage(name))
            let normalizer = Normalizer()
            let whole = try normalizer.normalize(ImageDecoder.decode(data))
            #expect(try normalizer.normalize(data).intent == whole.intent, "\(name)")
        }
        #expect(try Normalizer().normalize(Fixtures.data(Fixtures.testImage("home.png"))).intent == .template)
        #expect(try Normalizer().normalize(Fixtures.data(Fixtures.testImage("house.svg"))).intent == .template)
        let logo = Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="12" height="24" fill="#e00"/><rect x="12" width="12" height="24" fill="#00e"/></svg>
            """.utf8)
        #expect(try Normalizer().normalize(logo).intent == .original)
    }
}
