import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
@testable import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// SPEC §6a "What it reads back is untrusted": whatever the previous manifest, the journal, the
/// names or the options say, nothing tabicon did not write, and none of its inputs, is deleted
/// or overwritten.
@Suite("Untrusted state: nothing deleted outside --out or among the inputs")
struct UntrustedStateTests {
    /// A first run of `icons/home.png` and `icons/bell.png` into `out`, and a folder of victims
    /// beside it that a hostile manifest may aim at.
    struct Scene {
        let dir: TemporaryDirectory
        var out: String { dir.path("out") }
        var manifest: String { dir.path("out/manifest.json") }

        init() throws {
            dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png")])
            try FileManager.default.createDirectory(atPath: dir.path("victims"), withIntermediateDirectories: true)
            try Data("precious".utf8).write(to: URL(fileURLWithPath: dir.path("victims/v.txt")))
            #expect(BuildStep.cli([dir.path("icons"), "-o", out]) == .success)
        }

        /// The manifest changed by `edit`, written back as tabicon writes it.
        func editManifest(_ edit: (inout Manifest) throws -> Void) throws { try BuildStep.editManifest(manifest, edit) }

        func hash(_ path: String) throws -> (bytes: Int, hash: String) {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return (data.count, ContentHash(of: data).description)
        }
    }

    @Test(
        "a previous manifest naming ../victims, absolute paths and `.` components: warned, never pruned, never listed",
        arguments: [
            "../victims/v.txt", "VICTIM_ABSOLUTE", "./../victims/v.txt", "icons/../../victims/v.txt", "", "icons//home.png"
        ])
    func climbingPaths(hostile: String) throws {
        let scene = try Scene()
        let victim = scene.dir.path("victims/v.txt")
        let path = hostile == "VICTIM_ABSOLUTE" ? victim : hostile
        let (bytes, hash) = try scene.hash(victim)
        // The bell's 2× rendition now names the victim, with the victim's real size and hash.
        try scene.editManifest { manifest in
            let bell = try #require(manifest.icons.firstIndex { $0.input.hasSuffix("bell.png") })
            manifest.icons[bell].renditions?[1].path = path
            manifest.icons[bell].renditions?[1].bytes = bytes
            manifest.icons[bell].renditions?[1].hash = hash
        }
        try FileManager.default.removeItem(atPath: scene.dir.path("icons/bell.png"))

        var batch = BatchNormalizer(
            normalizer: Normalizer(options: NormalizeOptions()), outputRoot: URL(fileURLWithPath: scene.out))
        batch.checkOnly = true
        let check = try batch.run(BuildStep.batchInputs(scene.dir, ["home.png"]))
        #expect(check.changes.allSatisfy { RelativePath.isPlain($0.path) || $0.path == scene.manifest })
        #expect(!check.changes.contains { $0.path.contains("victims") })
        #expect(check.warnings.count == 1)
        #expect(check.warnings.first?.contains("not a plain path below --out") == true)

        batch.checkOnly = false
        let result = try batch.run(BuildStep.batchInputs(scene.dir, ["home.png"]))
        #expect(FileManager.default.fileExists(atPath: victim))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(result.warnings.count == 1)
        // The ignored entry is never pruned either: bell's real files stay, no longer listed.
        #expect(FileManager.default.fileExists(atPath: scene.dir.path("out/icons/bell@2x.png")))
        #expect(result.manifest.icons.map(\.input) == ["icons/home.png"])
    }

