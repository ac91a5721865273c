import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
@testable import TabIconsBatch
import TabIconsTestSupport

/// The property behind SPEC §6a "What it reads back is untrusted": for any previous manifest —
/// paths with `..`, absolute paths, paths through a planted link, `.` and empty components, NUL,
/// the real sizes and hashes of files outside `--out` and of the inputs — the planner never
/// removes, or lists for removal, anything but a file tabicon wrote below `--out` that still
/// holds its recorded bytes, and never an input.
@Suite("Hostile previous manifests: the property")
struct HostileManifestPropertyTests {
    /// root/out (tabicon's outputs, an input below it, a link to the victims),
    /// root/victims (outside --out), root/icons (inputs).
    struct Sandbox {
        let dir: TemporaryDirectory
        var out: String { dir.path("out") }
        /// Relative to out → (bytes, hash): the files a manifest may legitimately own.
        var owned: [String: Manifest.FileEntry] = [:]
        /// Every file a hostile entry may aim at, with its real size and hash, as a manifest path.
        var targets: [Manifest.FileEntry] = []
        var inputs: [BatchInput] = []
        var protected: [String] = []

        init() throws {
            dir = try TemporaryDirectory("hostile")
            let fm = FileManager.default
            for folder in ["out/icons", "out/in", "victims", "icons"] {
                try fm.createDirectory(atPath: dir.path(folder), withIntermediateDirectories: true)
            }
            func put(_ path: String, _ text: String) throws -> Manifest.FileEntry {
                let data = Data(text.utf8)
                try data.write(to: URL(fileURLWithPath: dir.path(path)))
                return Manifest.FileEntry(path: path, bytes: data.count, hash: ContentHash(of: data).description)
            }
            for name in ["icons/a.png", "icons/a@2x.png", "icons/b.png"] {
                let entry = try put("out/" + name, "output " + name)
                owned[name] = .init(path: name, bytes: entry.bytes, hash: entry.hash)
            }
            let victim = try put("victims/v.txt", "precious")
            let outsideInput = try put("icons/home.png", "input outside")
            let insideInput = try put("out/in/home.png", "input inside --out")
            try fm.createSymbolicLink(atPath: dir.path("out/link"), withDestinationPath: dir.path("victims"))
            protected = [dir.path("victims/v.txt"), dir.path("icons/home.png"), dir.path("out/in/home.png")]
            func aimed(_ entry: Manifest.FileEntry, _ paths: [String]) -> [Manifest.FileEntry] {
                paths.map { .init(path: $0, bytes: entry.bytes, hash: entry.hash) }
            }
            targets =
                aimed(
                    victim,
                    [
                        "../victims/v.txt", dir.path("victims/v.txt"), "link/v.txt", "./../victims/v.txt",
                        "icons/../../victims/v.txt", "in/../../victims/v.txt", "../out/../victims/v.txt"
                    ])
                + aimed(outsideInput, ["../icons/home.png", dir.path("icons/home.png"), "link/../../icons/home.png"])
                + aimed(insideInput, ["in/home.png", "./in/home.png", "in//home.png", dir.path("out/in/home.png")])
                + ["", ".", "..", "/", "icons/", "icons/a.png\u{0}x", "in"].map { .init(path: $0, bytes: 8, hash: victim.hash) }
                + Array(owned.values)
            inputs = [dir.path("icons/home.png"), dir.path("out/in/home.png")].map { path in
                BatchInput(name: path, outputStem: "x", load: { Data() }, sourcePath: path)
            }
        }

