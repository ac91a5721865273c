import Foundation
import Testing
@testable import TabIcons
@testable import TabIconsCore
@testable import TabIconsCodecs
@testable import TabIconsNormalize
@testable import TabIconsBatch

/// The streamed manifest reader and writer (issue 23): the reader answers what reading the whole
/// tree answered (`TreeManifest`, the reader it replaced, kept here as the reference) on every
/// manifest the untrusted-state tests use and on thousands of hostile variants, from memory and
/// from a file in chunks of any size; the writer's bytes are the whole document's.
@Suite("Manifest reader and writer, streamed")
struct ManifestReaderTests {
    /// A manifest using every key: stats, a vector file, per-icon options, twins, lints, an
    /// inspect-like icon without renditions, error entries with kept files, folders, escapes.
    static func sample(icons count: Int = 3) -> Manifest {
        let stat = FileStat(
            size: 407, mtime: 1_796_148_417_307_046_461, ctime: 1_796_148_417_311_046_461,
            inode: 16_285_928, device: 65024)
        let fingerprint = OptionFingerprint(options: NormalizeOptions(), layout: .xcassets, format: .png)
        var manifest = Manifest(box: IconBox(points: 25)!, scales: [1, 2, 3], options: fingerprint)
        for index in 0..<count {
            let name = index == 1 ? "tab \u{1}\"é\\😀" : "icon\(index)"
            var icon = Manifest.Icon(
                input: "icons/\(name).svg", name: name, format: "svg", pixelWidth: 24, pixelHeight: 24,
                orientation: 1, hasAlpha: true, animated: false,
                contentHash: "xxh3-128:c552937c6294d80ee60c9d77aefd44\(index % 10)c",
                decodeScale: 0.96, pointWidth: 25, pointHeight: 24.5,
                lints: index == 0 ? [] : [Lint(.notSquare, "is 24 × 23"), Lint(.padding, "pad\n")])
            icon.vector = index % 2 == 0 ? true : nil
            icon.intent = index == 2 ? .original : .template
            if index != 2 {
                icon.renditions = [1.0, 2, 3].map { scale in
                    var entry = Manifest.RenditionEntry(
                        scale: scale, path: "icons/\(name)@\(Int(scale))x.png",
                        pixelWidth: Int(25 * scale), pixelHeight: Int(25 * scale),
                        bytes: 400 + index, hash: "xxh3-128:ddc583e5eee1ef3a4a2a16e1056c33e\(index)")
                    entry.stat = scale == 2 ? nil : stat
                    return entry
                }
                icon.contentsFile = Manifest.FileEntry(
                    path: "icons/\(name).imageset/Contents.json", bytes: 300, hash: "xxh3-128:00", stat: stat)
                icon.inputStat = stat
            }
            if index == 0 {
                icon.vectorFile = Manifest.FileEntry(path: "icons/\(name).svg", bytes: 1200, hash: "xxh3-128:01", stat: stat)
                icon.options = OptionFingerprint(json: .object([("shape", .string("circle")), ("scales", .array([.int(2)]))]))
                icon.selectedTwin = "icons/icon0-filled.svg"
                icon.darkTwin = "icons/icon0-dark.svg"
            }
            manifest.icons.append(icon)
        }
        var failed = Manifest.ErrorEntry(input: "icons/broken.png", error: TabIconsError(.truncated, "ends early"))
        failed.keptFiles = [
            Manifest.FileEntry(path: "icons/broken.png", bytes: 12, hash: "xxh3-128:02", stat: stat),
            Manifest.FileEntry(path: "icons/broken@2x.png", bytes: 13, hash: "xxh3-128:03")
        ]
        manifest.errors = [failed, Manifest.ErrorEntry(input: "x\u{1}\"é", error: TabIconsError(.io, "gone\n"))]
        manifest.folders = ["icons", "icons/icon0.imageset"]
        return manifest
    }

    /// The outcome of reading `bytes`: the manifest, or the failure's message.
    enum Outcome: Equatable, CustomStringConvertible {
        case read(Manifest)
        case refused(String)

        var description: String {
            switch self {
            case .read(let manifest): "read \(manifest.icons.count) icons, \(manifest.errors.count) errors"
            case .refused(let message): "refused: \(message)"
            }
        }

        init(_ read: () throws(TabIconsError) -> Manifest) {
            do throws(TabIconsError) { self = .read(try read()) } catch { self = .refused(error.message) }
        }
    }

    static func lean(_ bytes: [UInt8]) -> Outcome { Outcome { () throws(TabIconsError) in try Manifest(parsing: Data(bytes)) } }
    static func tree(_ bytes: [UInt8]) -> Outcome { Outcome { () throws(TabIconsError) in try TreeManifest.manifest(bytes) } }

    /// The lean reader from a file, `chunk` bytes at a time.
    static func leanFromFile(_ bytes: [UInt8], chunk: Int, in dir: TemporaryDirectory) throws -> Outcome {
        let path = dir.path("manifest-\(chunk).json")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        return Outcome { () throws(TabIconsError) in
            var reader = ManifestReader(file: fd, size: bytes.count, chunk: chunk)
            return try reader.manifest()
        }
    }

