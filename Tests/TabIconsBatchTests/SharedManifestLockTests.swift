import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// Issue 38's second defect: two runs into different `--out` folders sharing one `--manifest`
/// each replaced the other's record (the second's cleanup removed the first's manifest
/// temporary). The manifest's folder is locked too: such runs are taken in turn.
@Suite("Runs sharing a manifest")
struct SharedManifestLockTests {
    @Test("a run whose manifest's folder another run holds waits for it, then writes its record")
    func waitsForTheManifestFolder() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let build = try TemporaryDirectory("shared-manifest")
        let held = open(build.url.path, O_RDONLY | O_DIRECTORY)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        let finished = LockedState<Bool?>(nil)
        let batch = BatchNormalizer(
            normalizer: Normalizer(), outputRoot: build.url.appendingPathComponent("out-a"),
            manifestURL: build.url.appendingPathComponent("m.json"), jobs: 1)
        let inputs = BuildStep.batchInputs(dir, ["home.png"])
        let thread = Thread {
            let result = try? batch.run(inputs)
            finished.withLock { $0 = result?.manifestError == nil && result?.counts.normalized == 1 }
        }
        thread.start()
        usleep(400_000)
        #expect(finished.withLock { $0 } == nil, "the run went on while another held the manifest's folder")
        #expect(!FileManager.default.fileExists(atPath: build.path("m.json")))
        close(held)
        for _ in 0..<300 where finished.withLock({ $0 }) == nil { usleep(20_000) }
        #expect(finished.withLock { $0 } == true)
        #expect(try BuildStep.manifest(build.path("m.json")).icons.map(\.name) == ["home"])
    }

    @Test("two runs into other folders with one manifest, side by side: both finish, the record is the last one's, whole")
    func sideBySide() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png")])
        let build = try TemporaryDirectory("shared-manifest")
        let results = LockedState<[BatchResult]>([])
        let batches = (0..<2).map { index in
            BatchNormalizer(
                normalizer: Normalizer(), outputRoot: build.url.appendingPathComponent("out-\(index)"),
                manifestURL: build.url.appendingPathComponent("m.json"), jobs: 1)
        }
        let inputs = [BuildStep.batchInputs(dir, ["home.png"]), BuildStep.batchInputs(dir, ["bell.png"])]
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if let result = try? batches[index].run(inputs[index]) {
                results.withLock { $0.append(result) }
            }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 2 && all.allSatisfy { $0.manifestError == nil && $0.manifest.errors.isEmpty })
        let manifest = try BuildStep.manifest(build.path("m.json"))
        #expect(manifest.icons.count == 1)
        #expect(BuildStep.temporaries(build).isEmpty)
    }
}
