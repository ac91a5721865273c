import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// Files nobody here made, normalized into a box larger than themselves: the 1× rendition is the
/// source's own size, so it must be the decoded pixels, untouched (SPEC §3), and the larger scales
/// are skipped, not upscaled.
@Suite("Normalizing PngSuite in a larger box")
struct NormalizerIdentityTests {
    static let validPngSuite: [String] =
        (try? Fixtures.corpusFiles("pngsuite", extensions: ["png"]))?
        .map(\.lastPathComponent).filter { !$0.hasPrefix("x") } ?? []

    @Test(
        "every valid PngSuite file comes out pixel-identical at 1×, and 2×/3× are skipped",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func identity() throws {
        #expect(Self.validPngSuite.count == 161)
        var checked = 0
        for name in Self.validPngSuite {
            let data = try Fixtures.data(Fixtures.corpus("pngsuite/" + name))
            let decoded = try ImageDecoder.decode(data)
            // A box one point larger than the image's longest side holds it at 1×.
            let box = try #require(IconBox(points: Double(max(decoded.bitmap.width, decoded.bitmap.height) + 1)))
            let icon = try Normalizer(options: NormalizeOptions(box: box)).normalize(data)
            #expect(icon.decodeScale == 1, "\(name)")
            #expect(icon.renditions.count == 1, "\(name)")
            #expect(icon.renditions.first?.scale == 1, "\(name)")
            // Untouched means every byte, the colour under alpha 0 included.
            let expected = decoded.bitmap.pixels
            let got = icon.renditions.first?.bitmap.pixels ?? []
            let differing = zip(got, expected).enumerated().filter { $0.element.0 != $0.element.1 }
            #expect(
                got.count == expected.count && differing.isEmpty,
                "\(name): \(differing.count) bytes differ, first at \(differing.first.map { "\($0.offset): \($0.element)" } ?? "-")"
            )
            #expect(icon.skippedScales == [2, 3], "\(name)")
            checked += 1
        }
        #expect(checked == 161)
    }
}
