import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// The built `tabicon` against inputs that would crash librsvg, pass 256 MiB or a second of CPU
/// (SPEC §2: "A crash or a bomb costs one input, never the batch"): each is its own coded error
/// entry, the good icons and the manifest are written, stops end an input in flight, and the
/// bytes are those of the in-process batch for any `--jobs`. The hostile SVGs here are refused by
/// screening before any worker draws them (their exact reasons below); what the jail itself
/// catches, whatever screening lets through, is `WorkerFaultTests`' and the stop tests' here,
/// which use workers that fail on request.
@Suite("Jailed workers", .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
struct JailedWorkerTests {
    /// librsvg 2.54 panics (SIGABRT) on a convolution kernel larger than the drawing.
    static func convolution(order: Int) -> String {
        let kernel = Array(repeating: "1", count: order * order).joined(separator: " ")
        return #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><filter id="f">"#
            + #"<feConvolveMatrix order="\#(order)" kernelMatrix="\#(kernel)"/></filter>"#
            + #"<rect width="24" height="24" fill="red" filter="url(#f)"/></svg>"#
    }

    /// A lighting filter whose kernel unit makes librsvg allocate per unit: a tiny one needs
    /// gigabytes; 0.01 needs little memory but seconds of CPU over android's five densities.
    static func lighting(kernelUnit: String, color: String = "red") -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="24" height="24">"#
            + #"<feDiffuseLighting kernelUnitLength="\#(kernelUnit)"><feDistantLight azimuth="45" elevation="45"/></feDiffuseLighting></filter>"#
            + #"<rect width="24" height="24" fill="\#(color)" filter="url(#f)"/></svg>"#
    }

    /// Good icons (rasters and vectors) and the three hostile SVGs in one folder.
    static func hostileFolder(slow: Bool = true) throws -> TemporaryDirectory {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png"), ("star.svg", "star.svg")])
        var hostile = ["crash.svg": convolution(order: 30)]
        // A sanitizer build runs its workers without RLIMIT_DATA (`WorkerLimits.memoryLimitApplies`):
        // there the bomb would really take gigabytes.
        if WorkerLimits.memoryLimitApplies { hostile["bomb.svg"] = lighting(kernelUnit: "0.001") }
        if slow { hostile["slow.svg"] = lighting(kernelUnit: "0.01", color: "blue") }
        for (name, text) in hostile { try Data(text.utf8).write(to: dir.url.appendingPathComponent("icons/" + name)) }
        return dir
    }

    static let expectedErrors: [String: (TabIconsError.Code, String)] = [
        "crash.svg": (
            .unsupported, "feConvolveMatrix order 30×30 has 900 kernel cells, past the 400 librsvg 2.54 handles (it aborts)"
        ),
        "bomb.svg": (
            .tooLarge,
            "filter bomb: a kernelUnitLength of 0.001 would rescale the 96×96 px filter surface to 576000000 px, past 4194304"
        ),
        "slow.svg": (
            .tooLarge,
            "filter bomb: a kernelUnitLength of 0.01 would rescale the 96×96 px filter surface to 5760000 px, past 4194304"
        )
    ]

    /// Runs the built binary; its exit status, or nil when a signal ended it.
    @discardableResult
    static func tabicon(_ arguments: [String], whileRunning: ((Process) -> Void)? = nil) throws -> Process {
        let process = Process()
        process.executableURL = TabiconBinary.url
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        whileRunning?(process)
        process.waitUntilExit()
        return process
    }

    /// The pids whose parent is `pid` (its workers).
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid
        }
    }

    static func errors(_ manifest: Manifest) -> [String: (TabIconsError.Code, String)] {
        Dictionary(
            uniqueKeysWithValues: manifest.errors.map {
                (($0.input as NSString).lastPathComponent, (TabIconsError.Code(rawValue: $0.code)!, $0.message))
            })
    }

    @Test(
        "a crash, a memory bomb and a slow drawing beside good icons: exit 1, three coded errors, the good icons and the manifest written"
    )
    func hostileBesideGoodIcons() throws {
        let dir = try Self.hostileFolder()
        let out = try TemporaryDirectory("jail-out")
        let process = try Self.tabicon([
            "normalize", "-q", "--layout", "android", "--jobs", "2", dir.path("icons"), "-o", out.url.path,
            "--manifest", out.path("manifest.json")
        ])
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        let manifest = try BuildStep.manifest(out.path("manifest.json"))
        #expect(manifest.icons.map(\.name).sorted() == ["bell", "home", "star"])
        let errors = Self.errors(manifest)
        let expected = Self.expectedErrors.filter { WorkerLimits.memoryLimitApplies || $0.key != "bomb.svg" }
        #expect(errors.keys.sorted() == expected.keys.sorted())
        for (name, (code, message)) in expected {
            #expect(errors[name]?.0 == code && errors[name]?.1 == message, "\(name): \(String(describing: errors[name]))")
        }
        for file in manifest.icons.flatMap(\.ownedFiles) {
            #expect(FileManager.default.fileExists(atPath: out.path(file.path)), "\(file.path)")
        }
        #expect(BuildStep.temporaries(out).isEmpty)
    }

    @Test("a PNG whose decode needs more than 256 MiB beside a good icon: tooLarge, the good icon written")
    func rasterPastTheMemoryLimit() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        // Legal and 65 KB, 324 MB as RGBA: `--trim` needs it whole, which the decoder refuses.
        try PNGTestWriter.black9000.write(to: dir.url.appendingPathComponent("icons/huge.png"))
        let out = try TemporaryDirectory("jail-raster")
        let process = try Self.tabicon(["normalize", "-q", "--trim", dir.path("icons"), "-o", out.url.path])
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        let manifest = try BuildStep.manifest(out.path("manifest.json"))
        #expect(manifest.icons.map(\.name) == ["home"])
        #expect(manifest.errors.map(\.code) == ["tooLarge"], "\(manifest.errors)")
        #expect(manifest.errors.first?.message.contains("needs more than 256 MiB") == true)
    }

    @Test("inspect and preview go through the same jail: the crash and the bomb are error entries, the good icons described")
    func inspectAndPreview() throws {
        let dir = try Self.hostileFolder(slow: false)
        let inspect = try Self.tabicon(["inspect", dir.path("icons")])
        #expect(inspect.terminationReason == .exit && inspect.terminationStatus == 1)
        let page = try TemporaryDirectory("jail-page")
        let preview = try Self.tabicon(["preview", "-q", "-o", page.path("page.html"), dir.path("icons")])
        #expect(preview.terminationReason == .exit && preview.terminationStatus == 1)
        let html = try String(contentsOfFile: page.path("page.html"), encoding: .utf8)
        #expect(html.contains("past the 400 librsvg 2.54 handles (it aborts)"))
        #expect(html.contains("kernelUnitLength of 0.001") || !WorkerLimits.memoryLimitApplies)
    }

    @Test("the jail writes the in-process batch's bytes, the same for --jobs 1 and --jobs 4")
    func sameBytesForAnyJobs() throws {
        let dir = try Self.hostileFolder(slow: false)
        try BuildStep.put("profile.png", at: "icons/profile.png", in: dir)
        try BuildStep.put("house.svg", at: "icons/house.svg", in: dir)
        var snapshots: [[String: Data]] = []
        for jobs in ["1", "4"] {
            let out = try TemporaryDirectory("jail-jobs")
            try Self.tabicon(["normalize", "-q", "--jobs", jobs, dir.path("icons"), "-o", out.url.path])
            snapshots.append(try out.snapshot())
        }
        #expect(snapshots[0] == snapshots[1])
        // In process (the test's own process is no tabicon, so no jail): the good icons' bytes are
        // the jail's. Only the hostile inputs differ (in process they would end this test), so
        // they are left out here.
        let good = try BuildStep.inputs([
            ("home.png", "home.png"), ("bell.png", "bell.png"), ("star.svg", "star.svg"),
            ("profile.png", "profile.png"), ("house.svg", "house.svg")
        ])
        let jailed = try TemporaryDirectory("jail-good"), inProcess = try TemporaryDirectory("in-process")
        try Self.tabicon(["normalize", "-q", good.path("icons"), "-o", jailed.url.path])
        #expect(BuildStep.cli([good.path("icons"), "-o", inProcess.url.path]) == .success)
        #expect(try jailed.snapshot() == inProcess.snapshot())
    }

    /// A batch whose one slow input (a worker that spins on request) sits between two good icons.
    /// Its workers run the built tabicon through a link of their own (`out`'s `tabicon-worker`),
    /// so the test finds them by their command line and no other test's workers.
    static func spinningBatch(_ out: TemporaryDirectory) throws -> (BatchNormalizer, [BatchInput]) {
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        let spin = Data(IconWorker.TestFault.prefix + Array(IconWorker.TestFault.spin.rawValue.utf8))
        let inputs = [
            BatchInput(name: "a.png", outputStem: "a", load: { png }),
            BatchInput(name: "b-spin.svg", outputStem: "b-spin", load: { spin }),
            BatchInput(name: "c.png", outputStem: "c", load: { png })
        ]
        var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url.appendingPathComponent("out"), jobs: 1)
        try FileManager.default.createSymbolicLink(
            atPath: out.path("tabicon-worker"), withDestinationPath: TabiconBinary.url!.path)
        batch.jail = BuildStep.faultJail
        batch.jail?.executable = out.path("tabicon-worker")
        return (batch, inputs)
    }

    @Test("a worker killed from outside mid-input: its input is retried once or fails, the batch finishes with its manifest")
    func workerKilledFromOutside() throws {
        let out = try TemporaryDirectory("jail-killed")
        let (batch, inputs) = try Self.spinningBatch(out)
        let me = getpid()
        let link = out.path("tabicon-worker")
        let killer = Thread {
            var killed: [pid_t] = []
            // The spinning worker is the one using CPU; kill every worker of this process once, twice.
            for _ in 0..<2 {
                for _ in 0..<100 where killed.isEmpty {
                    usleep(20_000)
                    killed = Self.children(of: me).filter { Self.isWorker($0, link: link) }
                }
                usleep(200_000)
                for pid in killed { kill(pid, SIGKILL) }
                killed = []
            }
        }
        killer.start()
        let result = try batch.run(inputs)
        #expect(result.manifest.icons.map(\.input) == ["a.png", "c.png"])
        #expect(result.manifest.errors.map(\.input) == ["b-spin.svg"])
        #expect(FileManager.default.fileExists(atPath: out.path("out/manifest.json")))
    }

    @Test("a stop while a worker is busy: the batch returns within a second, no temporaries, no worker left")
    func stopMidInput() throws {
        let out = try TemporaryDirectory("jail-term")
        var (batch, inputs) = try Self.spinningBatch(out)
        let start = Date()
        batch.shouldStop = { Date().timeIntervalSince(start) > 0.5 ? SIGTERM : 0 }
        let result = try batch.run(inputs)
        let took = Date().timeIntervalSince(start)
        #expect(result.stoppedBy == SIGTERM)
        #expect(took < 1.5, "took \(took) s")
        #expect(BuildStep.temporaries(out).isEmpty)
        #expect(
            Self.children(of: getpid()).filter { Self.isWorker($0, link: out.path("tabicon-worker")) }.isEmpty,
            "a worker outlived the batch")
    }

    /// Whether `pid` is a worker of `spinningBatch(out)` (its command line starts with the link).
    static func isWorker(_ pid: pid_t, link: String) -> Bool {
        let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        return String(decoding: cmdline, as: UTF8.self).hasPrefix(link)
    }

    @Test("an input replaced by a FIFO after the walk is an io error at once, never a wait for a writer")
    func fifoSwappedIn() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let path = dir.path("icons/home.png")
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        let start = Date()
        let error = try #require(throws: TabIconsError.self) {
            try InputReader.read(URL(fileURLWithPath: path), regularOnly: true)
        }
        #expect(error.code == .io && error.message.contains("no longer a regular file"))
        #expect(Date().timeIntervalSince(start) < 1)
    }
}
