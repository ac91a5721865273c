import Testing
@testable import TabIconsCore

@Suite("The decode-scale rule")
struct IconBoxTests {
    @Test(
        "the rule table of SPEC §3",
        arguments: [
            (25.0, 25.0, 1.0), (16, 10, 1), (75, 75, 3), (50, 100, 4), (100, 50, 4), (96, 96, 3.84),
            (.nan, 100, 1), (100, .nan, 1), (.infinity, 100, 1), (100, .infinity, 1),
            (0, 100, 1), (100, 0, 1), (-75, 75, 1), (75, -75, 1), (.nan, .nan, 1)
        ])
    func decodeScale(width: Double, height: Double, expected: Double) {
        #expect(IconBox.decodeScale(width: width, height: height) == expected)
    }

    @Test("other boxes: compact 18, material 24, any positive number")
    func otherBoxes() {
        #expect(IconBox.decodeScale(width: 72, height: 72, box: .compact) == 4)
        #expect(IconBox.decodeScale(width: 96, height: 48, box: .material) == 4)
        #expect(IconBox.decodeScale(width: 20, height: 20, box: .material) == 1)
        #expect(IconBox.decodeScale(width: 90, height: 30, box: IconBox(points: 30)!) == 3)
        #expect(IconBox(points: 0) == nil)
        #expect(IconBox(points: -3) == nil)
        #expect(IconBox(points: .nan) == nil)
        #expect(IconBox("material") == .material)
        #expect(IconBox("32")?.points == 32)
        #expect(IconBox("big") == nil)
    }

    @Test(
        "rendition sizes for odd aspects",
        arguments: [
            // (w, h, scale, expected w, expected h, upscale)
            (1, 40, 1.0, 1, 25, false), (40, 1, 1.0, 25, 1, false), (40, 1, 3.0, 75, 2, true),
            (26, 25, 1.0, 25, 24, false), (100, 7, 1.0, 25, 2, false), (100, 7, 2.0, 50, 4, false),
            (100, 7, 3.0, 75, 5, false), (16, 10, 1.0, 16, 10, false), (16, 10, 2.0, 32, 20, true),
            (75, 75, 3.0, 75, 75, false), (50, 100, 2.0, 25, 50, false)
        ])
    func renditionSize(width: Int, height: Int, scale: Double, ew: Int, eh: Int, upscale: Bool) {
        let size = IconBox.regular.renditionSize(width: width, height: height, scale: scale)
        #expect(size.width == ew)
        #expect(size.height == eh)
        #expect(size.isUpscale == upscale)
    }

    @Test("point size is pixels over decode scale")
    func pointSize() {
        let size = IconBox.regular.pointSize(width: 50, height: 100)
        #expect(size.width == 12.5)
        #expect(size.height == 25)
    }
}
