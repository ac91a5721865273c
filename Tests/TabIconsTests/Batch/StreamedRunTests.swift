import Foundation
import Synchronization
import Testing
@testable import TabIcons
@testable import TabIconsBatch

/// A run whose rows go into the manifest as they finish (`RunRecord`, `ManifestOutput`) and whose
/// previous manifest stays in its file (`ManifestEntries`): the same files, manifest and counts
/// as a run that holds every entry, for any `--jobs` and any window, twins before their icon.
@Suite("Streamed run")
struct StreamedRunTests {
    typealias B = BuildStep

    /// Twins that sort before their icon (`home-dark.png` < `home.png`: '-' before '.'), a
    /// selected one, icons after: every unit's rows wait for another's.
    static let names = [
        "a.png", "home-dark.png", "home-selected.png", "home.png", "m.png", "search-selected.png", "search.png", "z.png"
    ]
    static let sources = [
        "bell.png", "heart.png", "home-filled.png", "home.png", "profile.png", "search-filled.png",
        "search.png", "profile-filled.png"
    ]

    static func run(
        _ dir: TemporaryDirectory, _ out: TemporaryDirectory, layout: OutputLayout, jobs: Int, window: Int,
        holds: Bool, check: Bool = false
    ) throws -> BatchResult {
        var batch = BatchNormalizer(normalizer: Normalizer(), layout: layout, outputRoot: out.url, jobs: jobs)
        batch.resultHoldsIcons = holds
        batch.resultHoldsChanges = holds
        batch.unitWindow = window
        batch.checkOnly = check
        return try batch.run(B.batchInputs(dir, names))
    }

    @Test(
        "rows streamed in input order: the manifest file, files and counts are those of a run holding every entry, for any --jobs and window",
        arguments: [OutputLayout.flat, .xcassets, .android])
    func sameAsHeld(layout: OutputLayout) throws {
        let dir = try B.inputs(zip(Self.names, Self.sources).map { ($0, $1) })
        let held = try TemporaryDirectory("streamed-held")
        let reference = try Self.run(dir, held, layout: layout, jobs: 1, window: 1024, holds: true)
        #expect(reference.manifest.icons.count == Self.names.count && reference.manifest.errors.isEmpty)
        let text = try Data(contentsOf: held.url.appendingPathComponent("manifest.json"))
        // The file is the held manifest's text, byte for byte.
        #expect(Array(text) == reference.manifest.jsonBytes)
        for (jobs, window) in [(1, 1), (2, 1), (3, 2), (4, 1024)] {
            let out = try TemporaryDirectory("streamed-out")
            let result = try Self.run(dir, out, layout: layout, jobs: jobs, window: window, holds: false)
            #expect(result.manifest.icons.isEmpty && result.changes.isEmpty)
            #expect(result.counts == reference.counts)
            #expect(result.changesNotHeld == reference.changes.count && !result.isUpToDate)
            // The same document but for the stat records (another folder's inodes and times).
            let written = try B.manifest(out.url.appendingPathComponent("manifest.json").path)
            #expect(written.withoutStats == reference.manifest.withoutStats, "jobs \(jobs) window \(window)")
            #expect(B.allEntries(out.url.path) == B.allEntries(held.url.path))
            // A rerun reads its entries back from the file and carries every one over.
            let again = try Self.run(dir, out, layout: layout, jobs: jobs, window: window, holds: false)
            #expect(again.counts.reused == Self.names.count && again.changes.isEmpty)
            #expect(try Self.run(dir, out, layout: layout, jobs: jobs, window: window, holds: true, check: true).isUpToDate)
        }
    }

    @Test("a slow unit first: no worker runs more than the window past it, so the rows waiting for it stay few")
    func windowBoundsWaitingRows() throws {
        let many = (0..<40).map { "n\(String(format: "%02d", $0)).png" }
        let dir = try B.inputs(many.map { ($0, "bell.png") })
        // Without the window the other worker finishes nearly all 39 before the first (seen when
        // this suite runs alone); under a loaded test run the workers may run one after the
        // other, so only the bound is asserted.
        for (window, most) in [(4, 4 + 2)] {
            let out = try TemporaryDirectory("streamed-window")
            var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 2)
            batch.unitWindow = window
            batch.resultHoldsIcons = false
            batch.resultHoldsChanges = false
            var inputs = B.batchInputs(dir, many)
            let first = inputs[0]
            inputs[0] = BatchInput(
                name: first.name, outputStem: first.outputStem,
                load: { () throws(TabIconsError) -> Data in
                    usleep(400_000)
                    return try first.load()
                }, sourcePath: first.sourcePath)
            let order = LockedState<[Int]>([])
            let result = try batch.run(inputs) { event in
                if case .done(let index, _, _) = event { order.withLock { $0.append(index) } }
            }
            #expect(result.counts.normalized == many.count)
            let finished = order.withLock { $0 }
            let before = try #require(finished.firstIndex(of: 0))
            // Only units within the window of the first one finish before it.
            #expect(before <= most, "\(before) units finished before the first with a window of \(window)")
        }
    }

    @Test(
        "UnitWindow hands out each unit once, in order, and is full exactly when the next unit is past the first unfinished one's window"
    )
    func window() {
        let window = UnitWindow(count: 6, width: 2)
        #expect(window.take() == 0 && window.take() == 1)
        #expect(window.isFull)
        window.finish(1)
        #expect(window.isFull)  // unit 0 still runs
        window.finish(0)
        #expect(!window.isFull)
        #expect(window.take() == 2 && window.take() == 3 && window.isFull)
        window.waitForRoom { true }  // returns when told to stop
        window.finish(3)
        window.finish(2)
        #expect(window.take() == 4 && window.take() == 5)
        #expect(window.take() == nil && !window.isFull)
        // Twins head no unit: never handed out, never waited for.
        let twins = UnitWindow(count: 7, skipped: [true, false, true, true, false, false, false], width: 2)
        #expect(twins.take() == 1 && twins.isFull == false)
        #expect(twins.take() == 4)
        #expect(twins.isFull)  // 5 is 2 past 1, the first unfinished
        twins.finish(1)
        #expect(!twins.isFull)
        #expect(twins.take() == 5 && twins.take() == 6 && twins.take() == nil)
    }
}
