import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// `--vector` over the corpus: every Bootstrap Icon and every librsvg Adwaita reftest converted
/// both ways and drawn back at 1×, 2×, 3×. What converts must match the PNG renditions within 2%
/// mean difference; at most one in ten may fall back (the issue's bar), each with its feature.
/// Every file that does not convert (falls back, or does not normalize at all) is counted and
/// named; a run that converts nothing, or compares no drawing, fails.
@Suite("Vector conversion over the corpus", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
struct VectorCorpusTests {
    struct Tally {
        var files = 0, converted = 0
        /// Drawings compared with their PNG rendition, over every converted file.
        var compared = 0
        /// Each file that fell back, with the feature it needs.
        var fallbacks: [(name: String, feature: String)] = []
        /// Each file that did not normalize (so was not converted either), with the error.
        var notDecoded: [(name: String, error: String)] = []
        var worst = (difference: 0.0, name: "")
        var fallbackCount: Int { fallbacks.count }
        /// Every file that did not convert, named.
        var failures: [String] {
            fallbacks.map { "\($0.name) fell back: \($0.feature)" } + notDecoded.map { "\($0.name) not decoded: \($0.error)" }
        }
    }

    static func run(_ files: [URL]) throws -> Tally {
        var tally = Tally()
        tally.files = files.count
        for file in files {
            let data = try Fixtures.data(file)
            let result: Result<VectorComparison.Outcome, VectorUnsupported>
            do {
                result = try VectorComparison.compare(data)
            } catch {
                tally.notDecoded.append((file.lastPathComponent, "\(error)"))
                continue
            }
            switch result {
            case .success(let outcome):
                tally.converted += 1
                tally.compared += outcome.compared
                #expect(outcome.worst < 0.02, "\(file.lastPathComponent): \(outcome.worst)")
                if outcome.worst > tally.worst.difference { tally.worst = (outcome.worst, file.lastPathComponent) }
            case .failure(let unsupported):
                tally.fallbacks.append((file.lastPathComponent, unsupported.feature.description))
            }
        }
        return tally
    }

    static func report(_ label: String, _ tally: Tally) {
        let features = Dictionary(tally.fallbacks.map { ($0.feature, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }
        print(
            "vector corpus \(label): \(tally.converted) converted (\(tally.compared) drawings compared), \(tally.fallbackCount) fell back \(features), \(tally.notDecoded.count) not decoded; worst \(tally.worst.name) \(tally.worst.difference)"
        )
        for failure in tally.failures { print("vector corpus \(label): \(failure)") }
    }

    /// What every corpus run must show: files to run over, some converted and compared, every file
    /// either converted or named among the failures, and at most one in ten of them failing
    /// (`allowed`: 0 for a set that must convert whole).
    static func check(_ label: String, _ tally: Tally, failuresAllowedPerTen allowed: Int = 1) {
        #expect(tally.files > 0, "\(label): no file to convert")
        #expect(tally.converted > 0, "\(label): none of \(tally.files) converted")
        #expect(tally.compared > 0, "\(label): no drawing compared with its PNG rendition")
        #expect(tally.converted + tally.failures.count == tally.files, "\(label): files unaccounted for")
        #expect(
            tally.failures.count * 10 <= tally.files * allowed,
            "\(label): \(tally.failures.count) of \(tally.files) did not convert: \(tally.failures.joined(separator: "; "))")
    }

    @Test("Bootstrap Icons: all convert, each within 2%")
    func bootstrap() throws {
        let files = try Fixtures.corpusFiles("svg/bootstrap-icons", extensions: ["svg"])
        #expect(files.count > 1900)
        let tally = try Self.run(files)
        Self.report("bootstrap-icons", tally)
        Self.check("bootstrap-icons", tally, failuresAllowedPerTen: 0)
    }

    @Test("Bootstrap Icons, every 20th, with trim, circle, padding and the Material box: within 2%")
    func bootstrapShapes() throws {
        let files = try Fixtures.corpusFiles("svg/bootstrap-icons", extensions: ["svg"]).enumerated().filter {
            $0.offset % 20 == 0
        }.map(\.element)
        var worst = (0.0, "")
        var halfPixel = 0, renditions = 0, compared = 0
        for file in files {
            for options in [
                NormalizeOptions(box: .material, scales: [1, 2, 3], shape: .circle, trim: true),
                NormalizeOptions(shape: .square, trim: true, padding: IconPadding(points: 3))
            ] {
                guard case .success(let outcome) = try VectorComparison.compare(try Fixtures.data(file), options: options) else {
                    Issue.record("\(file.lastPathComponent) fell back"); continue
                }
                #expect(
                    outcome.worst < 0.02,
                    "\(file.lastPathComponent) \(options.shape) padding \(options.padding): \(outcome.worst)")
                if outcome.worst > worst.0 { worst = (outcome.worst, file.lastPathComponent) }
                halfPixel += outcome.halfPixelRenditions
                compared += outcome.compared
                renditions += options.scales.count
            }
        }
        print(
            "vector corpus bootstrap-icons with shapes: \(files.count) icons; worst \(worst.1) \(worst.0); \(halfPixel) of \(renditions) renditions centred half a pixel apart, not compared"
        )
        #expect(halfPixel * 2 < renditions)
        #expect(compared > 0, "no drawing compared with its PNG rendition")
    }

    @Test("librsvg's Adwaita reftests: at most one in ten falls back, the rest within 2%")
    func adwaita() throws {
        let files = try Fixtures.corpusFiles("svg/librsvg/reftests-adwaita", extensions: ["svg"])
        let tally = try Self.run(files)
        Self.report("reftests-adwaita", tally)
        Self.check("reftests-adwaita", tally)
    }
}

/// Papirus (a real icon theme with CSS classes and `currentColor`) when the machine has it
/// installed (`/usr/share/icons/Papirus`, Debian's `papirus-icon-theme`): a sample of every
/// 10th icon of three folders, converted both ways and drawn back within 2%.
enum PapirusTheme {
    static let root = "/usr/share/icons/Papirus/24x24"
    static let isInstalled = FileManager.default.fileExists(atPath: root)
}

@Suite(
    "Vector conversion over Papirus",
    .enabled(if: PapirusTheme.isInstalled, "needs /usr/share/icons/Papirus (papirus-icon-theme)"))
struct VectorPapirusTests {
    static let root = PapirusTheme.root

    @Test("a sample of actions, apps and places: at most one in ten falls back, the rest within 2%")
    func sample() throws {
        var files: [URL] = []
        for folder in ["actions", "apps", "places"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/" + folder).filter {
                $0.hasSuffix(".svg")
            }.sorted()
            files += names.enumerated().filter { $0.offset % 10 == 0 }.map {
                URL(fileURLWithPath: Self.root + "/" + folder + "/" + $0.element)
            }
        }
        let tally = try VectorCorpusTests.run(files)
        VectorCorpusTests.report("papirus sample", tally)
        VectorCorpusTests.check("papirus sample", tally)
    }
}
