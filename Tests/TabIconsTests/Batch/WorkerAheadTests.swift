import Foundation
import Testing
@testable import TabIcons
@testable import TabIconsBatch

#if canImport(Glibc)
    import Glibc
#endif

/// A worker started before the batch has an input for it (`WorkerPool.startAhead`): it loads
/// librsvg before its first request when asked (`--load-ahead=svg`), answers exactly as a worker
/// started on demand, is killed and reaped when never asked, and a worker that cannot start ahead
/// leaves each input the error it would have had anyway.
@Suite(
    "Workers started ahead",
    .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
struct WorkerAheadTests {
    static var jail: WorkerJail { WorkerJail(executable: TabiconBinary.url!.path) }

    /// Whether the process maps librsvg: its `/proc/PID/maps` read to the end (Foundation's
    /// `String(contentsOfFile:)` stops after the first short read, 4 KiB of a 30 KiB file).
    static func mapsLibrsvg(_ pid: pid_t) -> Bool {
        let fd = open("/proc/\(pid)/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            text += chunk[..<n]
        }
        return String(decoding: text, as: UTF8.self).contains("librsvg")
    }

    /// Waits up to 10 s for `condition`.
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    static func request(_ data: Data, _ name: String) -> WorkerRequest {
        let job = WorkerFaultTests.job(data, name)
        return WorkerRequest.render(
            input: name, plan: job.plan, options: Normalizer().options, format: .png, contentHash: job.contentHash, data: data)
    }

    @Test("the formats a name's extension suggests, any case; a name without one suggests none")
    func suggestedFormats() {
        #expect(ImageDecoder.format(suggestedByExtension: "svg") == .svg)
        #expect(ImageDecoder.format(suggestedByExtension: "SVGZ") == .svg)
        #expect(ImageDecoder.format(suggestedByExtension: "Png") == .png)
        #expect(ImageDecoder.format(suggestedByExtension: "jpeg") == .jpeg)
        #expect(ImageDecoder.format(suggestedByExtension: "webp") == .webp)
        #expect(ImageDecoder.format(suggestedByExtension: "txt") == nil)
        #expect(ImageDecoder.format(suggestedByExtension: "") == nil)
        let custom = { (name: String) in BatchInput(name: name, outputStem: "x", load: { Data() }).suggestedFormat }
        #expect(custom("icons/home.SVG") == .svg)
        #expect(custom("icons.svg/home") == nil)
        #expect(custom("home") == nil)
    }

    @Test("a walked file suggests its extension as found")
    func walkedSuggestion() throws {
        let dir = try TemporaryDirectory("ahead-walk")
        try FileManager.default.createDirectory(atPath: dir.path("icons"), withIntermediateDirectories: true)
        try Fixtures.data(Fixtures.testImage("house.svg")).write(to: URL(fileURLWithPath: dir.path("icons/house.SVG")))
        try Fixtures.data(Fixtures.testImage("home.png")).write(to: URL(fileURLWithPath: dir.path("icons/home.png")))
        let collected = InputCollector.collect([dir.path("icons")])
        #expect(collected.batchInputs(limit: 1 << 20).map(\.suggestedFormat) == [.png, .svg])
    }

    @Test("the load-ahead argument names its formats and is read back; unknown names and other arguments are ignored")
    func loadAheadArgument() {
        let argument = WorkerJail.loadAheadArgument([.svg, .png])
        #expect(argument == "--load-ahead=svg,png")
        #expect(WorkerJail.loadAhead(in: [WorkerJail.workerArgument, argument]) == [.svg, .png])
        #expect(WorkerJail.loadAhead(in: ["--load-ahead=gif,svg", "--test-faults", "svg"]) == [.svg])
        #expect(WorkerJail.loadAhead(in: [WorkerJail.workerArgument]) == [])
    }

    @Test(
        "with --load-ahead=svg the worker maps librsvg before any request; without it, not even after a PNG",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "reads /proc"))
    func loadsBeforeTheFirstRequest() throws {
        let ahead = try WorkerProcess.spawn(
            executable: Self.jail.executable, arguments: Self.jail.workerArguments + [WorkerJail.loadAheadArgument([.svg])])
        defer { ahead.kill() }
        #expect(Self.eventually { Self.mapsLibrsvg(ahead.pid) })

        let plain = try WorkerProcess.spawn(executable: Self.jail.executable, arguments: Self.jail.workerArguments)
        defer { plain.kill() }
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        guard case .replies(let replies) = plain.exchange([Self.request(png, "home")], shouldStop: { 0 }) else {
            Issue.record("the worker did not answer")
            return
        }
        #expect(replies.count == 1)
        #expect(!Self.mapsLibrsvg(plain.pid))
    }

    @Test("a worker that loaded librsvg ahead answers an SVG and a PNG byte for byte as a worker started on demand")
    func answersAsOnDemand() throws {
        let svg = try Fixtures.data(Fixtures.testImage("house.svg"))
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        let requests = [Self.request(svg, "house"), Self.request(png, "home")]
        var answers: [[[UInt8]]] = []
        for arguments in [Self.jail.workerArguments + [WorkerJail.loadAheadArgument([.svg])], Self.jail.workerArguments] {
            let worker = try WorkerProcess.spawn(executable: Self.jail.executable, arguments: arguments)
            defer { worker.finish() }
            guard case .replies(let replies) = worker.exchange(requests, shouldStop: { 0 }) else {
                Issue.record("the worker did not answer")
                return
            }
            #expect(replies.map(\.kind) == [WorkerReply.renderedKind, WorkerReply.renderedKind])
            answers.append(replies.map(\.fields))
        }
        #expect(answers[0] == answers[1])
    }

    @Test("the pool kills and reaps a worker started ahead that no input asked for; one that served is finished")
    func unaskedWorkerKilled() throws {
        let pool = WorkerPool(jail: Self.jail)
        pool.startAhead(loading: [.svg])
        pool.startAhead(loading: [.svg])  // one idle already: no second
        let started = pool.idlePIDs
        #expect(started.count == 1)
        pool.finish()
        #expect(pool.idlePIDs.isEmpty)
        for pid in started {
            // Reaped: neither running nor left a zombie.
            #expect(Glibc.kill(pid, 0) == -1 && errno == ESRCH)
        }

        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        pool.startAhead(loading: [])
        let served = pool.idlePIDs
        let results = pool.run([Self.request(png, "home")], shouldStop: { 0 }) { _, kind, _ in kind }
        #expect(results?.count == 1)
        #expect(pool.idlePIDs == served)  // the worker started ahead took the input
        pool.finish()
        for pid in served { #expect(Glibc.kill(pid, 0) == -1 && errno == ESRCH) }
    }

    @Test("a batch stopped before its first input, or refused by its plan, leaves no worker started ahead alive")
    func noWorkerOutlivesAnEarlyEnd() throws {
        let svg = try Fixtures.data(Fixtures.testImage("house.svg"))
        let inputs = ["a", "b"].map { name in BatchInput(name: "\(name).svg", outputStem: name, load: { svg }) }
        for (scales, stop) in [([1.0, 2, 3], SIGINT), ([1, 2.01998, 2.02002], 0)] {
            let dir = try TemporaryDirectory("ahead-early")
            // A link of its own, so this batch's workers are told from any other test's.
            let link = dir.path("tabicon-worker")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: TabiconBinary.url!.path)
            var batch = BatchNormalizer(
                normalizer: Normalizer(options: NormalizeOptions(scales: scales)),
                outputRoot: dir.url.appendingPathComponent("out"), jobs: 2)
            batch.jail = WorkerJail(executable: link)
            batch.shouldStop = { stop }
            if stop == 0 {
                #expect(throws: BatchUsageError.self) { try batch.run(inputs) }
            } else {
                let result = try batch.run(inputs)
                #expect(result.stoppedBy == stop)
                #expect(result.manifest.icons.isEmpty && result.manifest.errors.isEmpty)
            }
            #expect(
                JailedWorkerTests.children(of: getpid()).filter { JailedWorkerTests.isWorker($0, link: link) }.isEmpty,
                "a worker outlived the batch")
            #expect(!FileManager.default.fileExists(atPath: dir.path("out/manifest.json")))
        }
    }

    @Test("a worker that cannot start ahead is not an error of its own: each input has the io error of its spawn")
    func unstartableWorker() throws {
        let svg = try Fixtures.data(Fixtures.testImage("house.svg"))
        let out = try TemporaryDirectory("ahead-missing")
        var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 2)
        batch.jail = WorkerJail(executable: out.path("no-such-tabicon"))
        let inputs = ["a", "b"].map { name in BatchInput(name: "\(name).svg", outputStem: name, load: { svg }) }
        let result = try batch.run(inputs)
        #expect(result.manifest.icons.isEmpty)
        #expect(result.manifest.errors.map(\.input) == ["a.svg", "b.svg"])
        for error in result.manifest.errors {
            #expect(error.code == TabIconsError.Code.io.rawValue)
            #expect(error.message.hasPrefix("cannot start a worker (\(out.path("no-such-tabicon"))): "), "\(error.message)")
        }
    }
}
