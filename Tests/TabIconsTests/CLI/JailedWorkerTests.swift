import Foundation
import Testing
@testable import TabIcons
@testable import TabIconsBatch
@testable import TabIconsCLI

/// The built `tabicon` against inputs that crash librsvg, pass 256 MiB or a second of CPU (SPEC
/// §2: "A crash or a bomb costs one input, never the batch"): each is its own coded error entry,
/// the good icons and the manifest are written, stops end a drawing in flight, and the bytes are
/// those of the in-process batch for any `--jobs`.
@Suite("Jailed workers", .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
struct JailedWorkerTests {
    typealias B = BuildStep

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
        let dir = try B.inputs([("home.png", "home.png"), ("bell.png", "bell.png"), ("star.svg", "star.svg")])
        var hostile = ["crash.svg": convolution(order: 30)]
        // A sanitizer build runs its workers without RLIMIT_DATA (`WorkerLimits.memoryLimitApplies`):
        // there the bomb would really take gigabytes.
        if WorkerLimits.memoryLimitApplies { hostile["bomb.svg"] = lighting(kernelUnit: "0.001") }
        if slow { hostile["slow.svg"] = lighting(kernelUnit: "0.01", color: "blue") }
        for (name, text) in hostile { try Data(text.utf8).write(to: dir.url.appendingPathComponent("icons/" + name)) }
        return dir
    }

    static let expectedErrors: [String: (TabIconsError.Code, String)] = [
        "crash.svg": (.unsupported, "librsvg crashed: SIGABRT"),
        "bomb.svg": (.tooLarge, "needed more than 256 MiB"),
        "slow.svg": (.tooLarge, "took more than 1 s of CPU"),
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
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid
        }
    }

    static func errors(_ manifest: Manifest) -> [String: (TabIconsError.Code, String)] {
        Dictionary(uniqueKeysWithValues: manifest.errors.map {
            (($0.input as NSString).lastPathComponent, (TabIconsError.Code(rawValue: $0.code)!, $0.message))
        })
    }

    @Test("a crash, a memory bomb and a slow drawing beside good icons: exit 1, three coded errors, the good icons and the manifest written")
    func hostileBesideGoodIcons() throws {
        let dir = try Self.hostileFolder()
        let out = try TemporaryDirectory("jail-out")
        let process = try Self.tabicon(["normalize", "-q", "--layout", "android", "--jobs", "2", dir.path("icons"), "-o", out.url.path])
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        let manifest = try B.manifest(out.path("manifest.json"))
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
        #expect(B.temporaries(out).isEmpty)
    }

    /// A 74-byte PNG whose header claims 10000² pixels, 16-bit RGBA, interlaced: decoding it
    /// would allocate about 800 MB before any pixel arrives.
    static func hugeInterlacedPNG() -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return SVGTestSupport.bigEndian(UInt32(body.count)) + typed + SVGTestSupport.bigEndian(SVGTestSupport.crc32(typed))
        }
        let header: [UInt8] = [0, 0, 0x27, 0x10, 0, 0, 0x27, 0x10, 16, 6, 0, 0, 1]
        // zlib: a stored block of ten zero bytes.
        let data: [UInt8] = [0x78, 0x01, 0x01, 0x0A, 0x00, 0xF5, 0xFF] + Array(repeating: 0, count: 10) + [0x00, 0x0A, 0x00, 0x01]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", data) + chunk("IEND", []))
    }

    @Test("a PNG whose decode needs more than 256 MiB beside a good icon: tooLarge, the good icon written",
          .enabled(if: WorkerLimits.memoryLimitApplies, "a sanitizer build's workers run without RLIMIT_DATA"))
    func rasterPastTheMemoryLimit() throws {
        let dir = try B.inputs([("home.png", "home.png")])
        try Self.hugeInterlacedPNG().write(to: dir.url.appendingPathComponent("icons/huge.png"))
        let out = try TemporaryDirectory("jail-raster")
        let process = try Self.tabicon(["normalize", "-q", dir.path("icons"), "-o", out.url.path])
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        let manifest = try B.manifest(out.path("manifest.json"))
        #expect(manifest.icons.map(\.name) == ["home"])
        // The jail says "needed more than 256 MiB"; a decoder that refuses it first says its own words.
        #expect(manifest.errors.map(\.code) == ["tooLarge"], "\(manifest.errors)")
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
        #expect(html.contains("librsvg crashed: SIGABRT"))
        #expect(html.contains("needed more than 256 MiB") || !WorkerLimits.memoryLimitApplies)
    }

    @Test("the jail writes the in-process batch's bytes, the same for --jobs 1 and --jobs 4")
    func sameBytesForAnyJobs() throws {
        let dir = try Self.hostileFolder(slow: false)
        try B.put("profile.png", at: "icons/profile.png", in: dir)
        try B.put("house.svg", at: "icons/house.svg", in: dir)
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
        let good = try B.inputs([("home.png", "home.png"), ("bell.png", "bell.png"), ("star.svg", "star.svg"),
                                 ("profile.png", "profile.png"), ("house.svg", "house.svg")])
        let jailed = try TemporaryDirectory("jail-good"), inProcess = try TemporaryDirectory("in-process")
        try Self.tabicon(["normalize", "-q", good.path("icons"), "-o", jailed.url.path])
        #expect(B.cli([good.path("icons"), "-o", inProcess.url.path]) == .success)
        #expect(try jailed.snapshot() == inProcess.snapshot())
    }

    @Test("a worker killed from outside mid-drawing: its input is retried once or fails, the batch finishes with its manifest")
    func workerKilledFromOutside() throws {
        let dir = try B.inputs([("home.png", "home.png"), ("bell.png", "bell.png")])
        try Data(Self.lighting(kernelUnit: "0.01").utf8).write(to: dir.url.appendingPathComponent("icons/a-slow.svg"))
        let out = try TemporaryDirectory("jail-killed")
        var killed: [pid_t] = []
        let process = try Self.tabicon(["normalize", "-q", "--layout", "android", "--jobs", "1", dir.path("icons"), "-o", out.url.path]) { process in
            for _ in 0..<100 where killed.isEmpty {
                usleep(20_000)
                killed = Self.children(of: process.processIdentifier)
            }
            usleep(200_000)
            for pid in killed { kill(pid, SIGKILL) }
        }
        #expect(!killed.isEmpty, "no worker was found to kill")
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        let manifest = try B.manifest(out.path("manifest.json"))
        #expect(manifest.icons.map(\.name).sorted() == ["bell", "home"])
        #expect(manifest.errors.map(\.input) == [dir.path("icons") + "/a-slow.svg"])
    }

    @Test("SIGTERM while a worker draws: exit 143 within a second, no temporaries, no worker left")
    func sigtermMidDrawing() throws {
        let dir = try B.inputs([("home.png", "home.png")])
        try Data(Self.lighting(kernelUnit: "0.01").utf8).write(to: dir.url.appendingPathComponent("icons/a-slow.svg"))
        let out = try TemporaryDirectory("jail-term")
        var workers: [pid_t] = []
        var stopped = 0.0
        let process = try Self.tabicon(["normalize", "-q", "--layout", "android", "--jobs", "1", dir.path("icons"), "-o", out.url.path]) { process in
            for _ in 0..<100 where workers.isEmpty {
                usleep(20_000)
                workers = Self.children(of: process.processIdentifier)
            }
            usleep(300_000)
            let start = Date()
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            stopped = Date().timeIntervalSince(start)
        }
        #expect(process.terminationReason == .exit && process.terminationStatus == 143, "\(process.terminationReason) \(process.terminationStatus)")
        #expect(stopped < 1, "took \(stopped) s")
        #expect(B.temporaries(out).isEmpty)
        for pid in workers { #expect(kill(pid, 0) != 0, "worker \(pid) outlived the batch") }
    }

    @Test("an input replaced by a FIFO after the walk is an io error at once, never a wait for a writer")
    func fifoSwappedIn() throws {
        let dir = try B.inputs([("home.png", "home.png")])
        let path = dir.path("icons/home.png")
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        let start = Date()
        let error = try #require(throws: TabIconsError.self) { try InputReader.read(URL(fileURLWithPath: path), regularOnly: true) }
        #expect(error.code == .io && error.message.contains("no longer a regular file"))
        #expect(Date().timeIntervalSince(start) < 1)
    }
}
