import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// The converted vectors drawn by resvg, a renderer independent of librsvg (which drew the PNG
/// renditions): the SVG as written, and the VectorDrawable read back as SVG by the test's own
/// reader, each at 1×, 2×, 3× against tabicon's PNG rendition, within 2% mean difference.
@Suite(
    "Vector conversion drawn by resvg",
    .enabled(if: Fixtures.hasCorpus && ResvgRenderer.isAvailable, "needs ../shared/corpus and python3 with resvg-py"))
struct VectorResvgTests {
    static func check(_ files: [URL], label: String) throws {
        var jobs: [(svg: [UInt8], width: Int, height: Int)] = []
        var expected: [(Bitmap, String)] = []
        var fellBack = 0, offAspect = 0
        for file in files {
            let data = try Fixtures.data(file)
            let normalizer = Normalizer()
            let icon = try normalizer.normalize(data)
            guard case .success(let svg)? = try normalizer.vectorFile(data, icon: icon, target: .svg),
                case .success(let drawable)? = try normalizer.vectorFile(data, icon: icon, target: .vectorDrawable)
            else { fellBack += 1; continue }
            let readBack = Array(try VectorDrawableReader.svg(drawable).utf8)
            for rendition in icon.renditions {
                // A rendition is whole pixels: where rounding moved its aspect off the document's
                // (16.53 × 16 drawn 25 × 24), librsvg stretched the drawing into them and resvg
                // fits it; that is no conversion's difference, and it is left out (counted).
                let aspect = Double(rendition.bitmap.width) / Double(rendition.bitmap.height)
                guard abs(aspect / (icon.pointWidth / icon.pointHeight) - 1) < 0.002 else { offAspect += 1; continue }
                for written in [svg, readBack] {
                    jobs.append((written, rendition.bitmap.width, rendition.bitmap.height))
                    expected.append((rendition.bitmap, file.lastPathComponent))
                }
            }
        }
        let drawn = try ResvgRenderer.render(jobs)
        var worst = (0.0, "")
        var total = 0.0
        for (bitmap, (png, name)) in zip(drawn, expected) {
            let difference = VectorComparison.meanDifference(bitmap, png, intent: .auto)
            #expect(difference < 0.02, "\(name): \(difference)")
            total += difference
            if difference > worst.0 { worst = (difference, name) }
        }
        print(
            "vector resvg \(label): \(files.count - fellBack) icons, \(drawn.count) drawings; mean \(total / Double(max(1, drawn.count))), worst \(worst.1) \(worst.0); \(offAspect) renditions off the document's aspect left out"
        )
        #expect(fellBack * 10 <= files.count)
    }

    @Test("every 4th Bootstrap Icon")
    func bootstrap() throws {
        let files = try Fixtures.corpusFiles("svg/bootstrap-icons", extensions: ["svg"]).enumerated().filter {
            $0.offset % 4 == 0
        }.map(\.element)
        try Self.check(files, label: "bootstrap-icons")
    }

    @Test("every Adwaita reftest")
    func adwaita() throws {
        try Self.check(try Fixtures.corpusFiles("svg/librsvg/reftests-adwaita", extensions: ["svg"]), label: "reftests-adwaita")
    }
}
