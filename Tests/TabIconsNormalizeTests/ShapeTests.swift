import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

@Suite("Shapes, trim and rendering intents")
struct ShapeTests {
    let red: (UInt8, UInt8, UInt8, UInt8) = (255, 0, 0, 255)

    func normalize(_ bitmap: Bitmap, _ options: NormalizeOptions) throws -> NormalizedIcon {
        try Normalizer(options: options).normalize(TestImages.decoded(bitmap))
    }

    /// Alphas of one row.
    func alphas(_ bitmap: Bitmap, row y: Int) -> [UInt8] {
        (0..<bitmap.width).map { TestImages.pixel(bitmap, $0, y)[3] }
    }

    // MARK: square

    @Test("square centres the fitted glyph on a transparent square canvas")
    func squareCentres() throws {
        let icon = try normalize(TestImages.filled(width: 50, height: 100, red), NormalizeOptions(shape: .square))
        // The glyph is fit's (13×25, 25×50, 38×75), centred on 25, 50 and 75 px squares.
        #expect(icon.renditions.map { [$0.bitmap.width, $0.bitmap.height] } == [[25, 25], [50, 50], [75, 75]])
        for rendition in icon.renditions {
            let side = rendition.bitmap.width
            let glyph = IconBox.regular.renditionSize(width: 50, height: 100, scale: rendition.scale).width
            let left = (side - glyph) / 2
            for y in [0, side / 2, side - 1] {
                let expected = (0..<side).map { x -> UInt8 in (left..<(left + glyph)).contains(x) ? 255 : 0 }
                #expect(alphas(rendition.bitmap, row: y) == expected, "\(side) px, row \(y)")
            }
        }
        #expect(icon.pointWidth == 25 && icon.pointHeight == 25)
    }

    @Test("square keeps a glyph at its own size untouched, centred with the odd pixel below")
    func squareIdentity() throws {
        let source = TestImages.random(width: 16, height: 11, seed: 20)
        let icon = try normalize(source, NormalizeOptions(shape: .square))
        let canvas = try #require(icon.renditions.first?.bitmap)
        #expect(canvas.width == 16 && canvas.height == 16)
        #expect(canvas.cropped(to: PixelRect(x: 0, y: 2, width: 16, height: 11)) == source)
        #expect(canvas.cropped(to: PixelRect(x: 0, y: 0, width: 16, height: 2)).pixels.allSatisfy { $0 == 0 })
        #expect(canvas.cropped(to: PixelRect(x: 0, y: 13, width: 16, height: 3)).pixels.allSatisfy { $0 == 0 })
    }

    // MARK: circle

    @Test("circle crops the centred square and masks it: transparent corners, opaque centre, soft edge")
    func circle() throws {
        // Blue left margin, red centre square, green right margin: the crop keeps only red.
        var source = TestImages.filled(width: 100, height: 60, red)
        source = TestImages.painting(source, x: 0, y: 0, width: 20, height: 60, (0, 0, 255, 255))
        source = TestImages.painting(source, x: 80, y: 0, width: 20, height: 60, (0, 255, 0, 255))
        let icon = try normalize(source, NormalizeOptions(shape: .circle))
        #expect(icon.renditions.map { [$0.bitmap.width, $0.bitmap.height] } == [[25, 25], [50, 50]])
        #expect(icon.skippedScales == [3])  // 75 from a 60 px square would upscale
        #expect(icon.decodeScale == 60.0 / 25 && icon.pointWidth == 25 && icon.pointHeight == 25)
        for rendition in icon.renditions {
            let b = rendition.bitmap, n = b.width
            for (x, y) in [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)] {
                #expect(TestImages.pixel(b, x, y)[3] == 0)
            }
            #expect(TestImages.pixel(b, n / 2, n / 2) == [255, 0, 0, 255])
            var soft = 0
            for y in 0..<n {
                for x in 0..<n {
                    let p = TestImages.pixel(b, x, y)
                    if p[3] > 0 && p[3] < 255 { soft += 1 }
                    if p[3] > 0 { #expect(Array(p[0..<3]) == [255, 0, 0], "(\(x), \(y)) of \(n)") }
                    // Symmetric under both mirrors.
                    #expect(p[3] == TestImages.pixel(b, n - 1 - x, y)[3] && p[3] == TestImages.pixel(b, x, n - 1 - y)[3])
                }
            }
            #expect(soft > 0)
        }
    }

