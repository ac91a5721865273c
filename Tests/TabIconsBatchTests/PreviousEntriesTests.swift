import Foundation
import Synchronization
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsBatchTestSupport
import TabIconsTestSupport

/// The previous manifest's entries are untrusted text (`PreviousRun`): an entry that does not
/// read, or names a path that is not plain, is ignored with a warning, never reused, pruned or
/// listed.
@Suite("Previous entries read from the file")
struct PreviousEntriesTests {
    /// A first run by a `BatchNormalizer` of `icons/home.png` and `icons/bell.png` into `out`
    /// (the inputs named `icons/…`, as the tests' later batches name them), and a folder of
    /// victims beside it that a hostile manifest may aim at (UntrustedStateTests' scene, run by
    /// the batch instead of the CLI).
    struct Scene {
        let dir: TemporaryDirectory
        var out: String { dir.path("out") }
        var manifest: String { dir.path("out/manifest.json") }

        init() throws {
            dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png")])
            try FileManager.default.createDirectory(atPath: dir.path("victims"), withIntermediateDirectories: true)
            try Data("precious".utf8).write(to: URL(fileURLWithPath: dir.path("victims/v.txt")))
            let batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: URL(fileURLWithPath: out))
            #expect(try batch.run(BuildStep.batchInputs(dir, ["bell.png", "home.png"])).counts.normalized == 2)
        }

