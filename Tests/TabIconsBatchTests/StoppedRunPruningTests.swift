import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// Issue 38's first defect: a run stopped after committing files, then a run with another layout.
/// What the stopped run committed is in its journal only (its manifest was never written); the
/// next run must prune it, not just consume the journal.
@Suite("A stopped run's files, pruned by the next run")
struct StoppedRunPruningTests {
    @Test("stopped by SIGTERM after committing icons, then a run with another layout: none of the stopped run's files is left")
    func journalPrunedAcrossLayouts() throws {
        let names = ["bell.png", "heart.png", "home.png", "search.png"]
        let dir = try BuildStep.inputs(names.map { ($0, $0) })
        let out = try TemporaryDirectory("stopped-out")
        let done = LockedState(0)
        var stopped = BatchNormalizer(normalizer: Normalizer(), layout: .flat, outputRoot: out.url, jobs: 1)
        stopped.shouldStop = { done.withLock { $0 } >= 2 ? SIGTERM : 0 }
        let first = try stopped.run(BuildStep.batchInputs(dir, names)) { event in
            if case .done = event { done.withLock { $0 += 1 } }
        }
        #expect(first.stoppedBy == SIGTERM)
        let committed = out.files().filter { $0.hasSuffix(".png") }
        #expect(committed.count == 6, "two icons' three renditions committed before the stop")
        #expect(!FileManager.default.fileExists(atPath: out.path("manifest.json")))
        #expect(FileManager.default.fileExists(atPath: out.path("manifest.json.journal")))

        let next = BatchNormalizer(normalizer: Normalizer(), layout: .xcassets, outputRoot: out.url, jobs: 2)
        let result = try next.run(BuildStep.batchInputs(dir, names))
        #expect(result.counts.normalized == names.count && result.counts.removed == committed.count)
        let left = Set(out.files())
        #expect(left.isDisjoint(with: committed), "left \(left.intersection(committed).sorted())")
        #expect(!left.contains("manifest.json.journal"))
        #expect(left.filter { $0.hasSuffix(".png") }.allSatisfy { $0.contains(".imageset/") })
        // --check then agrees that the folder is what a run writes.
        var check = next
        check.checkOnly = true
        #expect(try check.run(BuildStep.batchInputs(dir, names)).isUpToDate)
    }
}
