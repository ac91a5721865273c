import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// `padding` (SPEC §3): the glyph fitted into the box less twice the padding, on a canvas that
/// adds it back; `IconBox.paddedRenditionSize` owns the rounding.
@Suite("padding")
struct PaddingTests {
    func sizes(_ icon: NormalizedIcon) -> [[Int]] { icon.renditions.map { [$0.bitmap.width, $0.bitmap.height] } }

    func normalize(
        _ bitmap: Bitmap, _ padding: IconPadding, shape: NormalizeOptions.Shape = .fit,
        allowUpscale: Bool = false
    ) throws -> NormalizedIcon {
        try Normalizer(options: NormalizeOptions(shape: shape, allowUpscale: allowUpscale, padding: padding))
            .normalize(TestImages.decoded(bitmap))
    }

    /// The visible part of a rendition: its bounds of alpha above zero.
    func visible(_ bitmap: Bitmap) -> PixelRect? { ContentBounds.trimmedRect(of: bitmap) }

    @Test("2 points of a 25-point box: a 96 px glyph 21, 42, 63 px on 25, 50, 75 px, 25 pt")
    func points() throws {
        let icon = try normalize(TestImages.filled(width: 96, height: 96, (0, 0, 0, 255)), IconPadding(points: 2))
        #expect(sizes(icon) == [[25, 25], [50, 50], [75, 75]])
        #expect(
            icon.renditions.map { visible($0.bitmap) } == [
                PixelRect(x: 2, y: 2, width: 21, height: 21),
                PixelRect(x: 4, y: 4, width: 42, height: 42),
                PixelRect(x: 6, y: 6, width: 63, height: 63)
            ])
        #expect(icon.pointWidth == 25 && icon.pointHeight == 25)
        #expect(icon.decodeScale == 96.0 / 21)
    }

    @Test("10% is 2.5 points: the glyph 20, 40, 60 px, the canvas still exactly the box, an odd spare pixel right and below")
    func percent() throws {
        let icon = try normalize(TestImages.filled(width: 96, height: 96, (0, 0, 0, 255)), IconPadding(percent: 10))
        #expect(sizes(icon) == [[25, 25], [50, 50], [75, 75]])
        #expect(
            icon.renditions.map { visible($0.bitmap) } == [
                PixelRect(x: 2, y: 2, width: 20, height: 20),
                PixelRect(x: 5, y: 5, width: 40, height: 40),
                PixelRect(x: 7, y: 7, width: 60, height: 60)
            ])
    }

    @Test("fit keeps the aspect and adds the same padding on both axes; square and circle take the whole box")
    func shapes() throws {
        let wide = TestImages.filled(width: 96, height: 48, (0, 0, 0, 255))
        let fit = try normalize(wide, IconPadding(points: 2))
        // Glyph 21×11, 42×21, 63×32 (the rule's rounding in a 21-point box), 4, 8, 12 px added.
        #expect(sizes(fit) == [[25, 15], [50, 29], [75, 44]])
        #expect(abs(fit.pointWidth - 25) < 1e-9 && abs(fit.pointHeight - 14.5) < 1e-9)
        #expect(sizes(try normalize(wide, IconPadding(points: 2), shape: .square)) == [[25, 25], [50, 50], [75, 75]])
        let circle = try normalize(
            TestImages.filled(width: 96, height: 96, (0, 0, 0, 255)), IconPadding(points: 2), shape: .circle)
        #expect(sizes(circle) == [[25, 25], [50, 50], [75, 75]])
        #expect(TestImages.pixel(circle.renditions[2].bitmap, 37, 37)[3] == 255)
        #expect(TestImages.pixel(circle.renditions[2].bitmap, 37, 3)[3] == 0)
    }

    @Test("a source smaller than the inner box is never upscaled; its canvas keeps the padding at its own scale")
    func smallSource() throws {
        let small = TestImages.filled(width: 10, height: 10, (0, 0, 0, 255))
        let icon = try normalize(small, IconPadding(points: 2))
        #expect(sizes(icon) == [[14, 14]])
        #expect(icon.skippedScales == [2, 3])
        #expect(icon.pointWidth == 14)
        #expect(sizes(try normalize(small, IconPadding(points: 2), allowUpscale: true)) == [[14, 14], [28, 28], [42, 42]])
    }

    @Test("vectors fill the box less the padding: 21, 42, 63 px glyphs on 25, 50, 75 px")
    func vector() throws {
        let data = try Fixtures.data(Fixtures.testImage("house.svg"))
        let icon = try Normalizer(options: NormalizeOptions(padding: IconPadding(points: 2))).normalize(data)
        #expect(icon.renditions.map { max($0.bitmap.width, $0.bitmap.height) } == [25, 50, 75])
        let plain = try Normalizer(options: NormalizeOptions(box: IconBox(points: 21)!)).normalize(data)
        for (padded, inner) in zip(icon.renditions, plain.renditions) {
            let spare = max(padded.bitmap.width, padded.bitmap.height) - max(inner.bitmap.width, inner.bitmap.height)
            #expect(padded.bitmap.width == inner.bitmap.width + spare && padded.bitmap.height == inner.bitmap.height + spare)
            #expect(
                ShapeRenderer.centred(inner.bitmap, width: padded.bitmap.width, height: padded.bitmap.height) == padded.bitmap)
        }
        #expect(max(icon.pointWidth, icon.pointHeight) == 25)
    }

    @Test("a streamed PNG pads byte for byte as the whole image does")
    func streamed() throws {
        let data = try Fixtures.data(Fixtures.testImage("home.png"))
        let normalizer = Normalizer(options: NormalizeOptions(padding: IconPadding(percent: 12)))
        #expect(try normalizer.normalize(data) == normalizer.normalize(ImageDecoder.decode(data)))
    }

    @Test("a padding that leaves no box, or is negative, is refused; the text forms parse")
    func validation() {
        #expect(NormalizeOptions(padding: IconPadding(points: 12.5)).problem != nil)
        #expect(NormalizeOptions(padding: IconPadding(percent: 50)).problem != nil)
        #expect(NormalizeOptions(padding: IconPadding(points: -1)).problem != nil)
        #expect(NormalizeOptions(padding: IconPadding(points: 12)).problem == nil)
        #expect(IconPadding("2.5") == IconPadding(points: 2.5))
        #expect(IconPadding("10%") == IconPadding(percent: 10))
        #expect(IconPadding("ten") == nil && IconPadding("%") == nil && IconPadding("1e2") == nil)
    }
}
