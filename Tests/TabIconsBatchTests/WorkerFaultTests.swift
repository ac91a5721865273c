import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport
import TabIconsBatchTestSupport

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
        batch.jail = BuildStep.faultJail
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

    /// One input of `IconEngine.make`'s group, rendered as PNGs at the default scales.
    static func job(_ data: Data, _ name: String) -> IconEngine.Job {
        IconEngine.Job(data: data, normalizer: Normalizer(), work: .render(.png, vector: nil))
    }

    @Test(
        "a group sent to one worker with a fault at any place in it: that input's own error, every other input the in-process icon",
        arguments: [IconWorker.TestFault.abort, .overlong, .garbage, .exit])
    func faultAnywhereInAGroup(fault: IconWorker.TestFault) throws {
        let expected = try #require(Self.faults.first { $0.0 == fault })
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        let svg = try Fixtures.data(Fixtures.testImage("house.svg"))
        let good = (0..<5).map { Self.job($0.isMultiple(of: 2) ? png : svg, "good-\($0)") }
        let inProcess = try #require(IconEngine(jail: nil).make(good, shouldStop: { 0 })).map { try $0.get() }
        let engine = IconEngine(jail: BuildStep.faultJail)
        defer { engine.finish() }
        for place in 0...good.count {
            var group = good
            group.insert(Self.job(Data(IconWorker.TestFault.prefix + Array(fault.rawValue.utf8)), "fault"), at: place)
            let results = try #require(engine.make(group, shouldStop: { 0 }))
            #expect(results.count == group.count)
            for (position, result) in results.enumerated() {
                switch result {
                case .failure(let error) where position == place:
                    #expect(error.code == expected.1 && error.message == expected.2, "\(fault) at \(place): \(error)")
                case .success(let icon) where position != place:
                    let other = inProcess[position < place ? position : position - 1]
                    #expect(icon == other, "\(fault) at \(place): input \(position)")
                default:
                    Issue.record("\(fault) at \(place): input \(position) came back \(result)")
                }
            }
        }
    }

    @Test(
        "a descriptor the batch left open without close-on-exec does not reach the worker's first input",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "reads /proc"))
    func inheritedDescriptorsClosed() throws {
        let dir = try TemporaryDirectory("jail-fd")
        let secret = dir.path("secret.txt")
        try Data("not for the worker".utf8).write(to: URL(fileURLWithPath: secret))
        let leaked = open(secret, O_RDONLY)  // deliberately without O_CLOEXEC
        try #require(leaked >= 0)
        defer { close(leaked) }
        let worker = try WorkerProcess.spawn(
            executable: BuildStep.faultJail.executable, arguments: BuildStep.faultJail.workerArguments)
        defer { worker.kill() }
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        let request = WorkerRequest(options: Normalizer().options, work: .render(.png, vector: nil), data: png)
        guard case .replies(let replies) = worker.exchange([request], shouldStop: { 0 }) else {
            Issue.record("the worker did not answer")
            return
        }
        #expect(replies.count == 1)
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(worker.pid)/fd")
        let targets = try fds.map { try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(worker.pid)/fd/\($0)") }
        #expect(!targets.contains(secret), "\(targets)")
        #expect(targets.allSatisfy { $0.hasPrefix("socket:") }, "\(targets)")
    }

    @Test("an input spinning between rasters of its group passes the SVG's bound, alone: the rasters rendered")
    func spinInAGroupOfRasters() throws {
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        let spin = Self.job(Data(IconWorker.TestFault.prefix + Array(IconWorker.TestFault.spin.rawValue.utf8)), "spin")
        let group = [Self.job(png, "a"), Self.job(png, "b"), spin, Self.job(png, "c")]
        let engine = IconEngine(jail: BuildStep.faultJail)
        defer { engine.finish() }
        let results = try #require(engine.make(group, shouldStop: { 0 }))
        #expect(results.count == 4)
        for (position, result) in results.enumerated() {
            switch result {
            case .failure(let error):
                #expect(position == 2 && error.code == .tooLarge && error.message == WorkerLimits.svgCPUText, "\(error)")
            case .success(let icon):
                #expect(position != 2 && icon.renditions.count == 3)
            }
        }
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
        for jail in [BuildStep.faultJail, nil] {
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