        /// A manifest of random entries aimed at the targets, some with a wrong hash.
        func randomManifest(_ random: inout SeededGenerator) -> Manifest {
            var manifest = Manifest(box: .regular, scales: [1, 2, 3])
            func file() -> Manifest.FileEntry {
                var entry = targets.randomElement(using: &random)!
                if Int.random(in: 0..<6, using: &random) == 0 { entry.hash = "xxh3-128:" + String(repeating: "0", count: 32) }
                return entry
            }
            for index in 0..<Int.random(in: 0...4, using: &random) {
                let renditions = (0..<Int.random(in: 0...3, using: &random)).map { scale in
                    let entry = file()
                    return Manifest.RenditionEntry(
                        scale: Double(scale + 1), path: entry.path, pixelWidth: 1, pixelHeight: 1,
                        bytes: entry.bytes, hash: entry.hash)
                }
                let info = ImageInfo(
                    format: .png, pixelWidth: 1, pixelHeight: 1, hasAlpha: true, hasTransparentPixels: true,
                    bitDepth: 8, colorModel: .rgba)
                var icon = Manifest.Icon(
                    input: "icons/i\(index).png", name: "i\(index)", info: info,
                    contentHash: ContentHash(of: Data()), decodeScale: 1, pointWidth: 1,
                    pointHeight: 1, renditions: renditions, lints: [])
                if Bool.random(using: &random) { icon.contentsFile = file() }
                manifest.icons.append(icon)
            }
            for index in 0..<Int.random(in: 0...2, using: &random) {
                var entry = Manifest.ErrorEntry(input: "icons/e\(index).png", error: TabIconsError(.io, "x"))
                entry.keptFiles = (0..<Int.random(in: 1...2, using: &random)).map { _ in file() }
                manifest.errors.append(entry)
            }
            manifest.folders = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                ["icons", "in", "link", "..", "../victims", dir.path("victims"), "icons/..", ""].randomElement(using: &random)!
            }
            return manifest
        }
    }

    @Test("10,000 random previous manifests: never a removal outside --out, of an input, or of bytes tabicon did not record")
    func property() throws {
        let sandbox = try Sandbox()
        let manifestPath = sandbox.dir.path("manifest.json")
        let plan = try OutputPlan.make(
            sandbox.inputs,
            .init(
                layout: .flat, fileExtension: "png", scales: [1, 2, 3],
                outputRoot: sandbox.out, manifestPath: manifestPath,
                inputFolders: []))
        let directory = try OutputDirectory(root: sandbox.out, create: false, sparing: plan.spared)
        let journal = RunJournal(manifestPath: manifestPath)
        let fingerprint = OptionFingerprint(options: NormalizeOptions(), layout: .flat, format: .png)
        var random = SeededGenerator(seed: 18)
        var removedAtLeastOnce: Set<String> = []
        for trial in 0..<10_000 {
            let manifest = sandbox.randomManifest(&random)
            try manifest.jsonData().write(to: URL(fileURLWithPath: manifestPath))
            let previous = try PreviousRun(manifestPath: manifestPath, fingerprint: fingerprint, journal: journal)
            let produced: Set<String> = Bool.random(using: &random) ? ["icons/a.png"] : []
            let stale = previous.staleFiles(keeping: produced.contains)
            // Every 50th trial removes for real (and puts back what it removed); the rest ask the
            // gate the same question without removing.
            let real = trial % 50 == 0
            let removed = Pruning.remove(
                stale, in: directory, madeFolders: previous.folders, dryRun: !real,
                producedFolding: { folded in produced.filter { $0.lowercased() == folded } })
            // Only the one folder of tabicon's files, emptied, when the manifest says tabicon made it.
            #expect(removed.folders.isSubset(of: ["icons"]), "trial \(trial) removed folders \(removed.folders)")
            if real { try FileManager.default.createDirectory(atPath: sandbox.out + "/icons", withIntermediateDirectories: true) }
            for path in removed.files {
                let owned = try #require(sandbox.owned[path], "trial \(trial) removed \(path.debugDescription)")
                #expect(stale.contains { $0.path == path && $0.hash == owned.hash })
                removedAtLeastOnce.insert(path)
                if real { try Data("output \(path)".utf8).write(to: URL(fileURLWithPath: sandbox.out + "/" + path)) }
            }
        }
        for path in sandbox.protected {
            #expect(FileManager.default.fileExists(atPath: path), "\(path) is gone")
        }
        #expect(try String(contentsOfFile: sandbox.dir.path("victims/v.txt"), encoding: .utf8) == "precious")
        #expect(try String(contentsOfFile: sandbox.dir.path("out/in/home.png"), encoding: .utf8) == "input inside --out")
        // The property is not vacuous: tabicon's own stale files were removed when recorded right.
        #expect(removedAtLeastOnce == Set(sandbox.owned.keys))
    }
}