    @Test("a manifest entry naming an input below --out, with the input's own hash, never deletes the input")
    func inputBelowOut() throws {
        let scene = try Scene()
        // An input that lives below --out (named explicitly, so the walk is not involved).
        try BuildStep.put("heart.png", at: "out/extra/heart.png", in: scene.dir)
        let input = scene.dir.path("out/extra/heart.png")
        let (bytes, hash) = try scene.hash(input)
        try scene.editManifest { manifest in
            var entry = Manifest.ErrorEntry(input: "gone.png", error: TabIconsError(.io, "gone"))
            entry.keptFiles = [.init(path: "extra/heart.png", bytes: bytes, hash: hash)]
            manifest.errors.append(entry)
            manifest.icons[0].contentsFile = .init(path: "extra/heart.png", bytes: bytes, hash: hash)
        }
        #expect(try BuildStep.manifest(scene.manifest).errors.first?.keptFiles.first?.path == "extra/heart.png")
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        #expect(BuildStep.cli([scene.dir.path("icons/home.png"), input, "-o", scene.out]) == .success)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }

    @Test("normalize src -o gen, then gen/src -o gen --layout xcassets: exit 2 before any work, every input kept")
    func earlierOutputsAsInputs() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png")])
        let gen = dir.path("gen")
        #expect(BuildStep.cli([dir.path("icons"), "-o", gen]) == .success)
        let before = try Self.snapshot(gen)
        #expect(BuildStep.cli([dir.path("gen/icons"), "-o", gen, "--layout", "xcassets"]) == .usage)
        #expect(try Self.snapshot(gen) == before)
        // Flat again over its own outputs: the same refusal.
        #expect(BuildStep.cli([dir.path("gen/icons"), "-o", gen]) == .usage)
        #expect(try Self.snapshot(gen) == before)
    }

