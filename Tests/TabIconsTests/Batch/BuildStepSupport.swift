import Foundation
@testable import TabIcons
@testable import TabIconsCore
@testable import TabIconsCodecs
@testable import TabIconsNormalize
@testable import TabIconsBatch
@testable import TabIconsCLI

/// Shared by the build-step tests (SPEC §6a): input trees, runs through the CLI and the batch
/// API, and what a file's inode and mtime say about whether it was rewritten.
enum BuildStep {
    /// The 96 px RGBA PNGs of TestImages: same size, different pixels, so one can replace another
    /// and every output path stays the same while every output byte changes.
    static let glyphs = [
        "bell.png", "heart.png", "home.png", "home-filled.png", "profile.png",
        "profile-filled.png", "search.png", "search-filled.png"
    ]

    /// A fresh folder with `icons/<name>` copied from TestImages for each (name, TestImages file).
    static func inputs(_ files: [(String, String)]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("build-in")
        for (name, source) in files { try put(source, at: "icons/" + name, in: dir) }
        return dir
    }

    static func put(_ testImage: String, at path: String, in dir: TemporaryDirectory) throws {
        let url = dir.url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: Fixtures.testImage(testImage), to: url)
    }

    static func cli(_ arguments: [String]) -> TabIconCommand.ExitStatus {
        SilentCLI.run(["normalize", "-q"] + arguments)
    }

    /// The manifest at `path` changed by `edit`, written back as tabicon writes it.
    static func editManifest(_ path: String, _ edit: (inout Manifest) throws -> Void) throws {
        var manifest = try self.manifest(path)
        try edit(&manifest)
        try manifest.jsonData().write(to: URL(fileURLWithPath: path))
    }

    static func manifest(_ path: String) throws -> Manifest {
        try Manifest(parsing: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// (inode, mtime in ns) of every file below `dir`: equal before and after a run means no file
    /// was rewritten, renamed over or touched. Not the stat cache beside a manifest: tabicon's own
    /// disposable file, written again by the run after the one that recorded files in the same
    /// clock tick as itself (its racy records), so that they stand from then on.
    static func stamps(_ dir: TemporaryDirectory) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for file in dir.files() where !file.hasSuffix(".stat-cache") {
            var info = stat()
            guard stat(dir.path(file), &info) == 0 else { continue }
            result[file] = [Int(info.st_ino), Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)]
        }
        return result
    }

    /// Files below `dir` named like tabicon's temporaries.
    static func temporaries(_ dir: TemporaryDirectory) -> [String] {
        allEntries(dir.url.path).filter { TemporaryName.matches(($0 as NSString).lastPathComponent) }
    }

    /// Every entry below `path`, hidden ones included (`TemporaryDirectory.files` sees those too,
    /// but not links).
    static func allEntries(_ path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
    }

    /// Batch inputs for every file below `folder` (the CLI's walk is not under test here).
    static func batchInputs(_ dir: TemporaryDirectory, _ names: [String]) -> [BatchInput] {
        names.map { name in
            let path = dir.path("icons/" + name)
            return BatchInput(
                name: "icons/" + name, outputStem: "icons/" + (name as NSString).deletingPathExtension,
                load: { () throws(TabIconsError) -> Data in try InputReader.read(URL(fileURLWithPath: path)) },
                sourcePath: path)
        }
    }
}
