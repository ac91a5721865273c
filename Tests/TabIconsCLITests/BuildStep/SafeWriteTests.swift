import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// SPEC §6a "Nothing outside `--out`", "Whole sets", "Nothing skipped in silence".
@Suite("Safe writes")
struct SafeWriteTests {
    @Test("a folder link planted in --out writes nothing outside: the inputs it would redirect are io errors")
    func plantedFolderLink() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("sub/bell.png", "bell.png")])
        let out = try TemporaryDirectory("out")
        let elsewhere = try TemporaryDirectory("elsewhere")
        try FileManager.default.createDirectory(atPath: out.path("icons"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out.path("icons/sub"), withDestinationPath: elsewhere.url.path)
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .someInputsFailed)
        #expect(BuildStep.allEntries(elsewhere.url.path).isEmpty)
        let m = try BuildStep.manifest(out.path("manifest.json"))
        #expect(m.icons.map(\.name) == ["home"])
        #expect(m.errors.map(\.code) == ["io"])
        #expect(m.errors.first?.message == "icons/sub in \(out.url.path) is a symbolic link; tabicon follows no link below --out")
    }

    @Test("a file link planted at an output path is not written through")
    func plantedFileLink() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let out = try TemporaryDirectory("out")
        let elsewhere = try TemporaryDirectory("elsewhere")
        try Data("theirs".utf8).write(to: elsewhere.url.appendingPathComponent("target.png"))
        try FileManager.default.createDirectory(atPath: out.path("icons"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: out.path("icons/home@2x.png"), withDestinationPath: elsewhere.path("target.png"))
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .someInputsFailed)
        #expect(try String(contentsOfFile: elsewhere.path("target.png"), encoding: .utf8) == "theirs")
        // The whole set is refused: no 1x or 3x either.
        #expect(BuildStep.allEntries(out.path("icons")) == ["home@2x.png"])
    }

    @Test("temporaries a killed run left are removed by the next run: its own pattern only, only where it writes")
    func staleTemporaries() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let out = try TemporaryDirectory("out")
        try FileManager.default.createDirectory(atPath: out.path("icons"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: out.path("other"), withIntermediateDirectories: true)
        for path in [
            "icons/.tabicon-0123abcd.tmp", "icons/.tabicon-notmine.tmp", "icons/.home.png.swp",
            "other/.tabicon-0123abcd.tmp", ".tabicon-89abcdef.tmp"
        ] {
            try Data().write(to: out.url.appendingPathComponent(path))
        }
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .success)
        #expect(BuildStep.temporaries(out) == ["other/.tabicon-0123abcd.tmp"])
        #expect(FileManager.default.fileExists(atPath: out.path("icons/.tabicon-notmine.tmp")))
        #expect(FileManager.default.fileExists(atPath: out.path("icons/.home.png.swp")))
    }

    @Test(
        "a run killed while its new manifest was half written (a --manifest outside --out): the next run removes that temporary before writing, the previous manifest stood till then"
    )
    func killedDuringTheManifest() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png")])
        let out = try TemporaryDirectory("out")
        let build = out.path("build")
        let manifest = build + "/m.json"
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.path("res"), "--manifest", manifest]) == .success)
        let before = try Data(contentsOf: URL(fileURLWithPath: manifest))
        // What a killed run leaves: its manifest's text up to the first change, at a temporary name.
        try Data(before.prefix(100)).write(to: URL(fileURLWithPath: build + "/.tabicon-0badf00d.tmp"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: manifest)) == before)
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.path("res"), "--manifest", manifest, "--scales", "1,2"]) == .success)
        #expect(try FileManager.default.contentsOfDirectory(atPath: build).sorted() == ["m.json", "m.json.stat-cache"])
        #expect(try BuildStep.manifest(manifest).scales == [1, 2])
        let check = [dir.path("icons"), "-o", out.path("res"), "--manifest", manifest, "--scales", "1,2", "--check"]
        #expect(BuildStep.cli(check) == .success)
    }

    @Test("a final name of 240 bytes is written: the temporary name is short")
    func longNames() throws {
        let name = String(repeating: "n", count: 236) + ".png"
        let dir = try BuildStep.inputs([(name, "home.png")])
        let out = try TemporaryDirectory("out")
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .success)
        #expect(out.files().contains("icons/" + String(repeating: "n", count: 236) + "@3x.png"))
    }

    @Test("a name that is not UTF-8 is an io error, not a silent skip")
    func nonUTF8Name() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let raw = Array(dir.path("icons").utf8) + Array("/bad-\u{FF}".utf8.prefix(5)) + [0xFF] + Array(".png".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o644)
        }
        #expect(fd >= 0)
        close(fd)
        let out = try TemporaryDirectory("out")
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .someInputsFailed)
        let m = try BuildStep.manifest(out.path("manifest.json"))
        #expect(m.icons.map(\.name) == ["home"])
        #expect(m.errors.map(\.input) == [dir.path("icons") + "/bad-\u{FFFD}.png"])
        #expect(m.errors.map(\.message) == ["the file name is not valid UTF-8; rename it"])
    }

    @Test("a link to nothing named like an image is an io error; other dangling links are not inputs")
    func danglingLink() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        try FileManager.default.createSymbolicLink(atPath: dir.path("icons/ghost.png"), withDestinationPath: "missing.png")
        try FileManager.default.createSymbolicLink(atPath: dir.path("icons/notes"), withDestinationPath: "missing.txt")
        let out = try TemporaryDirectory("out")
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .someInputsFailed)
        let m = try BuildStep.manifest(out.path("manifest.json"))
        #expect(m.icons.map(\.name) == ["home"])
        #expect(m.errors.map(\.input) == [dir.path("icons") + "/ghost.png"])
        #expect(m.errors.map(\.message) == ["a symbolic link to nothing: no such file or directory"])
    }

    @Test(
        "an unreadable folder is an io error, not a silent skip",
        .enabled(if: getuid() != 0, "root reads any folder whatever its mode"))
    func unreadableFolder() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("locked/bell.png", "bell.png")])
        #expect(chmod(dir.path("icons/locked"), 0) == 0)
        defer { chmod(dir.path("icons/locked"), 0o755) }
        let out = try TemporaryDirectory("out")
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .someInputsFailed)
        let m = try BuildStep.manifest(out.path("manifest.json"))
        #expect(m.errors.map(\.input) == [dir.path("icons") + "/locked"])
        #expect(m.errors.map(\.message) == ["cannot read the folder: permission denied"])
    }

    @Test("a file made in pieces is written up to its limit exactly; one byte more is tooLarge, the file there untouched")
    func writeLimit() throws {
        let dir = try TemporaryDirectory("limit")
        let path = dir.path("m.json")
        let pieces: [[UInt8]] = [Array(repeating: 0x61, count: 5), Array(repeating: 0x62, count: 4)]
        try AtomicFileWriter.write(toPath: path, limit: 9) { put in for piece in pieces { _ = put(piece) } }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(pieces.joined()))
        var asked = 0
        #expect(throws: TabIconsError.self) {
            try AtomicFileWriter.write(toPath: path, limit: 8) { put in
                for piece in pieces + pieces { asked += 1; guard put(piece) else { return } }
            }
        }
        #expect(asked == 2)  // no piece taken after the one past the limit
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(pieces.joined()))
        #expect(dir.files() == ["m.json"])
        do {
            try AtomicFileWriter.write(toPath: path, limit: 8) { put in _ = put(pieces.joined().map { $0 }) }
            Issue.record("nine bytes written under a limit of eight")
        } catch {
            #expect(error.code == .tooLarge)
        }
    }

    @Test("a write that fails midway leaves the icon's previous files exactly as they were")
    func failedWriteKeepsPreviousSet() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let out = try TemporaryDirectory("out")
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .success)
        let before = try out.snapshot()
        // The 3x path becomes a folder: its rename must fail, after 1x and 2x were staged.
        try BuildStep.put("search.png", at: "icons/home.png", in: dir)
        try FileManager.default.removeItem(atPath: out.path("icons/home@3x.png"))
        try FileManager.default.createDirectory(atPath: out.path("icons/home@3x.png/x"), withIntermediateDirectories: true)
        let stamps = BuildStep.stamps(out)
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .someInputsFailed)
        #expect(BuildStep.temporaries(out).isEmpty)
        var after = try out.snapshot()
        #expect(after.removeValue(forKey: "manifest.json") != nil)
        #expect(after.removeValue(forKey: "manifest.json.stat-cache") != nil)
        var expected = before
        expected.removeValue(forKey: "icons/home@3x.png")
        expected.removeValue(forKey: "manifest.json")
        #expect(expected.removeValue(forKey: "manifest.json.stat-cache") != nil)
        #expect(after == expected)
        #expect(
            BuildStep.stamps(out).filter { !$0.key.hasPrefix("manifest.json") }
                == stamps.filter { !$0.key.hasPrefix("manifest.json") })
        // Still tabicon's: the error entry lists them, and the next good run replaces them.
        let m = try BuildStep.manifest(out.path("manifest.json"))
        #expect(m.errors.first?.keptFiles.map(\.path) == ["icons/home.png", "icons/home@2x.png"])
        try FileManager.default.removeItem(atPath: out.path("icons/home@3x.png"))
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .success)
        #expect(try out.snapshot()["icons/home.png"] != before["icons/home.png"])
        #expect(try BuildStep.manifest(out.path("manifest.json")).errors.isEmpty)
    }
}

