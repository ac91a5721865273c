import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// SPEC §6a "Incremental": a file whose size, times, inode and device still equal the stat
/// cache's record is taken as unchanged without being read; every other case falls back to reading and
/// hashing, and the results are the same either way.
@Suite("The stat cache")
struct StatCacheTests {
    static let names = ["bell.png", "heart.png", "home.png"]

    /// How often each input's bytes were read.
    final class ReadCounts: Sendable {
        private let state = LockedState<[String: Int]>([:])
        func add(_ name: String) { state.withLock { $0[name, default: 0] += 1 } }
        func reset() { state.withLock { $0 = [:] } }
        var all: [String: Int] { state.withLock { $0 } }
    }

    /// Batch inputs for `icons/<name>` that count how often their bytes are read.
    static func countingInputs(_ dir: TemporaryDirectory, _ reads: ReadCounts) -> [BatchInput] {
        names.map { name in
            let path = dir.path("icons/" + name)
            return BatchInput(
                name: "icons/" + name, outputStem: "icons/" + (name as NSString).deletingPathExtension,
                load: { () throws(TabIconsError) -> Data in
                    reads.add(name)
                    return try InputReader.read(URL(fileURLWithPath: path))
                }, sourcePath: path)
        }
    }

    /// Sets a file's mtime back to what `info` said (what someone hiding a change would do).
    static func restoreMTime(_ path: String, _ info: stat) {
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    /// Writes `bytes` over the file at `path` (in place, or a new file renamed over it) and sets
    /// its mtime back: a change someone hides, which only ctime (or the inode) still shows.
    static func rewriteHidingIt(_ path: String, with bytes: Data, inPlace: Bool = true) throws {
        var before = stat()
        #expect(stat(path, &before) == 0)
        if inPlace {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.write(contentsOf: bytes)
            try handle.close()
        } else {
            try bytes.write(to: URL(fileURLWithPath: path + ".new"))
            #expect(rename(path + ".new", path) == 0)
        }
        restoreMTime(path, before)
    }

    struct Scene {
        let dir: TemporaryDirectory
        let out: TemporaryDirectory
        let reads = ReadCounts()

        init() throws {
            dir = try BuildStep.inputs(StatCacheTests.names.map { ($0, $0) })
            out = try TemporaryDirectory("stat-out")
            let first = try run()
            #expect(first.counts.normalized == StatCacheTests.names.count)
            try BuildStep.ageStatCache(out.path("manifest.json"))
            reads.reset()
        }

        func run(verify: Bool = false, check: Bool = false) throws -> BatchResult {
            var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 2)
            batch.verify = verify
            batch.checkOnly = check
            return try batch.run(StatCacheTests.countingInputs(dir, reads))
        }

        var readCounts: [String: Int] { reads.all }
    }

    @Test("an unchanged set: no input is read, every icon carried over, the manifest left as it was; --verify reads them all")
    func unchangedSetReadsNothing() throws {
        let scene = try Scene()
        let stamps = BuildStep.stamps(scene.out)
        let again = try scene.run()
        #expect(again.counts.reused == Self.names.count)
        #expect(scene.readCounts.isEmpty)
        #expect(again.changes.isEmpty)
        #expect(BuildStep.stamps(scene.out) == stamps)
        #expect(try scene.run(check: true).isUpToDate)
        #expect(scene.readCounts.isEmpty)
        let verified = try scene.run(verify: true)
        #expect(verified.counts.reused == Self.names.count)
        #expect(scene.readCounts == Dictionary(uniqueKeysWithValues: Self.names.map { ($0, 1) }))
        #expect(BuildStep.stamps(scene.out) == stamps)
    }

