import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// The manifest's one model (SPEC §6, §6a "One record"): written in SPEC §6's order and layout,
/// read back with `JSONDecoder` into the same value; what a run reads back is untrusted, so a
/// document that is not one is refused and an entry that does not decode or names a path that is
/// not plain is ignored with a warning, never reused, pruned or listed.
@Suite("Manifest coding")
struct ManifestCodingTests {
    /// A manifest using every key: a vector file, per-icon options, twins, lints, an inspect-like
    /// icon without renditions, error entries with kept files, folders, escapes.
    static func sample(icons count: Int = 3) -> Manifest {
        let fingerprint = OptionFingerprint(options: NormalizeOptions(), layout: .xcassets, format: .png)
        var manifest = Manifest(box: IconBox(points: 25)!, scales: [1, 2, 3], options: fingerprint)
        for index in 0..<count {
            let name = index == 1 ? "tab \u{1}\"é\\😀" : "icon\(index)"
            var icon = Manifest.Icon(
                input: "icons/\(name).svg", name: name,
                info: ImageInfo(
                    format: .svg, pixelWidth: 24, pixelHeight: 24, hasAlpha: true, hasTransparentPixels: true, bitDepth: 8,
                    colorModel: .rgb),
                contentHash: ContentHash(of: Array(name.utf8)), decodeScale: 0.96, pointWidth: 25, pointHeight: 24.5,
                renditions: nil, lints: index == 0 ? [] : [Lint(.notSquare, "is 24 × 23"), Lint(.padding, "pad\n")])
            icon.vector = index % 2 == 0 ? true : nil
            icon.intent = index == 2 ? .original : .template
            if index != 2 {
                icon.renditions = [1.0, 2, 3].map { scale in
                    Manifest.RenditionEntry(
                        scale: scale, path: "icons/\(name)@\(Int(scale))x.png", pixelWidth: Int(25 * scale),
                        pixelHeight: Int(25 * scale), bytes: 400 + index,
                        hash: "xxh3-128:ddc583e5eee1ef3a4a2a16e1056c33e\(index)")
                }
                icon.contentsFile = Manifest.FileEntry(
                    path: "icons/\(name).imageset/Contents.json", bytes: 300, hash: "xxh3-128:00")
            }
            if index == 0 {
                icon.vectorFile = Manifest.FileEntry(path: "icons/\(name).svg", bytes: 1200, hash: "xxh3-128:01")
                icon.options = OptionFingerprint(
                    options: NormalizeOptions(scales: [2], shape: .circle), layout: .xcassets, format: .webp(quality: 80))
                icon.selectedTwin = "icons/icon0-filled.svg"
                icon.darkTwin = "icons/icon0-dark.svg"
            }
            manifest.icons.append(icon)
        }
        var failed = Manifest.ErrorEntry(input: "icons/broken.png", error: TabIconsError(.truncated, "ends early"))
        failed.keptFiles = [
            Manifest.FileEntry(path: "icons/broken.png", bytes: 12, hash: "xxh3-128:02"),
            Manifest.FileEntry(path: "icons/broken@2x.png", bytes: 13, hash: "xxh3-128:03")
        ]
        manifest.errors = [failed, Manifest.ErrorEntry(input: "x\u{1}\"é", error: TabIconsError(.io, "gone\n"))]
        manifest.folders = ["icons", "icons/icon0.imageset"]
        return manifest
    }