    @Test("the writer's bytes are the whole document's as JSONValue prints it, in any chunk size; the reader reads them back")
    func writerBytes() throws {
        for manifest in [
            Self.sample(), Self.sample(icons: 0), Self.sample(icons: 40),
            Manifest(box: IconBox(points: 25)!, scales: [], icons: Self.sample().icons)
        ] {
            let whole = TreeManifest.text(manifest)
            #expect(manifest.jsonBytes == whole)
            for chunk in [1, 7, 4096] {
                var pieces: [[UInt8]] = []
                #expect(
                    ManifestWriter.write(manifest, chunk: chunk) {
                        pieces.append($0); return true
                    })
                #expect(Array(pieces.joined()) == whole)
                #expect(pieces.dropLast().allSatisfy { $0.count >= chunk })
            }
            #expect(try Manifest(parsing: manifest.jsonData()) == manifest)
            #expect(Self.tree(whole) == .read(manifest))
            for icon in manifest.icons {
                // A worker's row: the same writer, the same reader.
                #expect(ManifestWriter.row(icon) == icon.treeValue.utf8())
                #expect(try Manifest.Icon(parsing: ManifestWriter.row(icon)) == icon)
            }
        }
        // A consumer that stops is not handed more.
        var calls = 0
        #expect(
            !ManifestWriter.write(Self.sample(icons: 40), chunk: 16) { _ in
                calls += 1; return calls < 3
            })
        #expect(calls == 3)
    }

    @Test("a hash is held as its 16 bytes only when it is ContentHash's spelling; any other text is written back as read")
    func recordedHashes() throws {
        let hash = ContentHash(of: Array("tabicon".utf8))
        let canonical = hash.description
        #expect(ContentHash(description: canonical) == hash)
        #expect(RecordedHash(canonical) == .content(hash))
        #expect(RecordedHash(canonical).records(hash))
        let odd = [
            canonical.uppercased(), "XXH3-128:" + canonical.dropFirst(9), canonical + "0", String(canonical.dropLast()),
            "xxh3-64:" + canonical.dropFirst(9), "xxh3-128:" + String(repeating: "g", count: 32), "", "xxh3-128:",
            "sha256:\u{e9}\"\n", canonical.replacingOccurrences(of: "-", with: "\u{2010}")
        ]
        for text in odd {
            let recorded = RecordedHash(text)
            #expect(recorded == .text(text), "\(text.debugDescription)")
            #expect(recorded.text == text)
            #expect(!recorded.records(hash))
        }
        // Written and read back byte for byte, in a file entry and as an icon's contentHash.
        var manifest = Self.sample()
        for (index, text) in ([canonical] + odd).enumerated() {
            manifest.icons[0].contentHash = text
            manifest.icons[0].contentsFile = Manifest.FileEntry(path: "icons/a\(index).json", bytes: 1, hash: text)
            let bytes = manifest.jsonBytes
            #expect(bytes == TreeManifest.text(manifest))
            let read = try Manifest(parsing: Data(bytes))
            #expect(read == manifest)
            #expect(read.icons[0].contentHash == text)
            #expect(read.icons[0].contentsFile?.hash == text)
            #expect(read.jsonBytes == bytes)
        }
    }

    @Test("vectorFile and per-icon options: written only when set, read back, owned, given stats")
    func newIconKeys() throws {
        let manifest = Self.sample()
        let text = String(decoding: manifest.jsonBytes, as: UTF8.self)
        #expect(text.components(separatedBy: "\"vectorFile\"").count == 2)
        #expect(text.components(separatedBy: "\"options\"").count == 3)  // the run's and icon 0's
        #expect(text.contains("\"vectorFile\": {\n        \"path\": \"icons/icon0.svg\",\n        \"bytes\": 1200,"))
        #expect(
            text.contains(
                "\"options\": {\n        \"shape\": \"circle\",\n        \"scales\": [2]\n      },\n      \"lints\": []"))
        let icon = try Manifest(parsing: manifest.jsonData()).icons[0]
        #expect(icon.vectorFile?.path == "icons/icon0.svg" && icon.options == manifest.icons[0].options)
        #expect(icon.ownedFiles.map(\.path).suffix(2) == ["icons/icon0.imageset/Contents.json", "icons/icon0.svg"])
        let renewed = FileStat(size: 1, mtime: 2, ctime: 3, inode: 4, device: 5)
        #expect(icon.withFileStats { _ in renewed }.vectorFile?.stat == renewed)
        #expect(icon.withoutStats.vectorFile?.stat == nil)
        #expect(manifest.icons[1].vectorFile == nil && manifest.icons[1].options == nil)
    }

    @Test("an icon entry is a value: a copy set to what it holds stays the same entry, one changed leaves the original as it was")
    func iconEntryCopyOnWrite() throws {
        let original = Self.sample().icons[1]
        var copy = original
        copy.options = original.options
        copy.inputStat = original.inputStat
        copy.lints.removeAll { $0.code == .twinMismatch }
        copy.contentsFile = original.contentsFile
        #expect(copy.isSameEntry(as: original))
        copy.renditions![0].stat = nil
        copy.selectedTwin = "icons/other.png"
        #expect(!copy.isSameEntry(as: original))
        #expect(original == Self.sample().icons[1])
        #expect(copy.renditions![0].stat == nil && original.renditions![0].stat != nil)
        #expect(copy.selectedTwin == "icons/other.png" && original.selectedTwin == nil)
    }

    @Test("withFileStats: an entry whose stats all stand keeps its arrays; one that differs renews that file alone")
    func withFileStatsKeepsArrays() throws {
        let icon = try Manifest(parsing: Self.sample().jsonData()).icons[0].withFileStats { path in
            FileStat(size: path.utf8.count, mtime: 1, ctime: 1, inode: UInt64(path.utf8.count), device: 1)
        }
        let statOf = { (path: String) in icon.ownedFiles.first { $0.path == path }?.stat }
        let same = icon.withFileStats(statOf)
        #expect(same == icon)
        let shared = try #require(same.renditions).withUnsafeBufferPointer { kept in
            try! #require(icon.renditions).withUnsafeBufferPointer { $0.baseAddress == kept.baseAddress }
        }
        #expect(shared)
        let first = try #require(icon.renditions?.first?.path)
        let renewed = FileStat(size: 7, mtime: 7, ctime: 7, inode: 7, device: 7)
        let changed = icon.withFileStats { $0 == first ? renewed : statOf($0) }
        #expect(changed.renditions?.first?.stat == renewed && icon.renditions?.first?.stat != renewed)
        #expect(changed.ownedFiles.dropFirst() == icon.ownedFiles.dropFirst())
        #expect(changed.vectorFile?.stat != nil && changed.vectorFile == icon.vectorFile)
        #expect(icon.ownedFileCount == icon.ownedFiles.count && icon.ownedFileCount > 2)
    }

    @Test("--check's comparison without stats is withoutStats' equality, entry by entry")
    func equalityWithoutStats() {
        let manifest = Self.sample()
        var restatted = manifest
        restatted.icons = manifest.icons.map {
            $0.withFileStats { _ in FileStat(size: 9, mtime: 9, ctime: 9, inode: 9, device: 9) }
        }
        restatted.errors[0].keptFiles[1].stat = FileStat(size: 1, mtime: 1, ctime: 1, inode: 1, device: 1)
        #expect(manifest.equalsIgnoringStats(restatted) && manifest.withoutStats == restatted.withoutStats)
        var other = manifest
        other.icons[2].lints = []
        #expect(!manifest.equalsIgnoringStats(other))
        other = manifest
        other.icons.removeLast()
        #expect(!manifest.equalsIgnoringStats(other))
        other = manifest
        other.folders = []
        #expect(!manifest.equalsIgnoringStats(other))
        other = manifest
        other.errors[1].message = "other"
        #expect(!manifest.equalsIgnoringStats(other))
    }

    /// Every value of the sample's tree replaced by a value of another type or a hostile one,
    /// removed, or given a duplicate key before or after it.
    static func treeVariants(of value: JSONValue) -> [JSONValue] {
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        let replacements: [JSONValue] = [
            .null, .bool(true), .bool(false), .int(0), .int(-1), .int(Int.max), .double(1.5), .double(1e15), .double(-0.0),
            .double(1e300), .string(""), .string("../victims/v.txt"), .string("/etc/passwd"), .string("a\u{0}b"),
            .string("template"), .array([]), .object([]), .array([.string("x"), .int(1)]),
            .object([("path", .string("p")), ("bytes", .int(1)), ("hash", .string("h"))]),
            try! JSONParser.parse(Array(deep.prefix(60).utf8) + Array(deep.suffix(60).utf8))
        ]
        var variants: [JSONValue] = []
        func visit(_ node: JSONValue, _ rebuild: @escaping (JSONValue?) -> JSONValue) {
            for replacement in replacements { variants.append(rebuild(replacement)) }
            switch node {
            case .object(let pairs):
                for (index, pair) in pairs.enumerated() {
                    let key = pair.0
                    visit(pair.1) { changed in
                        var copy = pairs
                        if let changed { copy[index] = (key, changed) } else { copy.remove(at: index) }
                        return rebuild(.object(copy))
                    }
                    variants.append(
                        rebuild(.object(Array(pairs.prefix(index)) + [(key, .int(7))] + Array(pairs.suffix(from: index)))))
                    variants.append(rebuild(.object(pairs + [(key, .string("later"))])))
                    var removed = pairs
                    removed.remove(at: index)
                    variants.append(rebuild(.object(removed)))
                }
            case .array(let items):
                for (index, item) in items.enumerated() {
                    visit(item) { changed in
                        var copy = items
                        if let changed { copy[index] = changed } else { copy.remove(at: index) }
                        return rebuild(.array(copy))
                    }
                }
                variants.append(rebuild(.array(items + [.int(3)])))
            default: break
            }
        }
        visit(value) { $0 ?? .null }
        return variants
    }

    @Test("wrong types, huge numbers, deep nesting, duplicate and missing keys, bad paths, NUL: the tree's outcome, each")
    func hostileTrees() throws {
        let sample = Self.sample(icons: 3)
        let tree = try JSONParser.parse(sample.jsonBytes)
        let variants = Self.treeVariants(of: tree)
        #expect(variants.count > 3000)
        var refused = 0
        for (index, variant) in variants.enumerated() {
            let text = index % 2 == 0 ? variant.utf8() : variant.utf8(indent: nil)
            let expected = Self.tree(text)
            #expect(Self.lean(text) == expected, "variant \(index): \(String(decoding: text.prefix(300), as: UTF8.self))")
            if case .refused = expected { refused += 1 }
        }
        // Both kinds are exercised: documents read with values dropped, and documents refused.
        #expect(refused > 100 && refused < variants.count - 100)
    }

    @Test("texts that are not JSON: truncated anywhere, bytes changed, inserted, removed: the tree's outcome, also in chunks")
    func hostileTexts() throws {
        let dir = try TemporaryDirectory("manifest-reader")
        let text = Self.sample(icons: 2).jsonBytes
        #expect(Self.lean(text) == .read(Self.sample(icons: 2)))
        for length in 0..<text.count {
            let truncated = Array(text.prefix(length))
            #expect(Self.lean(truncated) == Self.tree(truncated), "truncated to \(length)")
            // Only the final line break may go.
            if case .read = Self.lean(truncated), length < text.count - 1 {
                Issue.record("a truncated manifest was read (\(length) bytes)")
            }
        }
        var random = SeededGenerator(seed: 23)
        let special: [UInt8] = Array(#"{}[]",:\"0123456789-+.eEtfnu "#.utf8) + [0, 0x0A, 0x1F, 0x7F, 0xC3, 0xFF]
        var chunked = 0
        for trial in 0..<4000 {
            var bytes = text
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let at = Int(random.next() % UInt64(bytes.count))
                let byte = random.next() % 2 == 0 ? special[Int(random.next() % UInt64(special.count))] : random.byte()
                switch random.next() % 3 {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                default: bytes.remove(at: at)
                }
            }
            let expected = Self.tree(bytes)
            #expect(Self.lean(bytes) == expected, "trial \(trial)")
            if trial % 40 == 0 {
                for chunk in [1, 2, 5, 64] {
                    #expect(try Self.leanFromFile(bytes, chunk: chunk, in: dir) == expected, "trial \(trial), chunk \(chunk)")
                    chunked += 1
                }
            }
        }
        #expect(chunked == 400)
    }

    @Test(
        "nesting: 64 levels read, 65 refused, 10,000 refused without exhausting the stack; escapes and numbers as the tree reads them"
    )
    func nestingEscapesNumbers() throws {
        let base = String(decoding: Self.sample(icons: 1).jsonBytes, as: UTF8.self)
        func withExtra(_ json: String) -> [UInt8] {
            Array(base.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1, \"extra\": \(json),").utf8)
        }
        for depth in [62, 63, 64, 100, 10_000] {
            let text = withExtra(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
            let outcome = Self.lean(text)
            #expect(outcome == Self.tree(text))
            // The document's own object is the first level.
            if depth <= 63 {
                #expect(outcome == .read(Self.sample(icons: 1)))
            } else if case .refused(let message) = outcome {
                #expect(message.hasPrefix("not a tabicon manifest: nested deeper than 64 at byte "))
            } else {
                Issue.record("nested \(depth) deep was read")
            }
        }
        for json in [
            #""\u00e9\ud83d\ude00\/\t\b\f\r\n""#, #""\ud800""#, #""\ud800\u0041""#, #""\udc00""#, #""\ud800\udbff""#,
            #""\u12""#, #""\x""#, "\"a\u{1}\"", #"[1e400]"#, #"[-1e400]"#, #"[99999999999999999999]"#, #"[-0]"#,
            #"[+1]"#, #"[1.5e3, -2E-2, 0.1]"#, #"[1-2]"#, #"[.5]"#, #"[5.]"#, #"[-]"#, #"[]]"#, #"{"a" 1}"#,
            #"{"a": 1,}"#, #"[1,]"#, #"[,1]"#, "nul", "tru", "falsy", #"{1: 2}"#
        ] {
            let text = withExtra(json)
            #expect(Self.lean(text) == Self.tree(text), "\(json)")
        }
        // The same escapes in keys and values that matter.
        let escapedKey = Array(base.replacingOccurrences(of: "\"version\"", with: "\"vers\\u0069on\"").utf8)
        #expect(Self.lean(escapedKey) == .read(Self.sample(icons: 1)))
        let versions = [("1e0", true), ("1.0", true), ("1.5", false), ("1e15", false), ("true", false)]
        for (version, readable) in versions {
            let text = Array(base.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": \(version),").utf8)
            #expect(Self.lean(text) == Self.tree(text))
            if case .read = Self.lean(text) { #expect(readable, "\(version)") } else { #expect(!readable, "\(version)") }
        }
    }

    @Test(
        "an icon entry of more renditions than a run renders is not tabicon's: the file refused, the entry alone unread; as many is read"
    )
    func renditionsPastTheMost() throws {
        let most = NormalizeOptions.mostScales
        for count in [most, most + 1, 100_000] {
            var manifest = Self.sample(icons: 2)
            let first = try #require(manifest.icons[0].renditions?.first)
            manifest.icons[0].renditions = (0..<count).map { index in
                var rendition = first
                rendition.path = "icons/r\(index).png"
                return rendition
            }
            let text = manifest.jsonBytes
            #expect(Self.lean(text) == Self.tree(text))
            let row = ManifestWriter.row(manifest.icons[0])
            if count <= most {
                #expect(Self.lean(text) == .read(manifest))
                #expect(try Manifest.Icon(parsing: row) == manifest.icons[0])
            } else {
                let message = "not a tabicon manifest: an icon entry lists more renditions than \(most), the most a run renders"
                #expect(Self.lean(text) == .refused(message))
                do {
                    _ = try Manifest.Icon(parsing: row)
                    Issue.record("an entry of \(count) renditions was read")
                } catch {
                    let alone =
                        "not a tabicon icon entry: an icon entry lists more renditions than \(most), the most a run renders"
                    #expect(error.code == .corrupt && error.message == alone)
                }
            }
        }
    }

    @Test("a manifest over 64 KiB read from its file in chunks of any size equals the one read whole")
    func chunkedFile() throws {
        let dir = try TemporaryDirectory("manifest-reader")
        let manifest = Self.sample(icons: 120)
        let text = manifest.jsonBytes
        #expect(text.count > 64 << 10)
        for chunk in [1, 3, 4096, 64 << 10, 1 << 20] {
            #expect(try Self.leanFromFile(text, chunk: chunk, in: dir) == .read(manifest), "chunk \(chunk)")
        }
        // A file that shrank after its size was taken is read to its end: truncated, refused.
        let path = dir.path("shrunk.json")
        try Data(text.prefix(1000)).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var reader = ManifestReader(file: fd, size: text.count, chunk: 256)
        #expect(throws: TabIconsError.self) { try reader.manifest() }
    }

    @Test("strings lent by the caller (an input's name, its planned paths) read as those strings, equal to a read without them")
    func sharedStrings() throws {
        let manifest = Self.sample(icons: 6)
        // Right, wrong, a prefix, longer than the text, with a quote: only equal spellings are taken.
        let lent: [ManifestReader.Shared?] = manifest.icons.enumerated().map { index, icon in
            let paths = (icon.renditions ?? []).map(\.path)
            switch index {
            case 0: return .init(input: icon.input, paths: paths)
            case 1: return .init(input: icon.input + "x", paths: paths.map { String($0.dropLast()) })
            case 2: return .init(input: String(icon.input.dropLast()), paths: ["x\"y"] + paths.dropFirst())
            case 3: return .init(input: String(repeating: "a", count: 200), paths: [])
            case 4: return nil
            default: return .init(input: icon.input, paths: paths + ["more"])
            }
        }
        // An entry read alone (from the previous manifest's file, `ManifestEntries`), lent or not.
        for (icon, lent) in zip(manifest.icons, lent) {
            #expect(try Manifest.Icon(parsing: ManifestWriter.row(icon), sharing: lent) == icon)
        }
        // The lent string itself, not a copy, where it was spelled.
        var long = manifest.icons[0]
        long.input = "icons/a name longer than a small string.svg"
        let lentInput = String(decoding: Array(long.input.utf8), as: UTF8.self)
        let read = try Manifest.Icon(parsing: ManifestWriter.row(long), sharing: .init(input: lentInput, paths: []))
        #expect(
            read.input.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
                == lentInput.utf8.withContiguousStorageIfAvailable { $0.baseAddress })
        // Hostile texts read with lent strings answer as without them.
        func outcome(_ bytes: [UInt8], _ sharing: ManifestReader.Shared?) -> String {
            do throws(TabIconsError) {
                return "read \(try Manifest.Icon(parsing: bytes, sharing: sharing))"
            } catch {
                return "refused: \(error.message)"
            }
        }
        var random = SeededGenerator(seed: 7)
        for trial in 0..<500 {
            let index = trial % manifest.icons.count
            var bytes = ManifestWriter.row(manifest.icons[index])
            let at = Int(random.next() % UInt64(bytes.count))
            bytes[at] = [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0, UInt8(ascii: "a")][Int(random.next() % 4)]
            #expect(outcome(bytes, lent[index]) == outcome(bytes, nil), "trial \(trial)")
        }
    }

    @Test("a rerun through the lean reader gives the same files and manifest with the stat cache, with --verify and with --force")
    func sameResultsWithAndWithoutStatCache() throws {
        let names = ["bell.png", "home.png", "home-filled.png", "search.png"]
        let dir = try BuildStep.inputs(names.map { ($0, $0) })
        var results: [[String: Data]] = []
        for mode in ["cache", "verify", "force"] {
            let out = try TemporaryDirectory("out")
            var batch = BatchNormalizer(normalizer: Normalizer(), layout: .xcassets, outputRoot: out.url, jobs: 2)
            let first = try batch.run(BuildStep.batchInputs(dir, names))
            #expect(first.counts.normalized == names.count)
            // The records are trusted only when older than the manifest: make them so.
            try StatCacheTests.ageRecords(out.path("manifest.json"))
            batch.verify = mode == "verify"
            batch.force = mode == "force"
            let again = try batch.run(BuildStep.batchInputs(dir, names))
            #expect(again.counts.reused == (mode == "force" ? 0 : names.count), "\(mode)")
            #expect(
                try Manifest(parsing: Data(contentsOf: out.url.appendingPathComponent("manifest.json"))).withoutStats
                    == first.manifest.withoutStats, "\(mode)")
            results.append(try out.snapshot())
        }
        #expect(results[0] == results[1] && results[1] == results[2])
    }

    @Test("the previous run reads the file lean: a NUL or climbing path drops its entry with a warning, others kept")
    func previousRunFromFile() throws {
        let dir = try TemporaryDirectory("manifest-reader")
        var manifest = Self.sample()
        manifest.icons[1].renditions?[0].path = "icons/a\u{0}b.png"
        manifest.icons[0].vectorFile?.path = "../victims/v.svg"
        let path = dir.path("manifest.json")
        try manifest.jsonData().write(to: URL(fileURLWithPath: path))
        let journal = RunJournal(manifestPath: path)
        let previous = try PreviousRun(manifestPath: path, fingerprint: manifest.options!, journal: journal)
        var head = manifest
        head.icons = []
        #expect(previous.recorded == head)
        // The entries stay in the file, each read as it is asked for: as written, in place.
        #expect(previous.entries?.count == 3)
        #expect((0..<3).map { previous.entries?.entry(at: $0) } == manifest.icons)
        #expect(previous.warnings.isEmpty)
        let found = manifest.icons.enumerated().map { previous.entry(ofInput: $1.input, index: $0, plan: nil) }
        #expect(found == [nil, nil, manifest.icons[2]])
        #expect(previous.warnings.count == 2)
        #expect(previous.warnings.allSatisfy { $0.hasPrefix("ignored the previous manifest's entry for icons/") })
        #expect(previous.files(ofInput: manifest.icons[2].input) == manifest.icons[2].ownedFiles)
        #expect(previous.files(ofInput: manifest.icons[0].input).isEmpty)
        // Not a manifest, a link, over the cap: refused as before.
        try Data(#"{"name": "My App"}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: BatchUsageError.self) {
            try PreviousRun(manifestPath: path, fingerprint: manifest.options!, journal: journal)
        }
        #expect(truncate(path, off_t(UntrustedFile.cap + 1)) == 0)  // sparse: no disk
        do {
            _ = try PreviousRun(manifestPath: path, fingerprint: manifest.options!, journal: journal)
            Issue.record("a manifest over the cap was read")
        } catch {
            #expect(error.description.contains("\(UntrustedFile.cap + 1) bytes"))
        }
    }

    /// The text of `manifest` through `ManifestOutput` at `path` in pieces of `chunk` bytes.
    private static func output(_ manifest: Manifest, to path: String, chunk: Int = 4096, limit: Int = .max) throws(TabIconsError)
        -> ManifestOutput.Comparison
    {
        let output = ManifestOutput(path: path, limit: limit)
        ManifestWriter.write(manifest, chunk: chunk) { output.put($0) }
        return try output.finish()
    }

    @Test(
        "the manifest compared as it is made: nothing written when equal, else the whole text in place; a link replaced, not followed"
    )
    func comparedAsMade() throws {
        let dir = try TemporaryDirectory("manifest-reader")
        let manifest = Self.sample(icons: 200)
        let text = manifest.jsonBytes
        let path = dir.path("manifest.json")
        #expect(try Self.output(manifest, to: path) == .absent)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == text)
        for (bytes, expected) in [
            (text, ManifestOutput.Comparison.equal), (text + [0x0A], .different),
            (Array(text.dropLast()), .different), (Array(text.prefix(70_000)), .different),
            (Array(text.prefix(100)) + [0x21] + Array(text.dropFirst(101)), .different),
            (Array(text.prefix(9000)) + [0x21] + Array(text.dropFirst(9001)), .different), ([], .different)
        ] {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let before = try #require(FileIdentity(path: path))
            for chunk in [1000, 4096, 65_536] {
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                #expect(try Self.output(manifest, to: path, chunk: chunk) == expected)
                #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == text)
            }
            // Equal: the very file left, not rewritten.
            if expected == .equal { #expect(FileIdentity(path: path) == before) }
        }
        try Data(text).write(to: URL(fileURLWithPath: dir.path("real.json")))
        #expect(symlink(dir.path("real.json"), dir.path("link.json")) == 0)
        #expect(try Self.output(manifest, to: dir.path("link.json")) == .absent)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: dir.path("real.json")))) == text)
        var info = stat()
        #expect(lstat(dir.path("link.json"), &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == [
                "link.json", "manifest.json", "real.json"
            ])
    }

    @Test("a manifest file changed while its text was compared is not spliced into the new one: io, the file there kept")
    func changedUnderTheRun() throws {
        let dir = try TemporaryDirectory("manifest-reader")
        let manifest = Self.sample(icons: 200)
        let text = manifest.jsonBytes
        let path = dir.path("manifest.json")
        var old = text
        old[50_000] = old[50_000] == 0x20 ? 0x21 : 0x20  // differs after 50,000 equal bytes
        try Data(old).write(to: URL(fileURLWithPath: path))
        let output = ManifestOutput(path: path, limit: .max)
        var sent = 0
        var changed: [UInt8] = []
        ManifestWriter.write(manifest, chunk: 4096) { piece in
            // After the first 20,000 equal bytes, someone rewrites the file in place.
            if sent >= 20_000, changed.isEmpty {
                changed = old
                changed[10] = changed[10] == 0x20 ? 0x22 : 0x20
                let fd = open(path, O_WRONLY)
                _ = changed.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) }
                close(fd)
            }
            sent += piece.count
            return output.put(piece)
        }
        #expect(throws: TabIconsError.self) { try output.finish() }
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == changed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["manifest.json"])
    }

    @Test("a manifest text past the limit is tooLarge: the file there untouched, no temporary left")
    func outputLimit() throws {
        let dir = try TemporaryDirectory("manifest-reader")
        let manifest = Self.sample(icons: 50)
        let text = manifest.jsonBytes
        let path = dir.path("manifest.json")
        #expect(try Self.output(manifest, to: path, limit: text.count) == .absent)
        var other = Self.sample(icons: 60)
        other.folders = ["x"]
        #expect {
            try Self.output(other, to: path, limit: text.count)
        } throws: { ($0 as? TabIconsError)?.code == .tooLarge }
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["manifest.json"])
    }

    @Test("a file's lines read a chunk at a time are its lines split whole, an overlong one nil, in any chunk size")
    func linesInChunks() throws {
        let dir = try TemporaryDirectory("lines")
        var random = SeededGenerator(seed: 23)
        for trial in 0..<300 {
            let count = Int.random(in: 0...60, using: &random)
            let bytes = (0..<count).map { _ in
                Int.random(in: 0..<4, using: &random) == 0 ? UInt8(ascii: "\n") : UInt8(ascii: "a")
            }
            let path = dir.path("f\(trial)")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let longest = Int.random(in: 0...8, using: &random)
            // The reference: split whole, the empty piece after a final newline dropped.
            var expected: [[UInt8]?] = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .map { $0.count > longest ? nil : Array($0) }
            if bytes.last == UInt8(ascii: "\n") || bytes.isEmpty { expected.removeLast() }
            for chunk in [1, 2, 3, 7, 64] {
                var lines: [[UInt8]?] = []
                let fd = open(path, O_RDONLY)
                defer { close(fd) }
                try UntrustedFile.forEachLine(of: fd, size: bytes.count, chunk: chunk, longest: longest) {
                    lines.append($0.map(Array.init))
                }
                #expect(lines == expected, "\(bytes) chunk \(chunk) longest \(longest)")
            }
        }
    }

    @Test("journal lines read lean as the tree read them")
    func journalLines() {
        let lines = [
            #"{"file": {"path": "a.png", "bytes": 1, "hash": "h"}}"#, #"{"folder": "icons"}"#,
            #"{"folder": 1, "file": {"path": "b.png", "bytes": 1, "hash": "h", "stat": 3}}"#,
            #"{"file": {"path": "a.png"}}"#, #"{"file": 1, "file": {"path": "a.png", "bytes": 1, "hash": "h"}}"#,
            #"{"folder": "x", "folder": "y"}"#, #"{"folder": "x""#, #"[]"#, #""#, #"{"folder": "x"} 1"#
        ]
        for line in lines {
            var reader = ManifestReader(Array(line.utf8))
            let lean = reader.journalLine()
            let value = try? JSONParser.parse(Array(line.utf8))
            #expect(lean?.file == value?["file"].flatMap(TreeManifest.fileEntry), "\(line)")
            #expect(lean?.folder == value?["folder"]?.stringValue, "\(line)")
        }
    }
}