    @Test(
        "a rerun carries each entry over as the previous manifest holds it: every field a unit or the run sets, set again to what it was",
        arguments: [OutputLayout.flat, .xcassets, .android])
    func carriedOverRowsAreTheirPreviousEntries(layout: OutputLayout) throws {
        // Twins (a selected one: Android's state list; a dark one: the image set's appearance)
        // and an icon with options of its own: every field a unit or the run sets on a row.
        let names = ["bell.png", "home.png", "home-filled.png", "home-dark.png", "profile.png"]
        let dir = try BuildStep.inputs(names.map { ($0, $0 == "home-dark.png" ? "home.png" : $0) })
        let out = try TemporaryDirectory("shared-out")
        func run() throws -> BatchResult {
            let batch = BatchNormalizer(normalizer: Normalizer(), layout: layout, outputRoot: out.url, jobs: 2)
            var inputs = BuildStep.batchInputs(dir, names)
            inputs[4].settings = IconSettings(options: NormalizeOptions(shape: .circle), format: .png)
            return try batch.run(inputs)
        }
        let first = try run()
        #expect(first.counts.normalized == names.count)
        try BuildStep.ageStatCache(out.path("manifest.json"))
        let recorded = try BuildStep.manifest(out.path("manifest.json")).icons
        let again = try run()
        #expect(again.counts.reused == names.count && again.changes.isEmpty)
        #expect(recorded.count == names.count)
        #expect(again.manifest.icons == recorded)
    }

    @Test("a touched input with the same bytes is read and hashed, carried over, and its record renewed")
    func touchedInput() throws {
        let scene = try Scene()
        let path = scene.dir.path("icons/bell.png")
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let again = try scene.run()
        #expect(again.counts.reused == Self.names.count && again.counts.normalized == 0)
        #expect(scene.readCounts == ["bell.png": 1])
        let bell = try #require(again.manifest.icons.first { $0.input == "icons/bell.png" })
        #expect(bell.inputStat == FileStat(path: path))
    }

    @Test(
        "an input changed in place with its size and mtime kept, or replaced by another file, is redone (ctime, inode)",
        arguments: ["in place", "replaced"])
    func hiddenInputChange(how: String) throws {
        let scene = try Scene()
        let path = scene.dir.path("icons/bell.png")
        let bell = try Data(contentsOf: Fixtures.testImage("bell.png"))
        // Two inputs of one size that decode alike and differ in a byte: a text chunk "a" or "b".
        try Self.withTextChunk(bell, "a").write(to: URL(fileURLWithPath: path))
        _ = try scene.run()
        try BuildStep.ageStatCache(scene.out.path("manifest.json"))
        scene.reads.reset()
        try Self.rewriteHidingIt(path, with: Self.withTextChunk(bell, "b"), inPlace: how == "in place")
        let again = try scene.run()
        #expect(again.counts.normalized == 1 && again.counts.reused == Self.names.count - 1)
        #expect(scene.readCounts == ["bell.png": 1])
    }

    @Test("an output changed in place with its size and mtime kept is redone; a deleted one too")
    func hiddenOutputChange() throws {
        let scene = try Scene()
        let path = scene.out.path("icons/heart@2x.png")
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        var changed = original
        changed[changed.count - 20] ^= 0xFF
        try Self.rewriteHidingIt(path, with: changed)
        try FileManager.default.removeItem(atPath: scene.out.path("icons/home@3x.png"))
        let again = try scene.run()
        #expect(again.counts.normalized == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(FileManager.default.fileExists(atPath: scene.out.path("icons/home@3x.png")))
    }