    @Test("normalize gen/icons/home@3x.png -o gen after normalize icons -o gen keeps its input")
    func ownEarlierOutputAsInput() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let gen = dir.path("gen")
        #expect(BuildStep.cli([dir.path("icons"), "-o", gen]) == .success)
        let input = dir.path("gen/icons/home@3x.png")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: input))
        #expect(BuildStep.cli([input, "-o", gen]) == .success)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == bytes)
        // The first run's other renditions are still tabicon's and stale: they go.
        #expect(!FileManager.default.fileExists(atPath: dir.path("gen/icons/home.png")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("gen/icons/home@2x.png")))
        #expect(FileManager.default.fileExists(atPath: dir.path("gen/home@3x.png")))
    }

    @Test("a run stopped after some icons leaves a journal; the next run with another layout prunes what it committed")
    func stoppedRunIsRecorded() throws {
        let names = ["bell.png", "heart.png", "home.png", "profile.png", "search.png"]
        let dir = try BuildStep.inputs(names.map { ($0, $0) })
        let out = try TemporaryDirectory("out")
        let done = LockedState(0)
        var batch = BatchNormalizer(normalizer: Normalizer(options: NormalizeOptions()), outputRoot: out.url, jobs: 1)
        batch.shouldStop = { done.withLock { $0 } >= 2 ? SIGTERM : 0 }
        let stopped = try batch.run(BuildStep.batchInputs(dir, names)) { _ in done.withLock { $0 += 1 } }
        #expect(stopped.stoppedBy == SIGTERM)
        #expect(!FileManager.default.fileExists(atPath: out.path("manifest.json")))
        #expect(FileManager.default.fileExists(atPath: out.path("manifest.json.journal")))
        #expect(out.files().contains("icons/bell@2x.png"))

        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path, "--layout", "xcassets"]) == .success)
        let files = out.files()
        #expect(!files.contains { $0.hasSuffix(".png") && !$0.contains(".imageset/") })
        #expect(!files.contains("manifest.json.journal"))
        #expect(files.filter { $0.hasSuffix("Contents.json") }.count == names.count)
    }

    @Test(
        "a manifest past what a run reads back is never written: the previous one stays, the journal keeps the new files tabicon's, and the next run within the limit records them"
    )
    func manifestPastTheLimit() throws {
        let dir = try BuildStep.inputs([("bell.png", "bell.png"), ("home.png", "home.png")])
        let out = try TemporaryDirectory("limit-out")
        let manifestPath = out.path("manifest.json")
        func run(_ names: [String], limit: Int = UntrustedFile.cap) throws -> BatchResult {
            var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 2)
            batch.manifestLimit = limit
            return try batch.run(BuildStep.batchInputs(dir, names))
        }
        func pngs(_ name: String) -> [String] { ["", "@2x", "@3x"].map { "icons/\(name)\($0).png" } }
        #expect(try run(["bell.png", "home.png"]).manifestError == nil)
        let recorded = try Data(contentsOf: URL(fileURLWithPath: manifestPath))

        // home goes, profile comes; the manifest this run would write is past its limit.
        try FileManager.default.removeItem(atPath: dir.path("icons/home.png"))
        try BuildStep.put("profile.png", at: "icons/profile.png", in: dir)
        let limited = try run(["bell.png", "profile.png"], limit: recorded.count - 1)
        #expect(limited.manifestError?.code == .tooLarge)
        #expect(limited.manifestError?.message.contains("more than \(recorded.count - 1) bytes") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: manifestPath)) == recorded)
        #expect(BuildStep.temporaries(out).isEmpty)
        #expect(
            Set(out.files())
                == Set(pngs("bell") + pngs("profile") + ["manifest.json", "manifest.json.journal", "manifest.json.stat-cache"]))
        let journal = RunJournal(manifestPath: manifestPath).read()
        #expect(Set(journal.files.map(\.path)) == Set(pngs("profile")))

        // Within the limit: the files are recorded, the journal goes, nothing is left unlisted.
        let again = try run(["bell.png", "profile.png"])
        #expect(again.manifestError == nil)
        #expect(again.counts.reused == 1 && again.counts.normalized == 1 && again.counts.written == 0)
        #expect(Set(out.files()) == Set(pngs("bell") + pngs("profile") + ["manifest.json", "manifest.json.stat-cache"]))
        let manifest = try BuildStep.manifest(manifestPath)
        #expect(manifest.icons.map(\.input) == ["icons/bell.png", "icons/profile.png"])
        #expect(try run(["bell.png", "profile.png"]).changes.isEmpty)
    }

    @Test("the journal is untrusted too: climbing paths in it are ignored with a warning")
    func hostileJournal() throws {
        let scene = try Scene()
        let victim = scene.dir.path("victims/v.txt")
        let (bytes, hash) = try scene.hash(victim)
        let lines = [
            #"{"file":{"path":"../victims/v.txt","bytes":\#(bytes),"hash":"\#(hash)"}}"#,
            #"{"file":{"path":"\#(victim)","bytes":\#(bytes),"hash":"\#(hash)"}}"#,
            #"{"folder":"../victims"}"#, "not json at all", #"{"folder":""}"#
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: scene.manifest + ".journal", atomically: false, encoding: .utf8)
        var batch = BatchNormalizer(
            normalizer: Normalizer(options: NormalizeOptions()), outputRoot: URL(fileURLWithPath: scene.out))
        let result = try batch.run(BuildStep.batchInputs(scene.dir, ["home.png", "bell.png"]))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(
            result.warnings == ["ignored 5 lines of the journal \(scene.manifest).journal that name no plain path below --out"])
        #expect(!FileManager.default.fileExists(atPath: scene.manifest + ".journal"))
        batch.checkOnly = true
        #expect(try batch.run(BuildStep.batchInputs(scene.dir, ["home.png", "bell.png"])).isUpToDate)
    }

    @Test(
        "--preview at the manifest, a rendition, an input or a folder is exit 2 before any work",
        arguments: ["MANIFEST", "RENDITION", "INPUT", "FOLDER"])
    func previewJoinsThePlan(target: String) throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: dir.path("folder"), withIntermediateDirectories: true)
        let preview = [
            "MANIFEST": out + "/manifest.json", "RENDITION": out + "/icons/home@2x.png",
            "INPUT": dir.path("icons/home.png"), "FOLDER": dir.path("folder")
        ][target]!
        let before = try Self.snapshot(dir.url.path)
        #expect(BuildStep.cli([dir.path("icons"), "-o", out, "--preview", preview]) == .usage)
        #expect(try Self.snapshot(dir.url.path) == before)
    }

    @Test("tabicon preview -o at a link, a FIFO, a folder or an input is exit 2 before any work, nothing replaced")
    func previewPageChecked() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: dir.path("target.html")))
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.html"), withDestinationPath: dir.path("target.html"))
        #expect(mkfifo(dir.path("fifo.html"), 0o644) == 0)
        try FileManager.default.createDirectory(atPath: dir.path("folder.html"), withIntermediateDirectories: true)
        for page in ["link.html", "fifo.html", "folder.html", "icons/home.png"] {
            #expect(SilentCLI.run(["preview", "-q", "-o", dir.path(page), dir.path("icons")]) == .usage, "\(page)")
        }
        #expect(try String(contentsOfFile: dir.path("target.html"), encoding: .utf8) == "theirs")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: dir.path("icons/home.png")))
                == Data(contentsOf: Fixtures.testImage("home.png")))
    }

    @Test("a manifest path holding a file tabicon did not write (a web app's manifest.json, a huge file) is exit 2, kept")
    func foreignManifest() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let publicFolder = dir.path("public")
        try FileManager.default.createDirectory(atPath: publicFolder, withIntermediateDirectories: true)
        let webManifest = #"{"name": "My App", "icons": [{"src": "icon.png"}]}"#
        try webManifest.write(toFile: publicFolder + "/manifest.json", atomically: false, encoding: .utf8)
        #expect(BuildStep.cli([dir.path("icons"), "-o", publicFolder]) == .usage)
        #expect(try String(contentsOfFile: publicFolder + "/manifest.json", encoding: .utf8) == webManifest)
        #expect(try Self.snapshot(publicFolder).keys.sorted() == ["manifest.json"])

        // A 1 GiB file (sparse: it costs no disk) is refused by its size, without being read.
        let huge = dir.path("huge.json")
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 1 << 30) == 0)
        var batch = BatchNormalizer(
            normalizer: Normalizer(options: NormalizeOptions()), outputRoot: URL(fileURLWithPath: dir.path("o")),
            manifestURL: URL(fileURLWithPath: huge))
        batch.checkOnly = true
        #expect(throws: BatchUsageError.self) { try batch.run(BuildStep.batchInputs(dir, ["home.png"])) }
        do {
            _ = try batch.run(BuildStep.batchInputs(dir, ["home.png"]))
        } catch {
            #expect(error.description.contains("1073741824 bytes"))
        }
    }

    @Test("a case-only rename on a case-sensitive file system removes the old spelling; --check lists it first")
    func caseOnlyRename() throws {
        let dir = try BuildStep.inputs([("Home.png", "home.png")])
        let out = dir.path("out")
        #expect(BuildStep.cli([dir.path("icons"), "-o", out]) == .success)
        try FileManager.default.moveItem(atPath: dir.path("icons/Home.png"), toPath: dir.path("icons/home.png"))
        var batch = BatchNormalizer(normalizer: Normalizer(options: NormalizeOptions()), outputRoot: URL(fileURLWithPath: out))
        batch.checkOnly = true
        let check = try batch.run(BuildStep.batchInputs(dir, ["home.png"]))
        #expect(
            check.changes.filter { $0.kind == .remove }.map(\.path) == [
                "icons/Home.png", "icons/Home@2x.png", "icons/Home@3x.png"
            ])
        #expect(BuildStep.cli([dir.path("icons"), "-o", out]) == .success)
        #expect(
            try Self.snapshot(out).keys.sorted() == [
                "icons/home.png", "icons/home@2x.png", "icons/home@3x.png", "manifest.json", "manifest.json.stat-cache"
            ])
    }

    @Test("a second run into an --out another run holds is refused at once and writes nothing")
    func oneRunAtATime() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let out = dir.path("out")
        #expect(BuildStep.cli([dir.path("icons"), "-o", out]) == .success)
        try BuildStep.put("bell.png", at: "icons/home.png", in: dir)
        let before = try Self.snapshot(out)
        let holder = open(out, O_RDONLY | O_DIRECTORY)
        defer { close(holder) }
        // Asked again for a while, as `RunLock` asks: a worker another test is spawning may hold
        // a copy of the first run's lock until its exec closes it.
        var locked = flock(holder, LOCK_EX | LOCK_NB) == 0
        for _ in 0..<40 where !locked {
            usleep(50_000)
            locked = flock(holder, LOCK_EX | LOCK_NB) == 0
        }
        #expect(locked)
        var batch = BatchNormalizer(normalizer: Normalizer(options: NormalizeOptions()), outputRoot: URL(fileURLWithPath: out))
        let error = #expect(throws: BatchUsageError.self) { try batch.run(BuildStep.batchInputs(dir, ["home.png"])) }
        #expect(error?.description.contains("another tabicon run") == true)
        #expect(BuildStep.cli([dir.path("icons"), "-o", out]) == .usage)
        #expect(try Self.snapshot(out) == before)
        // Once the holder lets go, the run goes through.
        flock(holder, LOCK_UN)
        batch.jobs = 1
        #expect(try batch.run(BuildStep.batchInputs(dir, ["home.png"])).manifest.errors.isEmpty)
    }

    /// Relative path → bytes of every file below `path`, hidden ones included.
    static func snapshot(_ path: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for entry in BuildStep.allEntries(path) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + entry, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[entry] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + entry))
            }
        }
        return result
    }
}
