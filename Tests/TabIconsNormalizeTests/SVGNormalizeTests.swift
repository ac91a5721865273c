import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// The vector rule (SPEC §3): renditions fill the box (T = round(box × k)), keep the viewBox's
/// aspect, are drawn directly at T (never resampled, never `undersized`); trim, shapes and render
/// intents apply; one parse serves every rendition; the bytes do not depend on threads.
@Suite("SVG: the vector rule")
struct SVGNormalizeTests {
    typealias S = SVGTestSupport
    let house = try! Fixtures.data(Fixtures.testImage("house-fill.svg"))

    @Test("a 16 px icon fills the 25 pt box at every scale, with no undersized lint")
    func fillsTheBox() throws {
        let icon = try Normalizer(options: NormalizeOptions(scales: [1, 1.5, 2, 3, 4])).normalize(house)
        #expect(icon.renditions.map(\.bitmap.width) == [25, 38, 50, 75, 100])
        #expect(icon.renditions.map(\.bitmap.height) == [25, 38, 50, 75, 100])
        #expect(icon.skippedScales.isEmpty)
        #expect(!icon.lints.contains { $0.code == .undersized })
        #expect(icon.source.isVector && icon.source.pixelWidth == 16)
        #expect(icon.decodeScale == 0.64 && icon.pointWidth == 25 && icon.pointHeight == 25)
        #expect(IconBox.regular.decodeScale(of: icon.source) == 0.64)
    }

    static let aspects: [(viewBox: String, sizes: [[Int]])] = [
        ("0 0 20 10", [[25, 13], [50, 25], [75, 38]]),  // 12.5 and 37.5 round away from zero
        ("0 0 10 30", [[8, 25], [17, 50], [25, 75]]),
        ("0 0 300 300", [[25, 25], [50, 50], [75, 75]])  // larger than the box: the same rule
    ]

    @Test("the viewBox's aspect is kept: T on the longest side, round(S × T ÷ L) on the other", arguments: aspects)
    func aspect(viewBox: String, sizes: [[Int]]) throws {
        let data = S.svg("viewBox=\"\(viewBox)\"", "<rect width=\"100%\" height=\"100%\"/>")
        let icon = try Normalizer().normalize(data)
        #expect(icon.renditions.map { [$0.bitmap.width, $0.bitmap.height] } == sizes)
        #expect(max(icon.pointWidth, icon.pointHeight) == 25)
    }

    @Test("each rendition is drawn at its own size: the 1× is not the 3× resampled")
    func drawnDirectly() throws {
        let icon = try Normalizer().normalize(house)
        for (rendition, side) in zip(icon.renditions, [25, 50, 75]) {
            let direct = try ImageDecoder.decode(house, options: DecodeOptions(longestSideNeeded: side))
            #expect(rendition.bitmap == direct.bitmap, "\(side) px")
        }
        // And normalize(DecodedImage) from a decode at the intrinsic size draws the same bytes.
        let fromImage = try Normalizer().normalize(ImageDecoder.decode(house))
        #expect(fromImage.renditions == icon.renditions)
    }