        /// The manifest changed by `edit`, written back as tabicon writes it.
        func editManifest(_ edit: (inout Manifest) throws -> Void) throws { try BuildStep.editManifest(manifest, edit) }
    }

    /// The bell's entry given `icons/extra.txt` (a real file in `--out`, its own bytes and hash)
    /// as its `Contents.json`: a file a flat run does not produce, so pruning removes it when the
    /// entry is believed.
    static func sceneWithExtra() throws -> (Scene, extra: String) {
        let scene = try Scene()
        let extra = scene.dir.path("out/icons/extra.txt")
        try Data("extra".utf8).write(to: URL(fileURLWithPath: extra))
        let (bytes, hash) = (5, ContentHash(of: Array("extra".utf8)).description)
        try scene.editManifest { manifest in
            let bell = try #require(manifest.icons.firstIndex { $0.input.hasSuffix("bell.png") })
            manifest.icons[bell].contentsFile = .init(path: "icons/extra.txt", bytes: bytes, hash: hash)
        }
        return (scene, extra)
    }

    static func batch(_ scene: Scene) -> BatchNormalizer {
        BatchNormalizer(normalizer: Normalizer(), outputRoot: URL(fileURLWithPath: scene.out))
    }

    /// The manifest's text with its first `old` replaced by `new`.
    static func replaceFirst(_ old: String, with new: String, in path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let range = try #require(text.range(of: old))
        try text.replacingCharacters(in: range, with: new).write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("the control: an entry that reads is believed, and its file no run produces is pruned")
    func believedEntryPrunes() throws {
        let (scene, extra) = try Self.sceneWithExtra()
        let result = try Self.batch(scene).run(BuildStep.batchInputs(scene.dir, ["bell.png", "home.png"]))
        #expect(result.warnings.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: extra))
        #expect(result.counts.removed == 1)
    }

    @Test(
        "an entry that does not decode (a width of 96.5, a rendition without its hash, a key SPEC §6 requires missing or of another JSON kind): ignored with a warning, its files kept, the rest carried over",
        arguments: [
            ("\"pixelWidth\": 96,", "\"pixelWidth\": 96.5,"), ("\"hash\": \"xxh3-", "\"hashes\": \"xxh3-"),
            ("\"lints\": [", "\"lint\": ["), ("\"name\": \"bell\"", "\"name\": 7"), ("\"animated\": false", "\"animated\": 0")
        ])
    func entryThatDoesNotRead(edit: (String, String)) throws {
        let (scene, extra) = try Self.sceneWithExtra()
        try Self.replaceFirst(edit.0, with: edit.1, in: scene.manifest)  // the bell's entry comes first
        for check in [true, false] {
            var batch = Self.batch(scene)
            batch.checkOnly = check
            let result = try batch.run(BuildStep.batchInputs(scene.dir, ["bell.png", "home.png"]))
            #expect(result.warnings.count == 1)
            #expect(
                result.warnings.first?.hasPrefix("ignored the previous manifest's entry number 1: ") == true)
            #expect(result.counts.reused == 1 && result.counts.normalized == 1 && result.counts.failed == 0)
            #expect(FileManager.default.fileExists(atPath: extra))
            #expect(!result.changes.contains { $0.path.hasSuffix("extra.txt") })
        }
        // The manifest written lists the bell as this run made it.
        let written = try BuildStep.manifest(scene.manifest)
        #expect(written.icons.map(\.input).map { ($0 as NSString).lastPathComponent } == ["bell.png", "home.png"])
        #expect(written.icons[0].contentsFile == nil)
    }

    @Test("an entry longer than a read chunk (a lint of 200 KiB) is read a chunk at a time, believed like any other")
    func entryLongerThanAChunk() throws {
        let (scene, extra) = try Self.sceneWithExtra()
        let message = String(repeating: "long ", count: 40 << 10)
        try scene.editManifest { manifest in
            let bell = try #require(manifest.icons.firstIndex { $0.input.hasSuffix("bell.png") })
            manifest.icons[bell].lints.append(Lint(.padding, message))
        }
        let result = try Self.batch(scene).run(BuildStep.batchInputs(scene.dir, ["bell.png", "home.png"]))
        #expect(result.warnings.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: extra))
        // Read to its end: its `Contents.json` (a file a flat run does not produce) was pruned.
        #expect(result.counts.removed == 1)
    }

    @Test(
        "an entry listing more renditions than a run renders is ignored with a warning, none of its files pruned, however many it lists"
    )
    func entryOfTooManyRenditions() throws {
        for count in [NormalizeOptions.mostScales + 1, 50_000] {
            let (scene, extra) = try Self.sceneWithExtra()
            try scene.editManifest { manifest in
                let bell = try #require(manifest.icons.firstIndex { $0.input.hasSuffix("bell.png") })
                let first = try #require(manifest.icons[bell].renditions?.first)
                // Its own renditions, then the extra file named again and again: each a stale file if read.
                manifest.icons[bell].renditions! += (0..<count).map { _ in
                    var rendition = first
                    rendition.path = "icons/extra.txt"
                    rendition.bytes = 5
                    rendition.hash = ContentHash(of: Array("extra".utf8)).description
                    return rendition
                }
            }
            let result = try Self.batch(scene).run(BuildStep.batchInputs(scene.dir, ["bell.png", "home.png"]))
            #expect(result.warnings.count == 1)
            #expect(result.warnings.first?.contains("more renditions than \(NormalizeOptions.mostScales)") == true)
            #expect(result.counts.reused == 1 && result.counts.normalized == 1 && result.counts.removed == 0)
            #expect(FileManager.default.fileExists(atPath: extra))
        }
    }

    @Test("a stale file two entries list is removed once, listed once; one --check lists once")
    func staleFileListedTwice() throws {
        for check in [true, false] {
            let (scene, extra) = try Self.sceneWithExtra()
            try scene.editManifest { manifest in
                let home = try #require(manifest.icons.firstIndex { $0.input.hasSuffix("home.png") })
                manifest.icons[home].contentsFile = .init(
                    path: "icons/extra.txt", bytes: 5, hash: ContentHash(of: Array("extra".utf8)).description)
            }
            var batch = Self.batch(scene)
            batch.checkOnly = check
            let result = try batch.run(BuildStep.batchInputs(scene.dir, ["bell.png", "home.png"]))
            #expect(result.warnings.isEmpty)
            #expect(result.changes.filter { $0.path == "icons/extra.txt" }.map(\.kind) == [.remove])
            #expect(FileManager.default.fileExists(atPath: extra) == check)
            #expect(result.counts.removed == (check ? 0 : 1))
        }
    }

    @Test(
        "the previous manifest overwritten in place after it was read: the run works from what it read, and writes the manifest whole"
    )
    func changedUnderTheRun() throws {
        for check in [true, false] {
            let (scene, extra) = try Self.sceneWithExtra()
            var batch = Self.batch(scene)
            batch.checkOnly = check
            let path = scene.manifest
            batch.readPrevious = { _ in
                // Same size, other bytes: what the run reads of it now is not an entry.
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                let fd = open(path, O_WRONLY)
                _ = [UInt8](repeating: 0x20, count: size).withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                close(fd)
            }
            let result = try batch.run(BuildStep.batchInputs(scene.dir, ["bell.png", "home.png"]))
            #expect(result.warnings.isEmpty)
            // The bell's entry, as read, claims extra.txt (no plan's path): the bell is redone and
            // extra.txt, recorded with its bytes, pruned; the home carried over.
            #expect(result.counts.reused == 1 && result.counts.normalized == 1)
            #expect(FileManager.default.fileExists(atPath: extra) == check)
            #expect(result.changes.contains { $0.path == path })
            if !check { #expect(try BuildStep.manifest(path).icons.count == 2) }
        }
    }

    @Test("an input listed twice: the first entry is the one carried over; the second's files, no longer produced, pruned")
    func inputListedTwice() throws {
        let (scene, extra) = try Self.sceneWithExtra()
        try scene.editManifest { manifest in
            // A copy of the bell's entry (with the extra file) after a clean copy of it first.
            let bell = try #require(manifest.icons.firstIndex { $0.input.hasSuffix("bell.png") })
            var clean = manifest.icons[bell]
            clean.contentsFile = nil
            manifest.icons.insert(clean, at: bell)
        }
        let result = try Self.batch(scene).run(BuildStep.batchInputs(scene.dir, ["bell.png", "home.png"]))
        #expect(result.counts.reused == 2)
        #expect(!FileManager.default.fileExists(atPath: extra))
        #expect(try BuildStep.manifest(scene.manifest).icons.count == 2)
    }
}
