import Foundation
import Synchronization
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport

/// `tabicon` against hostile file systems, in process (SPEC §6: a bad input is one error and a
/// manifest entry, never a stopped batch, a partial file, a write outside `--out` or a hang).
@Suite("tabicon on hostile file systems")
struct CLIHostileInputTests {
    func run(_ arguments: [String]) -> TabIconCommand.ExitStatus {
        SilentCLI.run(arguments)
    }

    func manifest(_ url: URL) throws -> Manifest {
        try Manifest(parsing: Data(contentsOf: url))
    }

    /// A fresh input folder holding `icons/home.png` (and any extra copies of it).
    func inputs(_ extra: [String] = []) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("hostile-in")
        for path in ["icons/home.png"] + extra {
            let url = dir.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Fixtures.testImage("home.png"), to: url)
        }
        return dir
    }

    @Test("a folder named like an image is walked as a folder; read as a file it is an io error")
    func folderNamedLikeAnImage() throws {
        let dir = try inputs(["icons/tab.png/inner.png"])
        let out = try TemporaryDirectory("out")
        #expect(run(["normalize", "-q", dir.path("icons/tab.png"), "-o", out.url.path]) == .success)
        let m = try manifest(out.url.appendingPathComponent("manifest.json"))
        #expect(m.icons.map(\.name) == ["inner"] && m.errors.isEmpty)

        let error = try #require(throws: TabIconsError.self) {
            try InputReader.read(dir.url.appendingPathComponent("icons/tab.png"))
        }
        #expect(error.code == .io && error.message == "is a directory")
    }

    @Test("a FIFO named on the command line is read to its end, like a file")
    func fifoArgument() throws {
        let dir = try inputs()
        let fifo = dir.path("pipe.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        // The writer blocks in open() until the CLI opens the FIFO for reading.
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(png)
            try? handle.close()
        }
        writer.start()
        let out = try TemporaryDirectory("out")
        #expect(run(["normalize", "-q", fifo, "-o", out.url.path]) == .success)
        let m = try manifest(out.url.appendingPathComponent("manifest.json"))
        #expect(m.icons.map(\.name) == ["pipe"])
        #expect(m.icons.first?.renditions?.map(\.path) == ["pipe.png", "pipe@2x.png", "pipe@3x.png"])
    }

    @Test("a FIFO inside a walked folder is skipped, so nobody waits for a writer that never comes")
    func fifoInsideTree() throws {
        let dir = try inputs()
        let fifo = dir.path("icons/pipe.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Were the FIFO opened for reading, this watchdog would open it for writing and close it
        // at once (end of file), so a regression fails the test below instead of hanging it.
        let done = Atomic<Bool>(false)
        let watchdog = Thread {
            for _ in 0..<600 where !done.load(ordering: .acquiring) {
                let fd = open(fifo, O_WRONLY | O_NONBLOCK)  // ENXIO while nobody reads
                if fd >= 0 { close(fd) }
                usleep(50_000)
            }
        }
        watchdog.start()
        defer { done.store(true, ordering: .releasing) }
        let out = try TemporaryDirectory("out")
        #expect(run(["normalize", "-q", dir.path("icons"), "-o", out.url.path]) == .success)
        let m = try manifest(out.url.appendingPathComponent("manifest.json"))
        #expect(m.icons.map(\.name) == ["home"] && m.errors.isEmpty)
    }

    @Test("a symbolic link back up the tree is not followed: each icon once, no loop")
    func symlinkLoop() throws {
        let dir = try inputs(["icons/sub/search.png"])
        try FileManager.default.createSymbolicLink(atPath: dir.path("icons/sub/loop"), withDestinationPath: "..")
        // A link to a file is an input like any other.
        try FileManager.default.createSymbolicLink(atPath: dir.path("icons/alias.png"), withDestinationPath: "home.png")
        let out = try TemporaryDirectory("out")
        #expect(run(["normalize", "-q", dir.path("icons"), "-o", out.url.path]) == .success)
        let m = try manifest(out.url.appendingPathComponent("manifest.json"))
        #expect(m.icons.map { ($0.input as NSString).lastPathComponent } == ["alias.png", "home.png", "search.png"])
    }

    @Test(
        "an unreadable file is an io error and the rest of the batch is done",
        .enabled(if: getuid() != 0, "root reads a file whatever its mode; /proc/self/mem covers root below"))
    func unreadableFile() throws {
        let dir = try inputs(["icons/locked.png"])
        #expect(chmod(dir.path("icons/locked.png"), 0) == 0)
        defer { chmod(dir.path("icons/locked.png"), 0o600) }
        let out = try TemporaryDirectory("out")
        #expect(run(["normalize", "-q", dir.path("icons"), "-o", out.url.path]) == .someInputsFailed)
        let m = try manifest(out.url.appendingPathComponent("manifest.json"))
        #expect(m.icons.map(\.name) == ["home"])
        #expect(m.errors.map(\.code) == ["io"] && m.errors.first?.message == "permission denied")
    }

    /// `/proc/self/mem` opens (even for root) and its first read fails with EIO (address 0 is
    /// not mapped): a file no user can read, for CI, which runs as root.
    @Test(
        "a file whose read fails (even for root) is an io error naming the system's reason",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mem"), "Linux only"))
    func readFailsForRoot() throws {
        let dir = try inputs()
        let out = try TemporaryDirectory("out")
        #expect(run(["normalize", "-q", "/proc/self/mem", dir.path("icons"), "-o", out.url.path]) == .someInputsFailed)
        let m = try manifest(out.url.appendingPathComponent("manifest.json"))
        #expect(m.icons.map(\.name) == ["home"])
        #expect(m.errors.map(\.input) == ["/proc/self/mem"])
        #expect(m.errors.map(\.code) == ["io"] && m.errors.first?.message == "input/output error")
    }

    @Test(
        "the walk: any case of an extension, dots in a stem, no extension or a hidden name skipped; a walked file's source is its path"
    )
    func walkedNames() throws {
        let dir = try inputs([
            "icons/a.b.SVG", "icons/Home.PnG", "icons/x.txt", "icons/noext", "icons/.hidden.png", "icons/sub/v1.2.webp",
            "icons/dot.", "icons/é.jpeg"
        ])
        let collected = InputCollector.collect([dir.path("icons") + "/"])
        #expect(collected.failures.isEmpty)
        let root = dir.path("icons")
        #expect(
            collected.inputs.map(\.displayName)
                == [
                    "Home.PnG", "a.b.SVG", "home.png", "sub/v1.2.webp", "é.jpeg"
                ].map { root + "/" + $0 })
        #expect(collected.inputs.map(\.outputStem) == ["icons/Home", "icons/a.b", "icons/home", "icons/sub/v1.2", "icons/é"])
        for item in collected.inputs {
            let path = try #require(item.path)
            #expect(path == root + "/" + String(item.displayName.dropFirst(root.count + 1)))
            #expect(item.source == .file(URL(fileURLWithPath: path)) && item.wasRegularFile)
            #expect(
                item.outputStem == "icons/"
                    + (String(item.displayName.dropFirst(root.count + 1)) as NSString).deletingPathExtension)
        }
        let home = try #require(collected.inputs.first { $0.outputStem == "icons/home" })
        #expect(try home.read(limit: 1 << 20) == Data(contentsOf: Fixtures.testImage("home.png")))
        #expect(home.byteCount == (try Data(contentsOf: Fixtures.testImage("home.png"))).count)
    }

    @Test(
        "a walked file: named as the folder was given (relative, ./, a trailing slash), read by its path, the same in the batch's input"
    )
    func walkedFromRelativeFolders() throws {
        let dir = try inputs(["icons/sub/é.b.SVG", "icons/sub/x.svgz"])
        let cwd = FileManager.default.currentDirectoryPath
        let climb = String(repeating: "../", count: cwd.split(separator: "/").count)
        let relative = climb + String(dir.path("icons").dropFirst())  // ../../tmp/…/icons
        for argument in [relative, relative + "/", dir.path("icons"), dir.path("icons") + "/", dir.path("icons/sub/..")] {
            let collected = InputCollector.collect([argument])
            #expect(collected.failures.isEmpty)
            let shown = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            let folderPath = URL(fileURLWithPath: argument).path
            let stemFolder = URL(fileURLWithPath: argument).standardizedFileURL.lastPathComponent
            let below = ["home.png", "sub/x.svgz", "sub/é.b.SVG"]
            #expect(collected.inputs.map(\.displayName) == below.map { shown + "/" + $0 }, "\(argument)")
            #expect(collected.inputs.map(\.path) == below.map { folderPath + "/" + $0 }, "\(argument)")
            #expect(collected.inputs.map(\.outputStem) == ["home", "sub/x", "sub/é.b"].map { stemFolder + "/" + $0 })
            for item in collected.inputs {
                let input = BatchInput(item, limit: 1 << 20)
                #expect(input.name == item.displayName && input.outputStem == item.outputStem)
                #expect(input.sourcePath == item.path)
                #expect(try input.load() == Data(contentsOf: Fixtures.testImage("home.png")))
            }
        }
    }

    @Test("paths with spaces and non-ASCII names are mirrored as they are")
    func spacesAndNonASCII() throws {
        let dir = try inputs(["icons/my tabs/hôme ü.png", "icons/日本/検索 1.png"])
        let out = try TemporaryDirectory("out dir é")
        #expect(run(["normalize", "-q", dir.path("icons"), "-o", out.url.path]) == .success)
        let m = try manifest(out.url.appendingPathComponent("manifest.json"))
        #expect(m.icons.map(\.name) == ["home", "hôme ü", "検索 1"])
        let paths = m.icons.flatMap { $0.renditions ?? [] }.map(\.path)
        #expect(paths.contains("icons/my tabs/hôme ü@2x.png") && paths.contains("icons/日本/検索 1@3x.png"))
        for path in paths { #expect(FileManager.default.fileExists(atPath: out.path(path)), "\(path)") }
        // And named directly, through inspect.
        #expect(run(["inspect", dir.path("icons/日本/検索 1.png")]) == .success)
    }

    @Test("an output folder that cannot be created: exit 1, every icon an io error, nothing written")
    func unwritableOutput() throws {
        let dir = try inputs(["icons/search.png"])
        let before = try dir.snapshot()
        // A folder below a regular file cannot exist, whoever asks (root included).
        let blocker = dir.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let out = blocker.appendingPathComponent("out").path
        #expect(run(["normalize", "-q", dir.path("icons"), "-o", out, "--manifest", dir.path("m.json")]) == .someInputsFailed)
        let m = try manifest(dir.url.appendingPathComponent("m.json"))
        #expect(m.icons.isEmpty)
        #expect(m.errors.count == 2)
        for error in m.errors {
            #expect(error.code == "io")
            #expect(error.message == "\(blocker.path) exists and is not a folder")
        }
        // Nothing partial anywhere: the tree holds exactly the inputs, the blocker and the manifest.
        var after = try dir.snapshot()
        #expect(after.removeValue(forKey: "m.json") != nil)
        #expect(after.removeValue(forKey: "not-a-folder") == Data("x".utf8))
        #expect(after == before)
    }

    @Test("an output folder inside the input tree, named through .. and a trailing slash, is not walked")
    func outputInsideInputOddlyNamed() throws {
        let dir = try inputs(["icons/sub/search.png"])
        let out = dir.path("icons/sub/../out") + "/"
        for _ in 0..<2 { #expect(run(["normalize", "-q", dir.path("icons"), "-o", out]) == .success) }
        let m = try manifest(URL(fileURLWithPath: out).appendingPathComponent("manifest.json"))
        #expect(m.icons.map(\.name) == ["home", "search"])
    }
}
