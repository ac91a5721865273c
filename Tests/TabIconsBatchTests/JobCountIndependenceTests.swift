import Foundation
import Synchronization
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// SPEC §6a "One record": the manifest is the same bytes for any `--jobs`, whatever order the
/// workers finish in, twins before their icon included.
@Suite("The same record for any --jobs")
struct JobCountIndependenceTests {
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
        _ dir: TemporaryDirectory, _ out: TemporaryDirectory, layout: OutputLayout, jobs: Int, check: Bool = false
    ) throws -> BatchResult {
        var batch = BatchNormalizer(normalizer: Normalizer(), layout: layout, outputRoot: out.url, jobs: jobs)
        batch.checkOnly = check
        return try batch.run(BuildStep.batchInputs(dir, names))
    }

    @Test(
        "the manifest file, files and counts are the same for any --jobs, and the manifest's bytes are the result's",
        arguments: [OutputLayout.flat, .xcassets, .android])
    func sameForAnyJobs(layout: OutputLayout) throws {
        let dir = try BuildStep.inputs(zip(Self.names, Self.sources).map { ($0, $1) })
        let first = try TemporaryDirectory("jobs-one")
        let reference = try Self.run(dir, first, layout: layout, jobs: 1)
        #expect(reference.manifest.icons.count == Self.names.count && reference.manifest.errors.isEmpty)
        let text = try Data(contentsOf: first.url.appendingPathComponent("manifest.json"))
        #expect(Array(text) == reference.manifest.jsonBytes)
        for jobs in [2, 3, 8] {
            let out = try TemporaryDirectory("jobs-many")
            let result = try Self.run(dir, out, layout: layout, jobs: jobs)
            #expect(result.counts == reference.counts)
            #expect(result.changes.dropLast() == reference.changes.dropLast())
            // Byte for byte: the manifest holds no stat record of this folder's file system.
            #expect(try Data(contentsOf: out.url.appendingPathComponent("manifest.json")) == text, "jobs \(jobs)")
            #expect(try out.snapshot() == first.snapshot())
            // A rerun carries every entry over; --check finds it up to date.
            let again = try Self.run(dir, out, layout: layout, jobs: jobs)
            #expect(again.counts.reused == Self.names.count && again.changes.isEmpty)
            #expect(try Self.run(dir, out, layout: layout, jobs: jobs, check: true).isUpToDate)
        }
    }
}