/// A full disk, on a small tmpfs: every icon's set stays whole (old or new), no temporary remains.
@Suite("Full disk", .enabled(if: FullDisk.canMount, "needs root and mount -t tmpfs (a container without CAP_SYS_ADMIN cannot)"))
struct FullDiskTests {
    @Test("a run that fills the disk leaves every icon's old set or its new set, whole, and no temporary")
    func fullDisk() throws {
        let disk = try FullDisk(kilobytes: 256)
        defer { disk.unmount() }
        let names = (0..<12).map { "icon\($0).png" }
        let dir = try BuildStep.inputs(names.enumerated().map { ($1, BuildStep.glyphs[$0 % 8]) })
        let out = disk.root + "/out"
        #expect(BuildStep.cli([dir.path("icons"), "-o", out]) == .success)
        let old = try BuildStep.manifest(out + "/manifest.json")
        // Fill the disk to its last two pages (tmpfs gives each file whole 4 KiB pages), so no
        // icon's three new files fit beside its old ones; then give every input new pixels.
        try disk.fill(leaving: 8 << 10)
        for (index, name) in names.enumerated() {
            try BuildStep.put(BuildStep.glyphs[(index + 3) % 8], at: "icons/" + name, in: dir)
        }
        let status = BuildStep.cli([dir.path("icons"), "-o", out])
        #expect(status == .someInputsFailed)
        #expect(BuildStep.allEntries(out).allSatisfy { !TemporaryName.matches(($0 as NSString).lastPathComponent) })
        let reference = try TemporaryDirectory("reference")
        #expect(BuildStep.cli([dir.path("icons"), "-o", reference.url.path]) == .success)
        let new = try BuildStep.manifest(reference.path("manifest.json"))
        var sawOld = false
        for (index, icon) in old.icons.enumerated() {
            let hashes = try icon.ownedFiles.map { file in
                ContentHash(of: try Data(contentsOf: URL(fileURLWithPath: out + "/" + file.path))).description
            }
            let isOld = hashes == icon.ownedFiles.map(\.hash)
            let isNew = hashes == new.icons[index].ownedFiles.map(\.hash)
            #expect(isOld || isNew, "\(icon.name) is a mix of old and new files")
            sawOld = sawOld || isOld
        }
        #expect(sawOld, "the disk never filled: the test proved nothing")
    }
}

/// A small tmpfs mounted for one test.
struct FullDisk {
    let root: String

    static let canMount: Bool = {
        guard getuid() == 0, let disk = try? FullDisk(kilobytes: 64) else { return false }
        disk.unmount()
        return true
    }()

    init(kilobytes: Int) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        guard mount("tmpfs", root, "tmpfs", 0, "size=\(kilobytes)k") == 0 else {
            try? FileManager.default.removeItem(atPath: root)
            throw TabIconsError(.io, "mount: \(TabIconsError.systemReason())")
        }
    }

    /// Writes a filler file until only `bytes` are free.
    func fill(leaving bytes: Int) throws {
        var info = statvfs()
        guard statvfs(root, &info) == 0 else { throw TabIconsError(.io, "statvfs") }
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        try Data(count: max(0, free - bytes)).write(to: URL(fileURLWithPath: root + "/filler"))
    }

    func unmount() {
        umount(root)
        try? FileManager.default.removeItem(atPath: root)
    }
}