/// The reader the lean one replaced: the whole text into a `JSONValue` tree, then the manifest
/// from it (with `vectorFile` and the per-icon `options` as the lean reader reads them). The
/// reference for what a manifest reader accepts and refuses; also the whole-document writer.
enum TreeManifest {
    static func text(_ manifest: Manifest) -> [UInt8] {
        var pairs: [(String, JSONValue)] = [
            ("version", .int(manifest.version)), ("tool", .string(manifest.tool)), ("box", .double(manifest.box)),
            ("scales", .array(manifest.scales.map { .double($0) }))
        ]
        if let options = manifest.options { pairs.append(("options", options.json)) }
        pairs.append(("icons", .array(manifest.icons.map(\.treeValue))))
        pairs.append(("errors", .array(manifest.errors.map(\.treeValue))))
        if manifest.options != nil { pairs.append(("folders", .array(manifest.folders.map { .string($0) }))) }
        return JSONValue.object(pairs).utf8() + [0x0A]
    }

    static func corrupt(_ what: String) -> TabIconsError { TabIconsError(.corrupt, "not a tabicon manifest: \(what)") }

    static func manifest(_ bytes: [UInt8]) throws(TabIconsError) -> Manifest {
        let value: JSONValue
        do throws(JSONParser.Failure) {
            value = try JSONParser.parse(bytes)
        } catch {
            throw corrupt(error.description)
        }
        guard let version = value["version"]?.intValue, let tool = value["tool"]?.stringValue,
            let box = value["box"]?.doubleValue.flatMap(IconBox.init(points:)),
            let scales = value["scales"]?.arrayValue?.compactMap(\.doubleValue),
            let icons = value["icons"]?.arrayValue, let errors = value["errors"]?.arrayValue
        else { throw corrupt("missing version, tool, box, scales, icons or errors") }
        var manifest = Manifest(box: box, scales: scales, options: value["options"].map(OptionFingerprint.init(json:)))
        manifest.version = version
        manifest.tool = tool
        manifest.folders = value["folders"]?.arrayValue?.compactMap(\.stringValue) ?? []
        manifest.icons = try icons.map { (icon: JSONValue) throws(TabIconsError) -> Manifest.Icon in try self.icon(icon) }
        manifest.errors = try errors.map { (entry: JSONValue) throws(TabIconsError) -> Manifest.ErrorEntry in
            guard let input = entry["input"]?.stringValue, let code = entry["code"]?.stringValue,
                let message = entry["message"]?.stringValue
            else { throw corrupt("an error entry lacks input, code or message") }
            var parsed = Manifest.ErrorEntry(input: input, error: TabIconsError(.io, message))
            parsed.code = code
            parsed.keptFiles = entry["keptFiles"]?.arrayValue?.compactMap(fileEntry) ?? []
            return parsed
        }
        return manifest
    }

