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

/// SPEC §6a "Incremental" and "No stale files": the previous manifest is the cache, and what it
/// owned that this run does not produce goes.
@Suite("Incremental runs")
struct IncrementalRunTests {
    static let names = ["bell.png", "heart.png", "home.png", "search.png"]

    func makeInputs() throws -> TemporaryDirectory {
        try BuildStep.inputs(Self.names.map { ($0, $0) })
    }

    /// The batch API with events recorded, so a test sees which inputs were decoded.
    func run(
        _ dir: TemporaryDirectory, _ out: TemporaryDirectory, force: Bool = false,
        options: NormalizeOptions = NormalizeOptions(), names: [String] = names
    ) throws -> (BatchResult, [String]) {
        var batch = BatchNormalizer(normalizer: Normalizer(options: options), outputRoot: out.url, jobs: 2)
        batch.force = force
        let normalized = LockedState<[String]>([])
        let result = try batch.run(BuildStep.batchInputs(dir, names)) { event in
            if case .done(_, let name, _) = event { normalized.withLock { $0.append(name) } }
        }
        return (result, normalized.withLock { $0 }.sorted())
    }

    @Test("a second run over unchanged inputs decodes nothing and rewrites nothing (inode and mtime kept)")
    func unchangedInputs() throws {
        let dir = try makeInputs()
        let out = try TemporaryDirectory("out")
        let (first, decodedFirst) = try run(dir, out)
        #expect(decodedFirst.count == 4 && first.counts.written == 12)
        let stamps = BuildStep.stamps(out)
        let (second, decodedSecond) = try run(dir, out)
        #expect(decodedSecond.isEmpty)
        #expect(second.counts == .init(reused: 4, normalized: 0, failed: 0, written: 0, unchanged: 12, removed: 0))
        #expect(second.changes.isEmpty)
        #expect(BuildStep.stamps(out) == stamps)
        #expect(second.manifest == first.manifest)
    }

