import Foundation
import Testing
import TabIcons
import TabIconsBatch
import TabIconsTestSupport

/// Shared by the build-step tests (SPEC §6a): input trees, inputs for the batch API, and what a
/// file's inode and mtime say about whether it was rewritten. (Runs through the CLI,
/// `BuildStep.cli`, are TabIconsCLITests' own, beside `SilentCLI`.)
package enum BuildStep {
    /// The 96 px RGBA PNGs of TestImages: same size, different pixels, so one can replace another
    /// and every output path stays the same while every output byte changes.
    package static let glyphs = [
        "bell.png", "heart.png", "home.png", "home-filled.png", "profile.png",
        "profile-filled.png", "search.png", "search-filled.png"
    ]

    /// A fresh folder with `icons/<name>` copied from TestImages for each (name, TestImages file).
    package static func inputs(_ files: [(String, String)]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("build-in")
        for (name, source) in files { try put(source, at: "icons/" + name, in: dir) }
        return dir
    }

    package static func put(_ testImage: String, at path: String, in dir: TemporaryDirectory) throws {
        let url = dir.url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: Fixtures.testImage(testImage), to: url)
    }

    /// The manifest at `path` changed by `edit`, written back as tabicon writes it.
    package static func editManifest(_ path: String, _ edit: (inout Manifest) throws -> Void) throws {
        var manifest = try self.manifest(path)
        try edit(&manifest)
        try manifest.jsonData().write(to: URL(fileURLWithPath: path))
    }

    package static func manifest(_ path: String) throws -> Manifest {
        try Manifest(parsing: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// (inode, mtime in ns) of every file below `dir`: equal before and after a run means no file
    /// was rewritten, renamed over or touched. Not the stat cache beside a manifest: tabicon's own
    /// disposable file, written again by the run after the one that recorded files in the same
    /// clock tick as itself (its racy records), so that they stand from then on.
    package static func stamps(_ dir: TemporaryDirectory) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for file in dir.files() where !file.hasSuffix(".stat-cache") {
            var info = stat()
            guard stat(dir.path(file), &info) == 0 else { continue }
            result[file] = [Int(info.st_ino), Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)]
        }
        return result
    }

    /// Files below `dir` named like tabicon's temporaries.
    package static func temporaries(_ dir: TemporaryDirectory) -> [String] {
        allEntries(dir.url.path).filter { TemporaryName.matches(($0 as NSString).lastPathComponent) }
    }

    /// Every entry below `path`, hidden ones included (`TemporaryDirectory.files` sees those too,
    /// but not links).
    package static func allEntries(_ path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
    }

    /// Batch inputs for every file below `folder` (the CLI's walk is not under test here).
    package static func batchInputs(_ dir: TemporaryDirectory, _ names: [String]) -> [BatchInput] {
        names.map { name in
            let path = dir.path("icons/" + name)
            return BatchInput(
                name: "icons/" + name, outputStem: "icons/" + (name as NSString).deletingPathExtension,
                load: { () throws(TabIconsError) -> Data in try InputReader.read(URL(fileURLWithPath: path)) },
                sourcePath: path)
        }
    }

    /// The built tabicon as the batch's jail, its workers failing on request (`__worker
    /// --test-faults`, which only a test passes).
    package static var faultJail: WorkerJail {
        var jail = WorkerJail(executable: TabiconBinary.url!.path)
        jail.workerArguments = [WorkerJail.workerArgument, WorkerJail.testFaultsArgument]
        return jail
    }

    /// Moves the stat cache's mtime (beside `manifest`, `manifest.json.stat-cache`) a second on,
    /// as if it had been written a tick after the files it records (a run of three icons finishes
    /// within one clock tick, which makes every record "racily clean", so none would be trusted).
    package static func ageStatCache(_ manifest: String) throws {
        let cache = manifest + ".stat-cache"
        var info = stat()
        #expect(stat(cache, &info) == 0)
        var times = [timespec(tv_sec: info.st_mtim.tv_sec + 1, tv_nsec: 0), timespec(tv_sec: info.st_mtim.tv_sec + 1, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, cache, &times, 0) == 0)
    }
}
