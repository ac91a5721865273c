import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// librsvg's own reference renderings: the Adwaita symbolic icons of its test suite, each with the
/// `-ref.png` librsvg's reftests compare against (16×16 but for two drawings that are 14 and 17 px
/// wide). Rendered through TabIcons at their intrinsic size (screening,
/// parse, render, cairo's premultiplied ARGB to straight RGBA), every one must come within 3/255
/// of its reference, compared premultiplied as librsvg's tests compare.
@Suite("SVG: librsvg's Adwaita reference renderings", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
struct SVGReftestTests {
    @Test("every reftest renders at its reference's size within 3/255 of it; the count of exact ones is reported")
    func adwaitaReftests() throws {
        let folder = "svg/librsvg/reftests-adwaita"
        let svgs = try Fixtures.corpusFiles(folder, extensions: ["svg"])
        #expect(svgs.count == 488)
        var exact = 0, worst = 0
        for svg in svgs {
            let reference = svg.deletingPathExtension().path + "-ref.png"
            let expected = try ImageDecoder.decode(Fixtures.data(URL(fileURLWithPath: reference)))
            let image = try ImageDecoder.decode(Fixtures.data(svg))
            #expect(image.info.format == .svg && image.info.isVector)
            let size = "\(image.bitmap.width)×\(image.bitmap.height)"
            #expect(size == "\(expected.bitmap.width)×\(expected.bitmap.height)", "\(svg.lastPathComponent)")
            guard image.bitmap.width == expected.bitmap.width, image.bitmap.height == expected.bitmap.height else { continue }
            let difference = SVGTestSupport.maxDifference(
                SVGTestSupport.premultiplied(image.bitmap),
                SVGTestSupport.premultiplied(expected.bitmap))
            #expect(difference <= 3, "\(svg.lastPathComponent): differs by \(difference)/255")
            worst = max(worst, difference)
            if difference == 0 { exact += 1 }
        }
        print("SVG reftests: \(exact) of \(svgs.count) exact, the rest within \(worst)/255 (premultiplied)")
    }
}