    @Test("through the CLI too: the second run writes no file and leaves the manifest's mtime")
    func unchangedInputsCLI() throws {
        let dir = try makeInputs()
        let out = try TemporaryDirectory("out")
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .success)
        let stamps = BuildStep.stamps(out)
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .success)
        #expect(BuildStep.stamps(out) == stamps)
    }

    @Test("a changed input redoes only itself")
    func changedInput() throws {
        let dir = try makeInputs()
        let out = try TemporaryDirectory("out")
        _ = try run(dir, out)
        let stamps = BuildStep.stamps(out)
        try BuildStep.put("profile.png", at: "icons/home.png", in: dir)
        let (result, decoded) = try run(dir, out)
        #expect(decoded == ["icons/home.png"])
        #expect(result.counts.reused == 3 && result.counts.written == 3)
        let after = BuildStep.stamps(out)
        for (path, stamp) in stamps where path != "manifest.json" {
            #expect((after[path] == stamp) == !path.hasPrefix("icons/home"), "\(path)")
        }
    }

    @Test("--force redoes every input, and bytes equal to the disk's are still not rewritten")
    func force() throws {
        let dir = try makeInputs()
        let out = try TemporaryDirectory("out")
        _ = try run(dir, out)
        let stamps = BuildStep.stamps(out)
        let (result, decoded) = try run(dir, out, force: true)
        #expect(decoded.count == 4)
        #expect(result.counts == .init(reused: 0, normalized: 4, failed: 0, written: 0, unchanged: 12, removed: 0))
        #expect(BuildStep.stamps(out) == stamps)
    }

    @Test("a changed option redoes everything; a rendition edited on disk is redone")
    func optionsAndTampering() throws {
        let dir = try makeInputs()
        let out = try TemporaryDirectory("out")
        _ = try run(dir, out)
        let (boxed, decodedBoxed) = try run(dir, out, options: NormalizeOptions(filter: .box))
        #expect(decodedBoxed.count == 4 && boxed.counts.reused == 0)
        try Data("edited".utf8).write(to: out.url.appendingPathComponent("icons/bell@2x.png"))
        let (again, decoded) = try run(dir, out, options: NormalizeOptions(filter: .box))
        #expect(decoded == ["icons/bell.png"])
        #expect(again.counts.written == 1 && again.counts.unchanged == 11)
        #expect(
            try ContentHash(of: Data(contentsOf: out.url.appendingPathComponent("icons/bell@2x.png"))).description
                == again.manifest.icons[0].renditions?[1].hash)
    }

    @Test(
        "an input that shrank loses its stale @2x/@3x; a removed input's files and the folder tabicon made go; other files stay")
    func pruning() throws {
        let dir = try makeInputs()
        try BuildStep.put("home.png", at: "icons/sub/deep.png", in: dir)
        let out = try TemporaryDirectory("out")
        try FileManager.default.createDirectory(atPath: out.path("icons"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: out.url.appendingPathComponent("icons/notes.txt"))
        let (first, _) = try run(dir, out, names: Self.names + ["sub/deep.png"])
        #expect(out.files().contains("icons/sub/deep@3x.png"))
        // `icons` was there before tabicon (the user made it): only `icons/sub` is tabicon's.
        #expect(first.manifest.folders == ["icons/sub"])
        // home.png shrinks from 96 px to 32 px: 2x and 3x become upscales, skipped.
        try BuildStep.put("rgba-32.png", at: "icons/home.png", in: dir)
        // A file someone replaced since tabicon wrote it is theirs.
        try Data("replaced".utf8).write(to: out.url.appendingPathComponent("icons/search@3x.png"))
        try FileManager.default.removeItem(atPath: dir.path("icons/search.png"))
        let (result, _) = try run(dir, out, names: ["bell.png", "heart.png", "home.png"])
        let removed = [
            "icons/home@2x.png", "icons/home@3x.png", "icons/search.png", "icons/search@2x.png",
            "icons/sub/deep.png", "icons/sub/deep@2x.png", "icons/sub/deep@3x.png"
        ]
        #expect(result.counts.removed == removed.count)
        #expect(result.changes.filter { $0.kind == .remove }.map(\.path) == removed)
        #expect(
            out.files() == [
                "icons/bell.png", "icons/bell@2x.png", "icons/bell@3x.png", "icons/heart.png",
                "icons/heart@2x.png", "icons/heart@3x.png", "icons/home.png", "icons/notes.txt",
                "icons/search@3x.png", "manifest.json", "manifest.json.stat-cache"
            ])
        #expect(!FileManager.default.fileExists(atPath: out.path("icons/sub")))
        #expect(FileManager.default.fileExists(atPath: out.path("icons")))
        #expect(result.manifest.folders.isEmpty)
    }

    @Test("--check: exit 0 when up to date, 1 listing every file otherwise, and it writes nothing")
    func check() throws {
        let dir = try makeInputs()
        let out = try TemporaryDirectory("out")
        let arguments = [dir.path("icons"), "-o", out.url.path]
        // Before any run: everything would be written, and nothing is (not even --out).
        try FileManager.default.removeItem(at: out.url)
        #expect(BuildStep.cli(["--check"] + arguments) == .someInputsFailed)
        #expect(!FileManager.default.fileExists(atPath: out.url.path))
        #expect(BuildStep.cli(arguments) == .success)
        #expect(BuildStep.cli(["--check"] + arguments) == .success)
        try BuildStep.put("profile.png", at: "icons/home.png", in: dir)
        try FileManager.default.removeItem(atPath: dir.path("icons/bell.png"))
        let snapshot = try out.snapshot(), stamps = BuildStep.stamps(out)
        var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url)
        batch.checkOnly = true
        let result = try batch.run(BuildStep.batchInputs(dir, ["heart.png", "home.png", "search.png"]))
        #expect(
            result.changes.map(\.description) == [
                "change icons/home.png", "change icons/home@2x.png", "change icons/home@3x.png",
                "remove icons/bell.png", "remove icons/bell@2x.png", "remove icons/bell@3x.png",
                "change \(out.path("manifest.json"))"
            ])
        #expect(!result.isUpToDate)
        #expect(BuildStep.cli(["--check"] + arguments) == .someInputsFailed)
        #expect(try out.snapshot() == snapshot && BuildStep.stamps(out) == stamps)
        #expect(BuildStep.cli(arguments) == .success)
        #expect(BuildStep.cli(["--check"] + arguments) == .success)
    }

    @Test("the manifest reads back as it was written: one serializer, one parser")
    func manifestRoundTrip() throws {
        let dir = try makeInputs()
        let out = try TemporaryDirectory("out")
        var batch = BatchNormalizer(normalizer: Normalizer(), layout: .xcassets, outputRoot: out.url)
        batch.force = true
        let result = try batch.run(
            BuildStep.batchInputs(dir, Self.names), priorErrors: [.init(input: "x\u{1}\"é", error: TabIconsError(.io, "gone\n"))])
        let data = try Data(contentsOf: out.url.appendingPathComponent("manifest.json"))
        let parsed = try Manifest(parsing: data)
        #expect(parsed == result.manifest)
        #expect(parsed.jsonData() == data)
        #expect(parsed.icons[0].contentsFile?.path == "icons/bell.imageset/Contents.json")
        for text in ["", "{", "[1,]", "{\"version\": 1}", String(repeating: "[", count: 10_000), "\"\\ud800\"x"] {
            #expect(throws: TabIconsError.self) { try Manifest(parsing: Data(text.utf8)) }
        }
    }
}
