import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// `NormalizeOptions.validate`: the one check every entry point makes before any arithmetic.
@Suite("Normalize options: what is refused before any work")
struct NormalizeOptionsTests {
    @Test(
        "the defaults, a box larger than every source at 1×, and the smallest scale that renders a pixel are valid",
        arguments: [
            NormalizeOptions(),
            NormalizeOptions(box: IconBox(points: 100_000)!, scales: [1]),
            NormalizeOptions(box: IconBox(points: 1e19)!, scales: [0.5, 1]),
            NormalizeOptions(scales: [0.02]),
            NormalizeOptions(scales: [1, 2, 3], limits: .init(maxPixels: 4096)),
            NormalizeOptions(scales: [3], allowUpscale: true)
        ])
    func valid(options: NormalizeOptions) throws {
        #expect(options.problem == nil)
        try options.validate()
    }

    @Test(
        "scales that are not positive finite numbers, or render under one pixel, are refused",
        arguments: [0, -1, Double.nan, .infinity, -.infinity, 1e-300, 0.019])
    func badScale(scale: Double) {
        let options = NormalizeOptions(scales: [1, scale])
        guard case .scales? = options.problem else {
            Issue.record("expected a scales problem, got \(String(describing: options.problem))")
            return
        }
        #expect(throws: TabIconsError(.invalidArgument, options.problem!.message)) { try options.validate() }
    }

    @Test(
        "a scale no source within the limits could ever be rendered at is refused",
        arguments: [
            (25.0, 3000.0, false), (25, 1e18, false), (100_000, 2, false), (1e19, 2, false),
            (25, 500, true), (25, 1e18, true)
        ])
    func unrenderableScale(box: Double, scale: Double, allowUpscale: Bool) {
        let options = NormalizeOptions(box: IconBox(points: box)!, scales: [1, scale], allowUpscale: allowUpscale)
        guard case .scales(let message)? = options.problem else {
            Issue.record("expected a scales problem for box \(box) × \(scale)")
            return
        }
        #expect(message.hasPrefix(NumberText.decimal(scale) + "×"))
    }

    @Test("a box so small that decode scales overflow is refused")
    func tinyBox() {
        let options = NormalizeOptions(box: IconBox(points: Double("1e-320")!)!)
        guard case .box(let message)? = options.problem else {
            Issue.record("expected a box problem")
            return
        }
        #expect(message == "a box of 1e-320 points is too small: decode scales would overflow")
    }

    @Test("limits that are not positive are refused")
    func badLimits() {
        guard case .limits? = NormalizeOptions(limits: .init(maxPixels: 0)).problem else {
            Issue.record("expected a limits problem")
            return
        }
    }

    @Test("the normalizer refuses invalid options with invalidArgument before decoding anything")
    func normalizerValidates() {
        // Not an image at all: had it been decoded, the error would be unsupportedFormat.
        #expect(throws: TabIconsError(.invalidArgument, "scale 0.0 is not a positive number")) {
            try Normalizer(options: NormalizeOptions(scales: [0])).normalize(Data("not an image".utf8))
        }
    }

    @Test("the rule's arithmetic never traps, whatever the numbers")
    func noTrap() {
        #expect(IconBox.regular.renditionSize(width: 10, height: 10, scale: 1e300).width == 1_000_000_000_000_000_000)
        #expect(IconBox.regular.renditionSize(width: 10, height: 10, scale: .nan).width == 1)
        #expect(Normalizer(options: NormalizeOptions(scales: [1e18])).longestSideNeeded != nil)
        #expect(Normalizer(options: NormalizeOptions(box: IconBox(points: 1e19)!, scales: [1])).longestSideNeeded == 32_768)
    }

    @Test("a box larger than the source gives the source at its own size, untouched")
    func hugeBox() throws {
        let source = TestImages.decoded(TestImages.random(width: 40, height: 30, seed: 5))
        let icon = try Normalizer(options: NormalizeOptions(box: IconBox(points: 100_000)!, scales: [1])).normalize(source)
        #expect(icon.renditions.map(\.bitmap) == [source.bitmap])
        #expect(icon.decodeScale == 1 && icon.pointWidth == 40 && icon.pointHeight == 30)
    }

    @Test("a rendition past the limits that the options could not foresee fails its icon as tooLarge")
    func renditionPastLimits() {
        // 200×40 is 8,000 px, inside the limit; its square canvas is 40,000.
        let source = TestImages.decoded(TestImages.random(width: 200, height: 40, seed: 6))
        let options = NormalizeOptions(
            box: IconBox(points: 1000)!, scales: [1], shape: .square,
            limits: .init(maxPixels: 10_000))
        #expect(
            throws: TabIconsError(
                .tooLarge, "the 1× rendition would be 200×200 px, past the limit of 32768 px a side or 10000 pixels")
        ) {
            try Normalizer(options: options).normalize(source)
        }
    }
}