    @Test("the circle mask covers π r² and its edge is graded")
    func circleMaskArea() {
        for side in [16, 25, 75] {
            let masked = ShapeRenderer.circleMasked(TestImages.filled(width: side, height: side, (9, 9, 9, 255)))
            let covered = stride(from: 3, to: masked.pixels.count, by: 4).reduce(0.0) { $0 + Double(masked.pixels[$1]) / 255 }
            let r = Double(side) / 2
            #expect(abs(covered - .pi * r * r) < 0.01 * .pi * r * r, "\(side): \(covered)")
            let levels = Set(stride(from: 3, to: masked.pixels.count, by: 4).map { masked.pixels[$0] })
            #expect(levels.count >= side / 4, "\(side): \(levels.count) alpha levels")
        }
    }

    // MARK: trim

    @Test("trim's rectangle holds every pixel with alpha above 0, however faint")
    func trimRect() {
        var source = TestImages.filled(width: 40, height: 30, (200, 200, 200, 0))
        source = TestImages.painting(source, x: 5, y: 7, width: 10, height: 13, red)
        source = TestImages.painting(source, x: 30, y: 25, width: 1, height: 1, (0, 0, 0, 1))
        #expect(ContentBounds.trimmedRect(of: source) == PixelRect(x: 5, y: 7, width: 26, height: 19))
        #expect(ContentBounds.bounds(of: source, alphaAbove: 1) == PixelRect(x: 5, y: 7, width: 10, height: 13))
    }

    @Test("trim crops exactly the transparent margin, and the rule then applies to what is left")
    func trimThenRule() throws {
        let glyph = TestImages.random(width: 50, height: 46, seed: 21, opaque: true)
        var source = TestImages.filled(width: 120, height: 100, (255, 255, 255, 0))
        for y in 0..<46 {
            for x in 0..<50 {
                let p = TestImages.pixel(glyph, x, y)
                source = TestImages.painting(source, x: 33 + x, y: 20 + y, width: 1, height: 1, (p[0], p[1], p[2], p[3]))
            }
        }
        let icon = try normalize(source, NormalizeOptions(trim: true))
        #expect(icon.renditions.map { [$0.bitmap.width, $0.bitmap.height] } == [[25, 23], [50, 46]])
        #expect(icon.renditions[1].bitmap == glyph)  // 2× is the trimmed pixels, untouched
        #expect(icon.skippedScales == [3])
        #expect(icon.pointWidth == 25 && icon.pointHeight == 23)
        // Without trim the same source is 120×100.
        let untrimmed = try normalize(source, NormalizeOptions())
        #expect(untrimmed.renditions.map { [$0.bitmap.width, $0.bitmap.height] } == [[25, 21], [50, 42], [75, 63]])
    }

    @Test("trimming a fully transparent image keeps it whole")
    func trimNothing() throws {
        let empty = TestImages.filled(width: 20, height: 12, (10, 20, 30, 0))
        #expect(ContentBounds.trimmedRect(of: empty) == PixelRect(x: 0, y: 0, width: 20, height: 12))
        let icon = try normalize(empty, NormalizeOptions(trim: true))
        #expect(icon.renditions.first?.bitmap == empty)
    }

    // MARK: rendering intents

    @Test("template drops the colour and keeps alpha exactly")
    func template() throws {
        let source = TestImages.random(width: 25, height: 25, seed: 22)
        let icon = try normalize(source, NormalizeOptions(render: .template))
        let out = try #require(icon.renditions.first?.bitmap)
        for i in stride(from: 0, to: out.pixels.count, by: 4) {
            #expect(out.pixels[i] == 0 && out.pixels[i + 1] == 0 && out.pixels[i + 2] == 0)
            #expect(out.pixels[i + 3] == source.pixels[i + 3])
        }
        // Resampled renditions too: black wherever visible.
        let large = try normalize(TestImages.random(width: 90, height: 90, seed: 23), NormalizeOptions(render: .template))
        for rendition in large.renditions {
            let p = rendition.bitmap.pixels
            #expect(stride(from: 0, to: p.count, by: 4).allSatisfy { p[$0] == 0 && p[$0 + 1] == 0 && p[$0 + 2] == 0 })
        }
    }

    @Test("template-luminance takes alpha from darkness (Rec. 709 luma) times alpha, colour black")
    func templateLuminance() {
        let cases: [([UInt8], UInt8)] = [
            ([255, 255, 255, 255], 0), ([0, 0, 0, 255], 255), ([128, 128, 128, 255], 127),
            ([0, 0, 0, 128], 128), ([255, 0, 0, 255], 201), ([0, 255, 0, 255], 73), ([0, 0, 255, 255], 236),
            ([0, 0, 0, 0], 0), ([100, 100, 100, 51], 31)
        ]
        let source = Bitmap(width: cases.count, height: 1, pixels: cases.flatMap(\.0))
        let out = RenderIntentConversion.apply(.templateLuminance, to: source)
        for (i, (_, alpha)) in cases.enumerated() {
            #expect(TestImages.pixel(out, i, 0) == [0, 0, 0, alpha], "\(cases[i].0)")
        }
    }
}
