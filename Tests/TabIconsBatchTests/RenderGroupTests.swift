import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// How a jailed batch hands its inputs to workers in groups (`RenderGroup`, `WorkerOutbox`): the
/// group changes when work is done, never what is done.
@Suite(
    "Groups of inputs in the jail",
    .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
struct RenderGroupTests {
    final class Events: @unchecked Sendable {  // appended to by one batch thread (`jobs: 1`)
        var names: [String] = []
    }

    static func inputs(_ count: Int, changed: Set<Int> = []) throws -> [BatchInput] {
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        let other = try Fixtures.data(Fixtures.testImage("bell.png"))
        return (0..<count).map { index in
            let bytes = changed.contains(index) ? other : png
            return BatchInput(name: "icon-\(index).png", outputStem: "icon-\(index)", load: { bytes })
        }
    }

    @Test("a carried-over icon is reported when decided, not held behind a group still filling")
    func carriedOverNotHeldBehindAGroup() throws {
        let out = try TemporaryDirectory("group-events")
        var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 1)
        batch.jail = BuildStep.faultJail
        _ = try batch.run(Self.inputs(12))
        let events = Events()
        let result = try batch.run(Self.inputs(12, changed: [0])) { event in
            switch event {
            case .done(_, let name, _): events.names.append("done " + name)
            case .reused(_, let name, _): events.names.append("reused " + name)
            case .failed(_, let name, _): events.names.append("failed " + name)
            }
        }
        // icon-0 waits in a group of one until no input is left; the others go by meanwhile.
        #expect(events.names == (1..<12).map { "reused icon-\($0).png" } + ["done icon-0.png"])
        #expect(result.counts.normalized == 1 && result.counts.reused == 11)
    }

    @Test("grouped or one by one, jailed or in process: the same files and manifest", arguments: [1, 2])
    func sameFilesGroupedOrNot(jobs: Int) throws {
        let inputs = try Self.inputs(19, changed: [3, 4, 11])
        var snapshots: [[String: Data]] = []
        for jail in [BuildStep.faultJail, nil] {
            let out = try TemporaryDirectory("group-same")
            var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: jobs)
            batch.jail = jail
            let result = try batch.run(inputs)
            #expect(result.manifest.errors.isEmpty && result.manifest.icons.count == inputs.count)
            snapshots.append(try out.snapshot())  // the manifest without its stat records
        }
        #expect(snapshots[0] == snapshots[1])
    }
}