    static func icon(_ json: JSONValue) throws(TabIconsError) -> Manifest.Icon {
        guard let input = json["input"]?.stringValue, let name = json["name"]?.stringValue,
            let format = json["format"]?.stringValue,
            let pixelWidth = json["pixelWidth"]?.intValue, let pixelHeight = json["pixelHeight"]?.intValue,
            let orientation = json["orientation"]?.intValue, let hasAlpha = json["hasAlpha"]?.boolValue,
            let animated = json["animated"]?.boolValue, let contentHash = json["contentHash"]?.stringValue,
            let decodeScale = json["decodeScale"]?.doubleValue, let pointWidth = json["pointWidth"]?.doubleValue,
            let pointHeight = json["pointHeight"]?.doubleValue, let lints = json["lints"]?.arrayValue
        else { throw corrupt("an icon entry lacks a key of SPEC §6") }
        var icon = Manifest.Icon(
            input: input, name: name, format: format, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
            orientation: orientation, hasAlpha: hasAlpha, animated: animated, contentHash: contentHash,
            decodeScale: decodeScale, pointWidth: pointWidth, pointHeight: pointHeight,
            lints: lints.compactMap { lint in
                guard let code = lint["code"]?.stringValue.flatMap(Lint.Code.init(rawValue:)),
                    let message = lint["message"]?.stringValue
                else { return nil }
                return Lint(code, message)
            })
        icon.vector = json["vector"]?.boolValue == true ? true : nil
        icon.renditions = try json["renditions"]?.arrayValue.map { entries throws(TabIconsError) in
            let most = NormalizeOptions.mostScales
            let read = try entries.prefix(most).map { (entry: JSONValue) throws(TabIconsError) -> Manifest.RenditionEntry in
                guard let scale = entry["scale"]?.doubleValue, let file = fileEntry(entry),
                    let width = entry["pixelWidth"]?.intValue, let height = entry["pixelHeight"]?.intValue
                else { throw corrupt("a rendition lacks a key of SPEC §6") }
                var rendition = Manifest.RenditionEntry(
                    scale: scale, path: file.path, pixelWidth: width, pixelHeight: height,
                    bytes: file.bytes, hash: file.hash)
                rendition.stat = file.stat
                return rendition
            }
            guard entries.count <= most else {
                throw corrupt("an icon entry lists more renditions than \(most), the most a run renders")
            }
            return read
        }
        icon.contentsFile = json["contentsFile"].flatMap(fileEntry)
        icon.selectorFile = json["selectorFile"].flatMap(fileEntry)
        icon.vectorFile = json["vectorFile"].flatMap(fileEntry)
        icon.inputStat = json["inputStat"].flatMap(fileStat)
        icon.intent = json["intent"]?.stringValue.flatMap(IconIntent.init(rawValue:))
        icon.selectedTwin = json["selectedTwin"]?.stringValue
        icon.darkTwin = json["darkTwin"]?.stringValue
        icon.options = json["options"].map(OptionFingerprint.init(json:))
        return icon
    }

