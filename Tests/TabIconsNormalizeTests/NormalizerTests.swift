import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

@Suite("Normalizing")
struct NormalizerTests {
    func sizes(_ icon: NormalizedIcon) -> [[Int]] {
        icon.renditions.map { [$0.bitmap.width, $0.bitmap.height] }
    }

    func normalize(_ bitmap: Bitmap, _ options: NormalizeOptions = NormalizeOptions()) throws -> NormalizedIcon {
        try Normalizer(options: options).normalize(TestImages.decoded(bitmap))
    }

    // MARK: The rule's sizes

    @Test("a 96×96 source renders 25, 50 and 75 px, at decode scale 3.84 and 25 points")
    func squareSource() throws {
        let icon = try normalize(TestImages.random(width: 96, height: 96, seed: 1))
        #expect(sizes(icon) == [[25, 25], [50, 50], [75, 75]])
        #expect(icon.renditions.map(\.scale) == [1, 2, 3])
        #expect(icon.skippedScales.isEmpty)
        #expect(icon.decodeScale == 3.84)
        #expect(icon.pointWidth == 25 && icon.pointHeight == 25)
        #expect(!icon.lints.contains { $0.code == .undersized })
    }

    @Test("a 16×10 source renders only 1×; 2× and 3× are skipped and reported as undersized")
    func smallSource() throws {
        let icon = try normalize(TestImages.random(width: 16, height: 10, seed: 2))
        #expect(sizes(icon) == [[16, 10]])
        #expect(icon.skippedScales == [2, 3])
        #expect(icon.lints.map(\.code).contains(.undersized))
        #expect(icon.decodeScale == 1 && icon.pointWidth == 16 && icon.pointHeight == 10)
    }

    @Test("allowUpscale renders a 16×10 source at 16×10, 32×20 and 48×30")
    func upscaleAllowed() throws {
        let icon = try normalize(TestImages.random(width: 16, height: 10, seed: 3), NormalizeOptions(allowUpscale: true))
        #expect(sizes(icon) == [[16, 10], [32, 20], [48, 30]])
        #expect(icon.skippedScales.isEmpty)
        #expect(!icon.lints.contains { $0.code == .undersized })
    }

    @Test(
        "odd aspects get IconBox's sizes",
        arguments: [
            // 1×40 at 2× would be 2×50 from 40 px: an upscale, so skipped without allowUpscale.
            (1, 40, [[1, 25]]), (40, 1, [[25, 1]]),
            (26, 25, [[25, 24]]), (100, 7, [[25, 2], [50, 4], [75, 5]])
        ])
    func oddAspects(width: Int, height: Int, expected: [[Int]]) throws {
        let options = NormalizeOptions(scales: [1, 2, 3], allowUpscale: true)
        let icon = try normalize(TestImages.random(width: width, height: height, seed: 4), options)
        let viaIconBox = options.scales.map { scale -> [Int] in
            let size = IconBox.regular.renditionSize(width: width, height: height, scale: scale)
            return [size.width, size.height]
        }
        #expect(sizes(icon) == viaIconBox)
        // Without upscaling, only what does not exceed the source survives.
        let strict = try normalize(TestImages.random(width: width, height: height, seed: 4))
        #expect(sizes(strict) == expected)
    }

    @Test("renditions follow the order of the requested scales, other boxes too")
    func scaleOrderAndBox() throws {
        let icon = try normalize(
            TestImages.random(width: 200, height: 100, seed: 5),
            NormalizeOptions(box: .material, scales: [3, 1, 1.5, 4]))
        #expect(sizes(icon) == [[72, 36], [24, 12], [36, 18], [96, 48]])
        #expect(icon.renditions.map(\.scale) == [3, 1, 1.5, 4])
    }

    @Test("sizes come from the source size, not from a shrink-on-load decode")
    func shrunkDecode() throws {
        // A 6000×4000 photo decoded at 60×40: 3× (75×50) is no upscale of the source, so it is
        // rendered, resampled up from the 60×40 pixels there are.
        let decoded = TestImages.decoded(
            TestImages.random(width: 60, height: 40, seed: 6, opaque: true),
            sourceWidth: 6000, sourceHeight: 4000)
        let icon = try Normalizer().normalize(decoded)
        #expect(sizes(icon) == [[25, 17], [50, 33], [75, 50]])
        #expect(icon.decodeScale == 240)
        #expect(icon.source.pixelWidth == 6000)
        #expect(icon.skippedScales.isEmpty)
    }

    // MARK: Untouched pixels

