import Foundation
import Testing
@testable import TabIcons
@testable import TabIconsBatch

/// The batch's jail against workers that fail on request (`__worker --test-faults`, which only a
/// test's `WorkerJail` starts): every way a worker can fail an input is that input's one error
/// entry, the worker is respawned for the next input, and the batch writes its manifest. Unlike
/// the hostile SVGs of `JailedWorkerTests`, these do not depend on which inputs today's librsvg
/// or screening lets through.
@Suite(
    "Jailed workers failing on request",
    .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
struct WorkerFaultTests {
    /// In a sanitizer build (`WorkerLimits.memoryLimitApplies` false) there is no memory limit to
    /// pass, and the sanitizer's own SIGSEGV handler ends the worker with its exit status instead.
    static let faults: [(IconWorker.TestFault, TabIconsError.Code, String)] =
        [
            (.abort, .unsupported, "the decoder crashed: SIGABRT"),
            (.spin, .tooLarge, "took more than 1 s of CPU"),
            (.garbage, .unsupported, "the worker's answer is unreadable: not a worker message"),
            (.overlong, .unsupported, "the worker's answer is unreadable: bytes past its answer"),
            (.exit, .unsupported, "the decoder ended its worker with status 3")
        ]
        + (WorkerLimits.memoryLimitApplies
            ? [
                (.segv, .unsupported, "the decoder crashed: SIGSEGV"),
                (.allocate, .tooLarge, "needed more than 256 MiB")
            ] : [])

    static var jail: WorkerJail {
        var jail = WorkerJail(executable: TabiconBinary.url!.path)
        jail.workerArguments = [WorkerJail.workerArgument, WorkerJail.testFaultsArgument]
        return jail
    }

    @Test(
        "each fault between good icons: its coded error, the good icons written by respawned workers, the manifest written",
        arguments: [1, 3])
    func faultsBetweenGoodIcons(jobs: Int) throws {
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        var inputs: [BatchInput] = [BatchInput(name: "good-0.png", outputStem: "good-0", load: { png })]
        for (index, (fault, _, _)) in Self.faults.enumerated() {
            let bytes = Data(IconWorker.TestFault.prefix + Array(fault.rawValue.utf8))
            inputs.append(BatchInput(name: "\(fault.rawValue).svg", outputStem: fault.rawValue, load: { bytes }))
            inputs.append(BatchInput(name: "good-\(index + 1).png", outputStem: "good-\(index + 1)", load: { png }))
        }
        let out = try TemporaryDirectory("jail-faults")
        var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: jobs)
        batch.jail = Self.jail
        let result = try batch.run(inputs)
        #expect(result.manifest.icons.map(\.input) == (0...Self.faults.count).map { "good-\($0).png" })
        let errors = result.manifest.errors.map { ($0.input, $0.code, $0.message) }
        #expect(errors.count == Self.faults.count)
        for ((input, code, message), (fault, expectedCode, expectedMessage)) in zip(errors, Self.faults) {
            #expect(
                input == "\(fault.rawValue).svg" && code == expectedCode.rawValue && message == expectedMessage,
                "\(input): \(code): \(message)")
        }
        #expect(FileManager.default.fileExists(atPath: out.path("manifest.json")))
        #expect(result.counts.failed == Self.faults.count)
    }

    /// A JPEG with `padding` bytes of comment segments after its start: the same image, any size.
    static func paddedJPEG(_ jpeg: Data, _ padding: Int) -> Data {
        var out = Data(jpeg.prefix(2))
        var left = padding
        while left > 0 {
            let n = min(left, 65_533)
            out += [0xFF, 0xFE, UInt8((n + 2) >> 8), UInt8((n + 2) & 0xFF)] + Data(repeating: UInt8(ascii: "x"), count: n)
            left -= n
        }
        return out + jpeg.dropFirst(2)
    }

    @Test(
        "inputs of every size, within and past the worker's reused body buffer, in turn through one worker: the in-process bytes")
    func bodiesOfEverySize() throws {
        let jpeg = try Fixtures.data(Fixtures.testImage("avatar-exif6.jpg"))
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        let svg = try Fixtures.data(Fixtures.testImage("house.svg"))
        let reused = WorkerInput.reusedBodyBytes
        let paddings = [reused + (1 << 20), 0, reused - (1 << 20), 3 << 20, reused + 1, 1 << 20, reused]
        var inputs: [BatchInput] = []
        for (index, padding) in paddings.enumerated() {
            let photo = Self.paddedJPEG(jpeg, padding)
            inputs.append(BatchInput(name: "photo-\(index).jpg", outputStem: "photo-\(index)", load: { photo }))
            let small = index.isMultiple(of: 2) ? (png, "png") : (svg, "svg")
            inputs.append(BatchInput(name: "small-\(index).\(small.1)", outputStem: "small-\(index)", load: { small.0 }))
        }
        var snapshots: [[String: Data]] = []
        for jail in [Self.jail, nil] {
            let out = try TemporaryDirectory("jail-bodies")
            var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 1)
            batch.jail = jail
            let result = try batch.run(inputs)
            #expect(result.manifest.errors.isEmpty && result.manifest.icons.count == inputs.count)
            snapshots.append(try out.snapshot())
        }
        #expect(snapshots[0] == snapshots[1])
    }

    @Test("without --test-faults the same bytes are just an input that is no image")
    func faultsNeedTheTestArgument() throws {
        let bytes = Data(IconWorker.TestFault.prefix + Array("abort".utf8))
        let out = try TemporaryDirectory("jail-no-faults")
        var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 1)
        batch.jail = WorkerJail(executable: TabiconBinary.url!.path)
        let result = try batch.run([BatchInput(name: "abort.svg", outputStem: "abort", load: { bytes })])
        #expect(result.manifest.errors.map(\.code) == ["unsupportedFormat"])
    }
}