    static func fileEntry(_ json: JSONValue) -> Manifest.FileEntry? {
        guard let path = json["path"]?.stringValue, let bytes = json["bytes"]?.intValue,
            let hash = json["hash"]?.stringValue
        else { return nil }
        return Manifest.FileEntry(path: path, bytes: bytes, hash: hash, stat: json["stat"].flatMap(fileStat))
    }

    static func fileStat(_ json: JSONValue) -> FileStat? {
        guard let size = json["size"]?.intValue, let mtime = json["mtime"]?.intValue, let ctime = json["ctime"]?.intValue,
            let inode = json["inode"]?.intValue, let device = json["device"]?.intValue
        else { return nil }
        return FileStat(
            size: size, mtime: mtime, ctime: ctime, inode: UInt64(truncatingIfNeeded: inode),
            device: UInt64(truncatingIfNeeded: device))
    }
}

// The whole-tree printing of the entries the streamed writer replaced: the reference for its bytes.

extension Manifest.Icon {
    var treeValue: JSONValue { fields.treeValue }
}

extension Manifest.Icon.Fields {
    var treeValue: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("input", .string(input)), ("name", .string(name)), ("format", .string(format)),
            ("pixelWidth", .int(pixelWidth)), ("pixelHeight", .int(pixelHeight)),
            ("orientation", .int(orientation)), ("hasAlpha", .bool(hasAlpha)), ("animated", .bool(animated))
        ]
        if vector == true { pairs.append(("vector", .bool(true))) }
        pairs += [
            ("contentHash", .string(contentHash)), ("decodeScale", .double(decodeScale)),
            ("pointWidth", .double(pointWidth)), ("pointHeight", .double(pointHeight))
        ]
        if let intent { pairs.append(("intent", .string(intent.rawValue))) }
        if let selectedTwin { pairs.append(("selectedTwin", .string(selectedTwin))) }
        if let darkTwin { pairs.append(("darkTwin", .string(darkTwin))) }
        if let renditions { pairs.append(("renditions", .array(renditions.map(\.treeValue)))) }
        if let contentsFile { pairs.append(("contentsFile", contentsFile.jsonValue)) }
        if let selectorFile { pairs.append(("selectorFile", selectorFile.jsonValue)) }
        if let vectorFile { pairs.append(("vectorFile", vectorFile.jsonValue)) }
        if let inputStat { pairs.append(("inputStat", inputStat.jsonValue)) }
        if let options { pairs.append(("options", options.json)) }
        pairs.append(
            ("lints", .array(lints.map { .object([("code", .string($0.code.rawValue)), ("message", .string($0.message))]) })))
        return .object(pairs)
    }
}