    @Test("a rendition at the source's own size is the decoded pixels, bit for bit")
    func identity() throws {
        // Random colour under alpha 0 and every kind of alpha: nothing may be premultiplied away.
        let small = TestImages.random(width: 25, height: 19, seed: 7)
        for filter in NormalizeOptions.Filter.allCases {
            let icon = try normalize(small, NormalizeOptions(filter: filter))
            #expect(icon.renditions.first?.bitmap == small)
        }
        let large = TestImages.random(width: 75, height: 75, seed: 8)
        let icon = try normalize(large)
        #expect(icon.renditions.last?.bitmap == large)
        #expect(icon.renditions.first?.bitmap != large)
    }

    // MARK: Premultiplied resampling

    @Test(
        "no dark or light fringes around a red disc on transparent black or white",
        arguments: NormalizeOptions.Filter.allCases, [UInt8(0), 255])
    func noFringes(filter: NormalizeOptions.Filter, background: UInt8) throws {
        let disc = TestImages.softDisc(size: 96, radius: 40, background: background)
        let upscaled = TestImages.softDisc(size: 20, radius: 8, softness: 2, background: background)
        var renditions = try normalize(disc, NormalizeOptions(filter: filter)).renditions
        renditions += try normalize(upscaled, NormalizeOptions(filter: filter, allowUpscale: true)).renditions
        #expect(renditions.count == 6)
        var visible = 0
        var fringe: [[UInt8]] = []
        for rendition in renditions {
            let p = rendition.bitmap.pixels
            for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] > 0 {
                visible += 1
                if !(p[i] >= 250 && p[i + 1] <= 5 && p[i + 2] <= 5) { fringe.append(Array(p[i..<(i + 4)])) }
            }
        }
        #expect(visible > 1000)
        #expect(fringe.isEmpty, "\(fringe.count) fringe pixels, e.g. \(fringe.prefix(3))")
    }

    // MARK: Determinism

    @Test("the same bitmap normalized twice gives identical bytes")
    func deterministicTwice() throws {
        let source = TestImages.random(width: 131, height: 97, seed: 9)
        for filter in NormalizeOptions.Filter.allCases {
            let options = NormalizeOptions(shape: .circle, filter: filter)
            #expect(try normalize(source, options) == normalize(source, options))
        }
    }

    @Test("normalizing concurrently from many tasks gives identical bytes")
    func deterministicConcurrently() async throws {
        let image = TestImages.decoded(TestImages.random(width: 160, height: 120, seed: 10))
        let normalizer = Normalizer(options: NormalizeOptions(scales: [1, 2, 3, 1.5]))
        let expected = try normalizer.normalize(image)
        let results = try await withThrowingTaskGroup(of: NormalizedIcon.self) { group in
            for _ in 0..<16 { group.addTask { try normalizer.normalize(image) } }
            var all: [NormalizedIcon] = []
            for try await icon in group { all.append(icon) }
            return all
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == expected })
    }

    // MARK: Errors and shrink on load

    @Test("bytes that are no image fail with the decoder's error")
    func undecodableBytes() {
        do {
            _ = try Normalizer().normalize(Data("GIF89a and so on".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unsupportedFormat)
        }
    }

    @Test("the decoder is asked for the largest rendition's longest side")
    func shrinkOnLoadHint() {
        #expect(RenditionPlan.longestSideNeeded(NormalizeOptions()) == 75)
        #expect(RenditionPlan.longestSideNeeded(NormalizeOptions(box: .material, scales: [1, 1.5, 4])) == 96)
        #expect(RenditionPlan.longestSideNeeded(NormalizeOptions(box: IconBox(points: 17.5)!, scales: [1])) == 18)
        #expect(RenditionPlan.longestSideNeeded(NormalizeOptions(scales: [])) == nil)
    }

    @Test("a circle crop of a shrunk decode asks for a second, larger decode only when short of pixels")
    func sharperCropHint() {
        let options = NormalizeOptions(shape: .circle)
        // 6000×1000 at 1/8: 750×125, a 125 px square; 75 px needed: enough.
        let enough = TestImages.decoded(
            TestImages.filled(width: 750, height: 125, (1, 2, 3, 255)),
            sourceWidth: 6000, sourceHeight: 1000)
        #expect(
            RenditionPlan(image: enough, options: options)
                .longestSideForSharperCrop(of: enough, allowUpscale: false) == nil)
        // 10000×500 at 1/8: 1250×63, a 63 px square; 75 needed → decode at 75 × 10000/500 + 1.
        let short = TestImages.decoded(
            TestImages.filled(width: 1250, height: 63, (1, 2, 3, 255)),
            sourceWidth: 10000, sourceHeight: 500)
        #expect(
            RenditionPlan(image: short, options: options)
                .longestSideForSharperCrop(of: short, allowUpscale: false) == 1501)
        // A full-size decode never asks again.
        let full = TestImages.decoded(TestImages.filled(width: 100, height: 10, (1, 2, 3, 255)))
        #expect(
            RenditionPlan(image: full, options: options)
                .longestSideForSharperCrop(of: full, allowUpscale: true) == nil)
    }
}
