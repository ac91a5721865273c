import Foundation
import Testing
@testable import TabIcons
@testable import TabIconsCore
@testable import TabIconsCodecs
@testable import TabIconsNormalize

/// `--vector` over the corpus: every Bootstrap Icon and every librsvg Adwaita reftest converted
/// both ways and drawn back at 1×, 2×, 3×. What converts must match the PNG renditions within 2%
/// mean difference; at most one in ten may fall back (the bar), each with its feature.
@Suite("Vector conversion over the corpus", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
struct VectorCorpusTests {
    struct Tally {
        var converted = 0, failedToDecode = 0
        var fallbacks: [String: Int] = [:]
        var worst = (difference: 0.0, name: "")
        var fallbackCount: Int { fallbacks.values.reduce(0, +) }
    }

    static func run(_ files: [URL]) throws -> Tally {
        var tally = Tally()
        for file in files {
            let data = try Fixtures.data(file)
            let result: Result<VectorComparison.Outcome, VectorUnsupported>
            do { result = try VectorComparison.compare(data) } catch { tally.failedToDecode += 1; continue }
            switch result {
            case .success(let outcome):
                tally.converted += 1
                #expect(outcome.worst < 0.02, "\(file.lastPathComponent): \(outcome.worst)")
                if outcome.worst > tally.worst.difference { tally.worst = (outcome.worst, file.lastPathComponent) }
            case .failure(let unsupported):
                tally.fallbacks[unsupported.feature.description, default: 0] += 1
            }
        }
        return tally
    }

    static func report(_ label: String, _ tally: Tally) {
        print("vector corpus \(label): \(tally.converted) converted, \(tally.fallbackCount) fell back \(tally.fallbacks.sorted { $0.key < $1.key }), \(tally.failedToDecode) not decoded; worst \(tally.worst.name) \(tally.worst.difference)")
    }

    @Test("Bootstrap Icons: all convert, each within 2%")
    func bootstrap() throws {
        let files = try Fixtures.corpusFiles("svg/bootstrap-icons", extensions: ["svg"])
        #expect(files.count > 1900)
        let tally = try Self.run(files)
        Self.report("bootstrap-icons", tally)
        #expect(tally.fallbackCount * 10 <= files.count)
    }

    @Test("librsvg's Adwaita reftests: at most one in ten falls back, the rest within 2%")
    func adwaita() throws {
        let files = try Fixtures.corpusFiles("svg/librsvg/reftests-adwaita", extensions: ["svg"])
        let tally = try Self.run(files)
        Self.report("reftests-adwaita", tally)
        #expect(tally.fallbackCount * 10 <= files.count)
    }
}