    @Test("a record newer than its cache is not trusted (racily clean); nor a record of other bytes, nor under --verify")
    func racyRecords() throws {
        let now = FileStat(size: 10, mtime: 2_000, ctime: 2_000, inode: 7, device: 1)
        let hash = "xxh3-128:" + String(repeating: "1", count: 32)
        func cache(trusted: Bool = true, bound: Int?) -> StatCache {
            StatCache(
                trusted: trusted, bound: bound, inputs: ["a.png": .init(stat: now, hash: hash)],
                outputs: ["a.png": .init(stat: now, hash: hash)])
        }
        #expect(cache(bound: 3_000).outputStands("a.png", hash: hash, current: now))
        #expect(cache(bound: 3_000).standing(input: "a.png", hash: hash, current: StatDigest(now)) == now)
        #expect(cache(bound: 3_000).standing(output: "a.png", hash: hash, current: StatDigest(now)) == now)
        #expect(cache(bound: 2_000).standing(input: "a.png", hash: hash, current: StatDigest(now)) == nil)
        #expect(cache(bound: 3_000).standing(input: "a.png", hash: hash, current: StatDigest(nil)) == nil)
        #expect(!cache(bound: 3_000).outputStands("b.png", hash: hash, current: now))
        #expect(!cache(bound: 3_000).outputStands("a.png", hash: "xxh3-128:" + String(repeating: "2", count: 32), current: now))
        #expect(!cache(bound: 2_000).outputStands("a.png", hash: hash, current: now))
        #expect(!cache(trusted: false, bound: 3_000).outputStands("a.png", hash: hash, current: now))
        #expect(!cache(bound: nil).outputStands("a.png", hash: hash, current: now))
        for other in [
            FileStat(size: 11, mtime: 2_000, ctime: 2_000, inode: 7, device: 1),
            FileStat(size: 10, mtime: 2_001, ctime: 2_000, inode: 7, device: 1),
            FileStat(size: 10, mtime: 2_000, ctime: 2_001, inode: 7, device: 1),
            FileStat(size: 10, mtime: 2_000, ctime: 2_000, inode: 8, device: 1),
            FileStat(size: 10, mtime: 2_000, ctime: 2_000, inode: 7, device: 2)
        ] {
            #expect(!cache(bound: 3_000).outputStands("a.png", hash: hash, current: other))
        }
    }