    @Test("every key written in SPEC §6's order, scalars' containers on one line, and read back into the same value")
    func roundTrip() throws {
        let manifest = Self.sample()
        let text = String(decoding: manifest.jsonBytes, as: UTF8.self)
        #expect(try Manifest(parsing: manifest.jsonData()) == manifest)
        #expect(text.hasSuffix("}\n"))
        // The keys of SPEC §6, in its order, then the optional ones where they are set.
        let order = ["\"version\"", "\"tool\"", "\"box\"", "\"scales\"", "\"options\"", "\"icons\"", "\"errors\"", "\"folders\""]
        let places = order.map { text.range(of: "\n  " + $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil } && places.map { $0! } == places.map { $0! }.sorted())
        #expect(
            text.contains(
                #"{"scale": 2, "path": "icons/icon0@2x.png", "pixelWidth": 50, "pixelHeight": 50, "bytes": 400, "hash": "xxh3-128:ddc583e5eee1ef3a4a2a16e1056c33e0"}"#
            ))
        #expect(text.contains(#""input": "x\u0001\"é", "code": "io", "message": "gone\n"}"#))
        #expect(text.contains(#""folders": ["icons", "icons/icon0.imageset"]"#))
        // No stat record of any kind: the same inputs give the same bytes on any machine.
        for key in ["stat", "inputStat", "mtime", "inode"] { #expect(!text.contains("\"\(key)\"")) }
        // An inspect document: no options, no folders.
        var inspect = manifest
        inspect.options = nil
        let inspectText = String(decoding: inspect.jsonBytes, as: UTF8.self)
        #expect(!inspectText.contains("\n  \"folders\"") && !inspectText.contains("\n  \"options\""))
        // A fragment's lint thresholds: written after the options, and read back by our writer's
        // reader and through Foundation's own encoder (the type's Codable conformance).
        var fragment = manifest
        fragment.lintThresholds = SetLints.Thresholds()
        fragment.lintThresholds?.offCentre = 0.75
        let fragmentText = String(decoding: fragment.jsonBytes, as: UTF8.self)
        #expect(fragmentText.contains(#""lints": {"strokeMismatch": 0.15, "opticalSizeMismatch": 1, "offCentre": 0.75}"#))
        #expect(try Manifest(parsing: fragment.jsonData()) == fragment)
        #expect(try JSONDecoder().decode(Manifest.self, from: JSONEncoder().encode(fragment)) == fragment)
    }

    @Test("stats carried in memory for the stat cache are neither written nor compared")
    func statsStayOutOfTheRecord() throws {
        var manifest = Self.sample()
        let plain = manifest
        let stat = FileStat(size: 1, mtime: 2, ctime: 3, inode: 4, device: 5)
        manifest.icons[0].inputStat = stat
        manifest.icons[0] = manifest.icons[0].withFileStats { _ in stat }
        #expect(manifest.icons[0].ownedFiles.allSatisfy { $0.stat == stat })
        #expect(manifest == plain && manifest.jsonBytes == plain.jsonBytes)
    }