    @Test("template keeps the alpha and drops the colour; circle masks a square")
    func templateAndCircle() throws {
        let coloured = S.svg(
            "viewBox=\"0 0 16 16\"",
            "<rect width=\"16\" height=\"8\" fill=\"#ff8000\"/><circle cx=\"8\" cy=\"12\" r=\"4\" fill=\"#0040ff\" fill-opacity=\"0.5\"/>"
        )
        let original = try Normalizer().normalize(coloured)
        let template = try Normalizer(options: NormalizeOptions(render: .template)).normalize(coloured)
        for (o, t) in zip(original.renditions, template.renditions) {
            #expect(o.bitmap.width == t.bitmap.width)
            for i in stride(from: 0, to: t.bitmap.pixels.count, by: 4) {
                #expect(t.bitmap.pixels[i + 3] == o.bitmap.pixels[i + 3])
                #expect(t.bitmap.pixels[i] == 0 && t.bitmap.pixels[i + 1] == 0 && t.bitmap.pixels[i + 2] == 0)
            }
        }
        let full = S.svg("viewBox=\"0 0 20 10\"", "<rect width=\"20\" height=\"10\" fill=\"#ff8000\"/>")
        let circle = try Normalizer(options: NormalizeOptions(shape: .circle)).normalize(full)
        #expect(circle.renditions.map { [$0.bitmap.width, $0.bitmap.height] } == [[25, 25], [50, 50], [75, 75]])
        for rendition in circle.renditions {
            let b = rendition.bitmap
            #expect(b.pixels[3] == 0)  // a corner is outside the circle
            let centre = ((b.height / 2) * b.width + b.width / 2) * 4
            #expect(Array(b.pixels[centre..<(centre + 4)]) == [255, 128, 0, 255])
        }
        #expect(!circle.lints.contains { $0.code == .opaque })
        let square = try Normalizer(options: NormalizeOptions(shape: .square)).normalize(full)
        #expect(square.renditions.map { [$0.bitmap.width, $0.bitmap.height] } == [[25, 25], [50, 50], [75, 75]])
        #expect(square.pointWidth == 25 && square.pointHeight == 25)
    }

    @Test("trim crops the drawing's transparent margins, then draws again at full size")
    func trim() throws {
        // An 8-unit square in a 16-unit viewBox: half the box until trimmed.
        let plain = try Normalizer().normalize(S.square)
        #expect(plain.lints.contains { $0.code == .padding } == false)  // 50% is not under half
        let trimmed = try Normalizer(options: NormalizeOptions(trim: true)).normalize(S.square)
        #expect(trimmed.renditions.map(\.bitmap.width) == [25, 50, 75])
        for rendition in trimmed.renditions {
            // The square now fills its rendition edge to edge, opaque: drawn, not upscaled pixels.
            let opaque = !rendition.bitmap.hasTransparentPixels
            #expect(opaque, "\(rendition.scale)×")
        }
        let margin = S.svg("viewBox=\"0 0 40 40\"", "<rect x=\"10\" y=\"15\" width=\"20\" height=\"10\"/>")
        let wide = try Normalizer(options: NormalizeOptions(trim: true)).normalize(margin)
        #expect(wide.renditions.map { [$0.bitmap.width, $0.bitmap.height] } == [[25, 13], [50, 25], [75, 38]])
    }

    @Test("an SVG with text renders from many threads at once, the same bytes every time")
    func textFromManyThreads() async throws {
        let text = S.svg(
            "viewBox=\"0 0 32 16\"",
            "<text x=\"2\" y=\"12\" font-size=\"10\" font-family=\"sans-serif\">Ab</text><rect width=\"4\" height=\"4\"/>")
        let expected = try Normalizer().normalize(text)
        let results = try await withThrowingTaskGroup(of: NormalizedIcon.self) { group in
            for _ in 0..<16 { group.addTask { try Normalizer().normalize(text) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        for result in results { #expect(result.renditions == expected.renditions) }
        // One parsed document shared by threads: its renders are serialized, never interleaved.
        let image = try ImageDecoder.decode(text)
        let shared = try await withThrowingTaskGroup(of: NormalizedIcon.self) { group in
            for _ in 0..<8 { group.addTask { try Normalizer().normalize(image) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in shared { #expect(result.renditions == expected.renditions) }
    }

    @Test("rendition sizes come from the rule, not from a scale factor that floating error rounds up")
    func renditionSizesExact() throws {
        // rsvg-convert -w 25 -h 25 gives 26×26 for a 22-unit viewBox (25/22 × 22 = 25.000000000000004).
        let data = SVGTestSupport.svg("viewBox=\"0 0 22 22\"", "<rect width=\"22\" height=\"22\"/>")
        let icon = try Normalizer(options: NormalizeOptions(scales: [1, 2, 3])).normalize(data)
        #expect(icon.renditions.map { [$0.bitmap.width, $0.bitmap.height] } == [[25, 25], [50, 50], [75, 75]])
        // Fully covered: every pixel of every rendition opaque.
        for rendition in icon.renditions { #expect(!rendition.bitmap.hasTransparentPixels) }
    }
}