    @Test(
        "the plan's stats: one per input (a regular file's, links followed), one lstat per planned path (a link, a folder or nothing: none)"
    )
    func plannedStats() throws {
        let scene = try Scene()
        let inputs = Self.countingInputs(scene.dir, scene.reads)
        // heart@2x.png a link to a copy of itself, home@3x.png a folder, bell@3x.png gone.
        let heart = scene.out.path("icons/heart@2x.png")
        try FileManager.default.moveItem(atPath: heart, toPath: heart + ".real")
        #expect(symlink(heart + ".real", heart) == 0)
        try FileManager.default.removeItem(atPath: scene.out.path("icons/home@3x.png"))
        try FileManager.default.createDirectory(atPath: scene.out.path("icons/home@3x.png"), withIntermediateDirectories: false)
        try FileManager.default.removeItem(atPath: scene.out.path("icons/bell@3x.png"))
        let plan = try OutputPlan.make(
            inputs,
            .init(
                layout: .flat, fileExtension: "png", scales: [1, 2, 3], outputRoot: scene.out.url.path,
                manifestPath: scene.out.path("manifest.json"), inputFolders: []))
        for (index, name) in Self.names.enumerated() {
            let stat = try #require(FileStat(path: scene.dir.path("icons/" + name)))
            #expect(plan.inputStat(index) == stat)
        }
        func lstatOf(_ relative: String) -> FileStat? {
            var info = stat()
            guard lstat(scene.out.path(relative), &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return FileStat(info)
        }
        #expect(plan.outputStat("icons/bell.png") == StatDigest(lstatOf("icons/bell.png")))
        #expect(lstatOf("icons/bell.png") != nil)
        #expect(plan.outputStat("icons/bell@3x.png") == StatDigest(nil))
        #expect(plan.outputStat("icons/heart@2x.png") == StatDigest(nil))
        #expect(plan.outputStat("icons/home@3x.png") == StatDigest(nil))
        // Not a planned path: the plan has no stat, the check asks.
        #expect(plan.outputStat("icons/other.png") == nil)
        // Into a folder that does not exist yet: every planned path is planned as absent.
        let fresh = try OutputPlan.make(
            inputs,
            .init(
                layout: .xcassets, fileExtension: "png", scales: [1, 2, 3], outputRoot: scene.out.path("new/deeper"),
                manifestPath: scene.out.path("new/deeper/manifest.json"), inputFolders: []))
        #expect(fresh.outputStat("icons/bell.imageset/bell@2x.png") == StatDigest(nil))
        #expect(fresh.outputStat("icons/bell.imageset/Contents.json") == StatDigest(nil))
        // The run: none carried over; the link is not followed to the genuine file and the folder
        // is not written into (io errors), the missing file redone.
        let again = try scene.run()
        #expect(again.counts.reused == 0 && again.counts.normalized == 1 && again.counts.failed == 2)
        #expect(again.manifest.errors.map(\.input) == ["icons/heart.png", "icons/home.png"])
        #expect(again.manifest.errors.map(\.code) == ["io", "io"])
        #expect(again.manifest.errors.first?.message.hasSuffix("is a symbolic link; tabicon follows no link below --out") == true)
        #expect(FileManager.default.fileExists(atPath: scene.out.path("icons/bell@3x.png")))
    }

    @Test("a record that still stands is trusted without a read: a file whose recorded hash is wrong still 'holds'")
    func recordStandsForTheBytes() throws {
        let out = try TemporaryDirectory("stat-direct")
        try Data("abc".utf8).write(to: out.url.appendingPathComponent("f.png"))
        let directory = try OutputDirectory(root: out.url.path, create: false)
        let current = try #require(directory.fileStat("f.png"))
        let wrong = Manifest.FileEntry(path: "f.png", bytes: 3, hash: "xxh3-128:" + String(repeating: "0", count: 32))
        let trusting = StatCache(
            trusted: true, bound: current.ctime + 1, inputs: [:], outputs: ["f.png": .init(stat: current, hash: wrong.hash)])
        #expect(directory.check(wrong, cache: trusting) == current)
        #expect(directory.check(wrong, cache: .none) == nil)
        #expect(!directory.holds(wrong))
    }

    @Test("a copy of the tree (other inodes and times) is up to date for --check, and a run renews the records, not the manifest")
    func freshCopy() throws {
        let scene = try Scene()
        let copy = try TemporaryDirectory("stat-copy")
        try FileManager.default.removeItem(at: copy.url)
        try FileManager.default.copyItem(at: scene.dir.url, to: copy.url)
        try FileManager.default.copyItem(at: scene.out.url, to: copy.url.appendingPathComponent("out"))
        var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: copy.url.appendingPathComponent("out"), jobs: 1)
        batch.checkOnly = true
        let inputs = BuildStep.batchInputs(copy, Self.names)
        #expect(try batch.run(inputs).isUpToDate)
        batch.checkOnly = false
        let run = try batch.run(inputs)
        #expect(run.counts.reused == Self.names.count)
        #expect(run.changes.isEmpty)
        #expect(run.manifest.icons.allSatisfy { $0.inputStat == FileStat(path: copy.path($0.input)) })
        // The next run trusts the new records: nothing read.
        try BuildStep.ageStatCache(copy.path("out/manifest.json"))
        let reads = ReadCounts()
        #expect(try batch.run(Self.countingInputs(copy, reads)).counts.reused == Self.names.count)
        #expect(reads.all.isEmpty)
    }

    /// `png` with a tEXt chunk holding `text` after its header.
    static func withTextChunk(_ png: Data, _ text: String) -> Data {
        let body = Array("note".utf8) + [0] + Array(text.utf8)
        let typed = Array("tEXt".utf8) + body
        let chunk = SVGTestSupport.bigEndian(UInt32(body.count)) + typed + SVGTestSupport.bigEndian(SVGTestSupport.crc32(typed))
        return png.prefix(33) + Data(chunk) + png.dropFirst(33)
    }
}