    @Test("a document that is not a manifest is corrupt, naming what is wrong: not JSON, a key missing, a wrong type")
    func refusedDocuments() throws {
        let good = String(decoding: Self.sample().jsonBytes, as: UTF8.self)
        let cases: [(String, String)] = [
            ("", "not a tabicon manifest: not JSON"),
            (String(good.dropLast(20)), "not a tabicon manifest: not JSON"),
            (#"{"name": "My App"}"#, "not a tabicon manifest: version is missing"),
            (
                good.replacingOccurrences(of: #""box": 25"#, with: #""box": "25""#),
                "not a tabicon manifest: box has the wrong type"
            ),
            (
                good.replacingOccurrences(of: #""code": "io""#, with: #""code": 7"#),
                "not a tabicon manifest: errors.[1].code has the wrong type"
            ),
            ("[]", "not a tabicon manifest: the document has the wrong type")
        ]
        for (text, message) in cases {
            #expect(throws: TabIconsError(.corrupt, message)) { try Manifest(parsing: Data(text.utf8)) }
        }
        // Nesting far past any manifest's: refused as not JSON, never a crash.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: TabIconsError.self) { try Manifest(parsing: Data(deep.utf8)) }
    }

    @Test(
        "the previous run: an entry that does not decode, or names a NUL, climbing or absolute path, or too many renditions, is ignored with a warning; the others kept"
    )
    func previousRunIgnoresBadEntries() throws {
        let dir = try TemporaryDirectory("manifest-coding")
        var manifest = Self.sample(icons: 6)
        manifest.icons[1].renditions?[0].path = "icons/a\u{0}b.png"
        manifest.icons[0].vectorFile?.path = "../victims/v.svg"
        manifest.icons[3].contentsFile?.path = "/etc/passwd"
        manifest.icons[4].renditions = Array(repeating: manifest.icons[4].renditions![0], count: 33)
        let path = dir.path("manifest.json")
        var text = String(decoding: manifest.jsonBytes, as: UTF8.self)
        // Entry 6 (icon5) with a wrong type for a required key.
        text = text.replacingOccurrences(of: #""name": "icon5""#, with: #""name": 5"#)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let journal = RunJournal(manifestPath: path)
        let previous = try PreviousRun(manifestPath: path, fingerprint: manifest.options!, journal: journal)
        #expect(previous.warnings.count == 5)
        #expect(previous.warnings.filter { $0.hasPrefix("ignored the previous manifest's entry for icons/") }.count == 4)
        #expect(previous.warnings.contains("ignored the previous manifest's entry number 6: icons.[5].name has the wrong type"))
        #expect(previous.warnings.contains { $0.contains("more renditions than 32") })
        #expect(previous.entry(ofInput: manifest.icons[2].input) == manifest.icons[2])
        for index in [0, 1, 3, 4, 5] { #expect(previous.entry(ofInput: manifest.icons[index].input) == nil) }
        // Never pruned either: only the kept entry's and the errors' files are stale candidates.
        let stale = previous.staleFiles(keeping: { _ in false }).map(\.path)
        #expect(Set(stale) == Set(manifest.icons[2].ownedFiles.map(\.path) + manifest.errors[0].keptFiles.map(\.path)))
        #expect(previous.files(ofInput: manifest.icons[2].input) == manifest.icons[2].ownedFiles)
        #expect(previous.text == Array(text.utf8))
    }

    @Test("a file there that is not a manifest, or is over the cap, is a usage error; another version's options redo every icon")
    func previousRunRefusals() throws {
        let dir = try TemporaryDirectory("manifest-coding")
        let path = dir.path("manifest.json")
        let fingerprint = Self.sample().options!
        let journal = RunJournal(manifestPath: path)
        try Data(#"{"name": "My App"}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: BatchUsageError.self) { try PreviousRun(manifestPath: path, fingerprint: fingerprint, journal: journal) }
        var other = Self.sample()
        other.tool = "sometool 1"
        try other.jsonData().write(to: URL(fileURLWithPath: path))
        #expect(throws: BatchUsageError.self) { try PreviousRun(manifestPath: path, fingerprint: fingerprint, journal: journal) }
        #expect(truncate(path, off_t(UntrustedFile.cap + 1)) == 0)  // sparse: no disk
        do {
            _ = try PreviousRun(manifestPath: path, fingerprint: fingerprint, journal: journal)
            Issue.record("a manifest over the cap was read")
        } catch {
            #expect(error.description.contains("\(UntrustedFile.cap + 1) bytes"))
        }
        // Options of another version (a key renamed): read, equal to nothing, so nothing is reused.
        let text = String(decoding: Self.sample().jsonBytes, as: UTF8.self).replacingOccurrences(
            of: "\"trim\"", with: "\"trimmed\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let read = try Manifest(parsing: Data(text.utf8))
        #expect(read.options != nil && read.options != fingerprint && read.options != read.options)
        #expect(read.icons[0].options != nil && read.icons[0].options != Self.sample().icons[0].options)
        _ = try PreviousRun(manifestPath: path, fingerprint: fingerprint, journal: journal)
    }

    @Test(
        "a manifest of an older version (stat records inside) is read, its icons reused by hash, and written again without them")
    func olderManifestWithStats() throws {
        let names = ["bell.png", "home.png"]
        let dir = try BuildStep.inputs(names.map { ($0, $0) })
        let out = try TemporaryDirectory("manifest-older")
        let batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 2)
        _ = try batch.run(BuildStep.batchInputs(dir, names))
        let path = out.path("manifest.json")
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        // What an older version wrote: a stat object in each rendition and an inputStat per icon;
        // and a run index beside it.
        let stat = #", "stat": {"size": 1, "mtime": 2, "ctime": 3, "inode": 4, "device": 5}}"#
        let older = String(decoding: written, as: UTF8.self)
            .replacingOccurrences(of: "\"}", with: "\"" + stat)
            .replacingOccurrences(
                of: #""lints": ["#,
                with: #""inputStat": {"size": 1, "mtime": 2, "ctime": 3, "inode": 4, "device": 5}, "lints": ["#)
        #expect(older.contains("\"stat\"") && older.contains("\"inputStat\""))
        try Data(older.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: StatCache.path(manifestPath: path))
        try Data("tabicon index 3\nrecords".utf8).write(to: URL(fileURLWithPath: path + ".index"))
        let again = try batch.run(BuildStep.batchInputs(dir, names))
        #expect(again.counts.reused == names.count && again.counts.normalized == 0)
        #expect(again.changes.map(\.kind) == [.change])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
        #expect(!FileManager.default.fileExists(atPath: path + ".index"))
        // A file of that name that is not a run index is not tabicon's: left alone.
        try Data("notes".utf8).write(to: URL(fileURLWithPath: path + ".index"))
        _ = try batch.run(BuildStep.batchInputs(dir, names))
        #expect(FileManager.default.fileExists(atPath: path + ".index"))
    }

    @Test("a manifest text past the limit is tooLarge: the file there untouched, the journal kept, no temporary left")
    func writeLimit() throws {
        let names = ["bell.png", "home.png"]
        let dir = try BuildStep.inputs(names.map { ($0, $0) })
        let out = try TemporaryDirectory("manifest-limit")
        var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 1)
        _ = try batch.run(BuildStep.batchInputs(dir, ["bell.png"]))
        let path = out.path("manifest.json")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        batch.manifestLimit = before.count + 10
        let result = try batch.run(BuildStep.batchInputs(dir, names))
        #expect(result.manifestError?.code == .tooLarge)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(FileManager.default.fileExists(atPath: path + ".journal"))
        #expect(BuildStep.temporaries(out).isEmpty)
        // The next run with room writes it, and the journal goes.
        batch.manifestLimit = UntrustedFile.cap
        let again = try batch.run(BuildStep.batchInputs(dir, names))
        #expect(again.manifestError == nil && again.counts.written == 0)
        #expect(again.manifest.icons.count == names.count)
        #expect(!FileManager.default.fileExists(atPath: path + ".journal"))
    }

    @Test("journal lines: a file or a folder with a plain path each; anything else counted and ignored with one warning")
    func journalLines() throws {
        let dir = try TemporaryDirectory("journal")
        let manifestPath = dir.path("manifest.json")
        let lines = [
            #"{"file": {"path": "a.png", "bytes": 1, "hash": "h"}}"#, #"{"folder": "icons"}"#,
            #"{"file": {"path": "b.png", "bytes": 1, "hash": "h", "stat": 3}}"#,
            #"{"file": {"path": "a.png"}}"#, #"{"file": {"path": "../x.png", "bytes": 1, "hash": "h"}}"#,
            #"{"folder": "/etc"}"#, #"{"folder": "x""#, #"[]"#, #"{"folder": 1}"#
        ]
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: manifestPath + ".journal"))
        let entries = RunJournal(manifestPath: manifestPath).read()
        #expect(entries.files.map(\.path) == ["a.png", "b.png"])
        #expect(entries.folders == ["icons"])
        #expect(
            entries.warnings == ["ignored 6 lines of the journal \(manifestPath).journal that name no plain path below --out"])
    }
}