extension Manifest.RenditionEntry {
    var treeValue: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("scale", .double(scale)), ("path", .string(path)), ("pixelWidth", .int(pixelWidth)),
            ("pixelHeight", .int(pixelHeight)), ("bytes", .int(bytes)), ("hash", .string(hash))
        ]
        if let stat { pairs.append(("stat", stat.jsonValue)) }
        return .object(pairs)
    }
}

extension Manifest.ErrorEntry {
    var treeValue: JSONValue {
        var pairs: [(String, JSONValue)] = [("input", .string(input)), ("code", .string(code)), ("message", .string(message))]
        if !keptFiles.isEmpty { pairs.append(("keptFiles", .array(keptFiles.map(\.jsonValue)))) }
        return .object(pairs)
    }
}

@Suite("RelativePath.isPlain, one pass")
struct RelativePathPassTests {
    /// The split-based rule it replaced.
    static func reference(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.utf8.contains(0) else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    @Test("every path of up to seven of '.', '/', 'a', NUL answers as the split-based rule")
    func exhaustive() {
        let alphabet: [Character] = [".", "/", "a", "\u{0}"]
        var paths = [""]
        var checked = 0
        for _ in 0...7 {
            for path in paths {
                #expect(RelativePath.isPlain(path) == Self.reference(path), "\(path.debugDescription)")
                checked += 1
            }
            paths = paths.flatMap { path in alphabet.map { path + String($0) } }
        }
        #expect(checked == (0...7).reduce(0) { $0 + Int(pow(4.0, Double($1))) })
        for path in ["icons/home@2x.png", "a/.../b", ".hidden/x", "x/..y", "é/ü.png"] { #expect(RelativePath.isPlain(path)) }
        for path in ["../v", "a/../b", "a/./b", "a//b", "a/", "/a", ".", "..", "a/.."] { #expect(!RelativePath.isPlain(path)) }
    }
}
