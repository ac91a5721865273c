import TabIcons
import Foundation

/// The manifest's one reader (SPEC §6, §6a): the document read key by key through `JSONScanner`
/// into `Manifest`, from memory or from the file in chunks, without a tree of values, so reading
/// the previous run costs what the run keeps of it, not its text's size.
///
/// It accepts what a reader of the whole tree would: any JSON text, keys in any order, the first
/// of two equal keys winning (the later one checked and skipped), a value of the wrong type taken
/// as absent (a required key then makes the document not a manifest, an optional one is nil),
/// unknown keys skipped. A text that is not JSON is refused before any entry is judged (the
/// failure names the text's fault first), then the first missing top-level key, then the first
/// bad icon entry, then the first bad error entry.
struct ManifestReader {
    /// Strings the caller already holds that an icon entry read alone (`iconRow`) may spell: its
    /// input's name and its renditions' paths in order. Read as these very strings, not copies.
    struct Shared {
        var input: String
        var paths: [String]
    }

    /// Where one icon entry is in the text, and its input's name as a hash (`String.hashValue`,
    /// 0 when it names none): what `outline` keeps of an entry, for `ManifestEntries` to read it
    /// later. (A text over 4 GiB is never read: `UntrustedFile.cap`.)
    struct EntryPlace: Sendable {
        let start: UInt32
        let end: UInt32
        let inputHash: Int
    }

    private var scanner: JSONScanner
    var sharing: Shared?
    /// Set by `outline`: the icon entries are placed (into `places`), not read.
    private var outlining = false
    private(set) var places: [EntryPlace] = []
    /// The first icon entry (or rendition) and the first error entry that is not SPEC §6's, kept
    /// until the whole text has been checked.
    private var iconProblem: String?
    private var errorProblem: String?

    init(_ bytes: [UInt8]) { scanner = JSONScanner(bytes) }

    /// The text of the file open at `fd` from byte `start`, at most `size` bytes of it, read in chunks.
    init(file fd: Int32, from start: Int = 0, size: Int, chunk: Int = JSONScanner.chunk) {
        scanner = JSONScanner(file: fd, from: start, size: size, chunk: chunk)
    }

    private static func corrupt(_ what: String) -> TabIconsError {
        TabIconsError(.corrupt, "not a tabicon manifest: \(what)")
    }

    /// One entry read alone (`iconRow`) is not a manifest: its failure says what it is not.
    private static func corruptEntry(_ what: String) -> TabIconsError {
        TabIconsError(.corrupt, "not a tabicon icon entry: \(what)")
    }

    private static let missingKey = "missing version, tool, box, scales, icons or errors"
    private static let iconLacksKey = "an icon entry lacks a key of SPEC §6"
    private static let renditionLacksKey = "a rendition lacks a key of SPEC §6"
    private static let tooManyRenditions =
        "an icon entry lists more renditions than \(NormalizeOptions.mostScales), the most a run renders"
    private static let errorLacksKey = "an error entry lacks input, code or message"

    /// The whole document.
    mutating func manifest() throws(TabIconsError) -> Manifest {
        let read: Manifest?
        do throws(JSONScanner.Failure) {
            read = try document()
            try scanner.end()
        } catch {
            throw Self.corrupt(error.description)
        }
        guard let read else { throw Self.corrupt(Self.missingKey) }
        if let iconProblem { throw Self.corrupt(iconProblem) }
        if let errorProblem { throw Self.corrupt(errorProblem) }
        return read
    }

    /// The document with its icons' entries not read (`icons` empty): each entry's place in the
    /// text and its input's name are kept in `places`, for a reader that reads an entry when it
    /// needs it (`ManifestEntries`, through `iconRow` on the entry's bytes). The text is checked
    /// as `manifest()` checks it, but for the fields of each icon entry, which that later read
    /// judges.
    mutating func outline() throws(TabIconsError) -> Manifest {
        outlining = true
        defer { outlining = false }
        return try manifest()
    }

    /// One icon entry as the whole text (a worker's row).
    mutating func iconRow() throws(TabIconsError) -> Manifest.Icon {
        let icon: Manifest.Icon?
        do throws(JSONScanner.Failure) {
            icon = try self.icon(shared: sharing)
            try scanner.end()
        } catch {
            throw Self.corruptEntry(error.description)
        }
        guard let icon else { throw Self.corruptEntry(iconProblem ?? Self.iconLacksKey) }
        return icon
    }

    /// One line of the journal (`RunJournal`): `{"file": {…}}` or `{"folder": "…"}`; nil for a
    /// line that is neither, or not JSON.
    mutating func journalLine() -> (file: Manifest.FileEntry?, folder: String?)? {
        var file: Manifest.FileEntry??
        var folder: String??
        do throws(JSONScanner.Failure) {
            if try scanner.isObject() {
                var cursor = try scanner.enter()
                while let key = try scanner.nextKey(&cursor) {
                    switch key {
                    case "file" where file == nil: file = .some(try fileEntry())
                    case "folder" where folder == nil: folder = .some(try scanner.string())
                    default: try scanner.skip()
                    }
                }
            } else {
                try scanner.skip()
            }
            try scanner.end()
        } catch {
            return nil
        }
        return (file ?? nil, folder ?? nil)
    }

    // MARK: The document

    /// The manifest, or nil when a top-level key is missing or of the wrong type.
    private mutating func document() throws(JSONScanner.Failure) -> Manifest? {
        guard try scanner.isObject() else {
            try scanner.skip()
            return nil
        }
        var version: Int??, tool: String??, box: Double??, scales: [Double]??
        var options: JSONValue?, icons: [Manifest.Icon]??, errors: [Manifest.ErrorEntry]??, folders: [String]??
        var cursor = try scanner.enter()
        while let key = try scanner.nextKey(&cursor) {
            switch key {
            case "version" where version == nil: version = .some(try scanner.number()?.intValue)
            case "tool" where tool == nil: tool = .some(try scanner.string())
            case "box" where box == nil: box = .some(try scanner.number()?.doubleValue)
            case "scales" where scales == nil: scales = .some(try doubles())
            case "options" where options == nil: options = try scanner.value()
            case "icons" where icons == nil: icons = .some(try iconList())
            case "errors" where errors == nil: errors = .some(try errorList())
            case "folders" where folders == nil: folders = .some(try strings())
            default: try scanner.skip()
            }
        }
        guard let version = version ?? nil, let tool = tool ?? nil, let box = (box ?? nil).flatMap(IconBox.init(points:)),
            let scales = scales ?? nil, let icons = icons ?? nil, let errors = errors ?? nil
        else { return nil }
        var manifest = Manifest(box: box, scales: scales, options: options.map(OptionFingerprint.init(json:)))
        manifest.version = version
        manifest.tool = tool
        manifest.folders = folders.flatMap { $0 } ?? []
        manifest.icons = icons
        manifest.errors = errors
        return manifest
    }

    /// The numbers of an array (other elements dropped); nil when it is not an array.
    private mutating func doubles() throws(JSONScanner.Failure) -> [Double]? {
        guard try scanner.isArray() else { try scanner.skip(); return nil }
        var values: [Double] = []
        var cursor = try scanner.enter()
        while try scanner.nextElement(&cursor) {
            if let number = try scanner.number() { values.append(number.doubleValue) }
        }
        return values
    }

    /// The strings of an array (other elements dropped); nil when it is not an array.
    private mutating func strings() throws(JSONScanner.Failure) -> [String]? {
        guard try scanner.isArray() else { try scanner.skip(); return nil }
        var values: [String] = []
        var cursor = try scanner.enter()
        while try scanner.nextElement(&cursor) {
            if let string = try scanner.string() { values.append(string) }
        }
        return values
    }

    private mutating func iconList() throws(JSONScanner.Failure) -> [Manifest.Icon]? {
        guard try scanner.isArray() else { try scanner.skip(); return nil }
        var icons: [Manifest.Icon] = []
        var cursor = try scanner.enter()
        while try scanner.nextElement(&cursor) {
            if outlining {
                try place()
            } else if let icon = try icon() {
                icons.append(icon)
            }
        }
        return icons
    }

    /// The next icon entry's place and input, the rest of it skipped. Each key SPEC §6 requires
    /// must be there with a value of its JSON kind (else the document is refused, as `manifest()`
    /// refuses it); what only reading the entry can judge (an integer's value, a rendition's
    /// keys) is left to that read. So an entry placed is at least the size of those keys.
    private mutating func place() throws(JSONScanner.Failure) {
        let start = scanner.position
        var input: String?
        var seen: UInt16 = 0, right: UInt16 = 0  // a bit a required key: met first, of its kind
        if try scanner.isObject() {
            var cursor = try scanner.enter()
            while let key = try scanner.nextKey(&cursor) {
                guard let required = Self.required(key), seen & required.bit == 0 else { try scanner.skip(); continue }
                seen |= required.bit
                if try scanner.kind() == required.kind { right |= required.bit }
                if key == "input" { input = try scanner.string() } else { try scanner.skip() }
            }
        } else {
            try scanner.skip()
        }
        guard right == Self.allRequired else {
            iconProblem = iconProblem ?? Self.iconLacksKey
            return
        }
        places.append(.init(start: UInt32(start), end: UInt32(scanner.position), inputHash: input?.hashValue ?? 0))
    }

    /// The keys an icon entry must have (SPEC §6), with the kind of value each must be; a bit each, its place here.
    private static let requiredKeys: [(key: String, kind: JSONScanner.Kind)] = [
        ("input", .string), ("name", .string), ("format", .string), ("contentHash", .string),
        ("pixelWidth", .number), ("pixelHeight", .number), ("orientation", .number),
        ("decodeScale", .number), ("pointWidth", .number), ("pointHeight", .number),
        ("hasAlpha", .bool), ("animated", .bool), ("lints", .array)
    ]
    private static let allRequired = UInt16((1 << requiredKeys.count) - 1)

    /// `key`'s bit and kind when it is a required key (compared in turn: a key is a short
    /// string, cheaper compared a dozen times than hashed once).
    private static func required(_ key: String) -> (bit: UInt16, kind: JSONScanner.Kind)? {
        for (place, required) in requiredKeys.enumerated() where required.key == key {
            return (UInt16(1) << place, required.kind)
        }
        return nil
    }

    private mutating func errorList() throws(JSONScanner.Failure) -> [Manifest.ErrorEntry]? {
        guard try scanner.isArray() else { try scanner.skip(); return nil }
        var entries: [Manifest.ErrorEntry] = []
        var cursor = try scanner.enter()
        while try scanner.nextElement(&cursor) {
            if let entry = try errorEntry() { entries.append(entry) }
        }
        return entries
    }

    // MARK: Entries

    /// One icon entry; nil (and the problem kept) when it lacks a key of SPEC §6.
    private mutating func icon(shared: Shared? = nil) throws(JSONScanner.Failure) -> Manifest.Icon? {
        guard try scanner.isObject() else {
            try scanner.skip()
            iconProblem = iconProblem ?? Self.iconLacksKey
            return nil
        }
        var input: String??, name: String??, format: String??, contentHash: RecordedHash??
        var pixelWidth: Int??, pixelHeight: Int??, orientation: Int??
        var hasAlpha: Bool??, animated: Bool??, vector: Bool??
        var decodeScale: Double??, pointWidth: Double??, pointHeight: Double??
        var renditions: [Manifest.RenditionEntry]??, renditionProblem: String?
        var contentsFile: Manifest.FileEntry??, selectorFile: Manifest.FileEntry??, vectorFile: Manifest.FileEntry??,
            inputStat: FileStat??
        var intent: String??, selectedTwin: String??, darkTwin: String??
        var lints: [Lint]??, options: JSONValue?
        var cursor = try scanner.enter()
        while let key = try scanner.nextKey(&cursor) {
            switch key {
            case "input" where input == nil: input = .some(try scanner.string(sharing: shared?.input))
            case "name" where name == nil: name = .some(try scanner.string())
            case "format" where format == nil: format = .some(try scanner.string())
            case "contentHash" where contentHash == nil: contentHash = .some(try scanner.string(RecordedHash.init(spelling:)))
            case "pixelWidth" where pixelWidth == nil: pixelWidth = .some(try scanner.number()?.intValue)
            case "pixelHeight" where pixelHeight == nil: pixelHeight = .some(try scanner.number()?.intValue)
            case "orientation" where orientation == nil: orientation = .some(try scanner.number()?.intValue)
            case "hasAlpha" where hasAlpha == nil: hasAlpha = .some(try scanner.bool())
            case "animated" where animated == nil: animated = .some(try scanner.bool())
            case "vector" where vector == nil: vector = .some(try scanner.bool())
            case "decodeScale" where decodeScale == nil: decodeScale = .some(try scanner.number()?.doubleValue)
            case "pointWidth" where pointWidth == nil: pointWidth = .some(try scanner.number()?.doubleValue)
            case "pointHeight" where pointHeight == nil: pointHeight = .some(try scanner.number()?.doubleValue)
            case "renditions" where renditions == nil:
                let read = try renditionList(paths: shared?.paths ?? [])
                renditions = .some(read.entries)
                renditionProblem = read.problem
            case "contentsFile" where contentsFile == nil: contentsFile = .some(try fileEntry())
            case "selectorFile" where selectorFile == nil: selectorFile = .some(try fileEntry())
            case "vectorFile" where vectorFile == nil: vectorFile = .some(try fileEntry())
            case "inputStat" where inputStat == nil: inputStat = .some(try fileStat())
            case "intent" where intent == nil: intent = .some(try scanner.string())
            case "selectedTwin" where selectedTwin == nil: selectedTwin = .some(try scanner.string())
            case "darkTwin" where darkTwin == nil: darkTwin = .some(try scanner.string())
            case "lints" where lints == nil: lints = .some(try lintList())
            case "options" where options == nil: options = try scanner.value()
            default: try scanner.skip()
            }
        }
        guard let input = input ?? nil, let name = name ?? nil, let format = format ?? nil,
            let pixelWidth = pixelWidth ?? nil, let pixelHeight = pixelHeight ?? nil,
            let orientation = orientation ?? nil, let hasAlpha = hasAlpha ?? nil, let animated = animated ?? nil,
            let contentHash = contentHash ?? nil, let decodeScale = decodeScale ?? nil,
            let pointWidth = pointWidth ?? nil, let pointHeight = pointHeight ?? nil, let lints = lints ?? nil
        else {
            iconProblem = iconProblem ?? Self.iconLacksKey
            return nil
        }
        if let renditionProblem {
            iconProblem = iconProblem ?? renditionProblem
            return nil
        }
        var fields = Manifest.Icon.Fields(
            input: input, name: name, format: format, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
            orientation: orientation, hasAlpha: hasAlpha, animated: animated,
            recordedContentHash: contentHash, decodeScale: decodeScale, pointWidth: pointWidth,
            pointHeight: pointHeight, lints: lints)
        fields.vector = vector == true ? true : nil
        fields.renditions = renditions ?? nil
        fields.contentsFile = contentsFile ?? nil
        fields.selectorFile = selectorFile ?? nil
        fields.vectorFile = vectorFile ?? nil
        fields.inputStat = inputStat ?? nil
        fields.intent = (intent ?? nil).flatMap(IconIntent.init(rawValue:))
        fields.selectedTwin = selectedTwin ?? nil
        fields.darkTwin = darkTwin ?? nil
        fields.options = options.map(OptionFingerprint.init(json:))
        return Manifest.Icon(fields)
    }

    /// The renditions; `entries` nil when it is not an array, `problem` when an element lacks a
    /// key or there are more than a run renders.
    private mutating func renditionList(paths: [String]) throws(JSONScanner.Failure) -> (
        entries: [Manifest.RenditionEntry]?, problem: String?
    ) {
        guard try scanner.isArray() else { try scanner.skip(); return (nil, nil) }
        var entries: [Manifest.RenditionEntry] = []
        entries.reserveCapacity(max(paths.count, 3))  // one per scale: this run's, or 1, 2 and 3
        var problem: String?
        var cursor = try scanner.enter()
        while try scanner.nextElement(&cursor) {
            // After a problem none is kept (the rest is only checked as JSON): the entry is not read.
            guard problem == nil else { try scanner.skip(); continue }
            guard entries.count < NormalizeOptions.mostScales else {
                problem = Self.tooManyRenditions
                try scanner.skip()
                continue
            }
            let path = entries.count < paths.count ? paths[entries.count] : nil
            guard let fields = try fileFields(path: path), let scale = fields.scale, let file = fields.file,
                let width = fields.pixelWidth, let height = fields.pixelHeight
            else { problem = Self.renditionLacksKey; continue }
            var rendition = Manifest.RenditionEntry(
                scale: scale, path: file.path, pixelWidth: width, pixelHeight: height,
                bytes: file.bytes, hash: file.recordedHash)
            rendition.stat = file.stat
            entries.append(rendition)
        }
        // Held for the whole run: no room left over from growing (a long list doubles).
        if entries.capacity > entries.count { entries = Array(entries[...]) }
        return (entries, problem)
    }

    private mutating func lintList() throws(JSONScanner.Failure) -> [Lint]? {
        guard try scanner.isArray() else { try scanner.skip(); return nil }
        var lints: [Lint] = []
        var cursor = try scanner.enter()
        while try scanner.nextElement(&cursor) {
            guard try scanner.isObject() else { try scanner.skip(); continue }
            var code: String??, message: String??
            var members = try scanner.enter()
            while let key = try scanner.nextKey(&members) {
                switch key {
                case "code" where code == nil: code = .some(try scanner.string())
                case "message" where message == nil: message = .some(try scanner.string())
                default: try scanner.skip()
                }
            }
            if let code = (code ?? nil).flatMap(Lint.Code.init(rawValue:)), let message = message ?? nil {
                lints.append(Lint(code, message))
            }
        }
        return lints
    }

    /// One error entry; nil (and the problem kept) when it lacks input, code or message.
    private mutating func errorEntry() throws(JSONScanner.Failure) -> Manifest.ErrorEntry? {
        var input: String??, code: String??, message: String??, keptFiles: [Manifest.FileEntry]??
        if try scanner.isObject() {
            var cursor = try scanner.enter()
            while let key = try scanner.nextKey(&cursor) {
                switch key {
                case "input" where input == nil: input = .some(try scanner.string())
                case "code" where code == nil: code = .some(try scanner.string())
                case "message" where message == nil: message = .some(try scanner.string())
                case "keptFiles" where keptFiles == nil: keptFiles = .some(try fileList())
                default: try scanner.skip()
                }
            }
        } else {
            try scanner.skip()
        }
        guard let input = input ?? nil, let code = code ?? nil, let message = message ?? nil else {
            errorProblem = errorProblem ?? Self.errorLacksKey
            return nil
        }
        var entry = Manifest.ErrorEntry(input: input, error: TabIconsError(.io, message))
        entry.code = code
        entry.keptFiles = keptFiles.flatMap { $0 } ?? []
        return entry
    }

    /// The file entries of an array (other elements dropped); nil when it is not an array.
    private mutating func fileList() throws(JSONScanner.Failure) -> [Manifest.FileEntry]? {
        guard try scanner.isArray() else { try scanner.skip(); return nil }
        var files: [Manifest.FileEntry] = []
        var cursor = try scanner.enter()
        while try scanner.nextElement(&cursor) {
            if let file = try fileEntry() { files.append(file) }
        }
        return files
    }

    // MARK: Files

    /// What an object describing a file may hold: a rendition's keys are a file entry's and three.
    private struct FileFields {
        var scale: Double?, pixelWidth: Int?, pixelHeight: Int?
        var file: Manifest.FileEntry?
    }

    /// A `contentsFile`, `selectorFile`, `vectorFile` or kept file: path, bytes and hash (and a stat record);
    /// nil for anything else.
    private mutating func fileEntry() throws(JSONScanner.Failure) -> Manifest.FileEntry? {
        try fileFields()?.file
    }

    private mutating func fileFields(path candidate: String? = nil) throws(JSONScanner.Failure) -> FileFields? {
        guard try scanner.isObject() else { try scanner.skip(); return nil }
        var scale: Double??, pixelWidth: Int??, pixelHeight: Int??, path: String??, bytes: Int??, hash: RecordedHash??
        var stat: FileStat??
        var cursor = try scanner.enter()
        while let key = try scanner.nextKey(&cursor) {
            switch key {
            case "path" where path == nil: path = .some(try scanner.string(sharing: candidate))
            case "bytes" where bytes == nil: bytes = .some(try scanner.number()?.intValue)
            case "hash" where hash == nil: hash = .some(try scanner.string(RecordedHash.init(spelling:)))
            case "stat" where stat == nil: stat = .some(try fileStat())
            case "scale" where scale == nil: scale = .some(try scanner.number()?.doubleValue)
            case "pixelWidth" where pixelWidth == nil: pixelWidth = .some(try scanner.number()?.intValue)
            case "pixelHeight" where pixelHeight == nil: pixelHeight = .some(try scanner.number()?.intValue)
            default: try scanner.skip()
            }
        }
        var fields = FileFields(scale: scale ?? nil, pixelWidth: pixelWidth ?? nil, pixelHeight: pixelHeight ?? nil)
        if let path = path ?? nil, let bytes = bytes ?? nil, let hash = hash ?? nil {
            fields.file = Manifest.FileEntry(path: path, bytes: bytes, hash: hash, stat: stat ?? nil)
        }
        return fields
    }

    /// A stat record (`FileStat`): all five numbers, or nil.
    private mutating func fileStat() throws(JSONScanner.Failure) -> FileStat? {
        guard try scanner.isObject() else { try scanner.skip(); return nil }
        var size: Int??, mtime: Int??, ctime: Int??, inode: Int??, device: Int??
        var cursor = try scanner.enter()
        while let key = try scanner.nextKey(&cursor) {
            switch key {
            case "size" where size == nil: size = .some(try scanner.number()?.intValue)
            case "mtime" where mtime == nil: mtime = .some(try scanner.number()?.intValue)
            case "ctime" where ctime == nil: ctime = .some(try scanner.number()?.intValue)
            case "inode" where inode == nil: inode = .some(try scanner.number()?.intValue)
            case "device" where device == nil: device = .some(try scanner.number()?.intValue)
            default: try scanner.skip()
            }
        }
        guard let size = size ?? nil, let mtime = mtime ?? nil, let ctime = ctime ?? nil,
            let inode = inode ?? nil, let device = device ?? nil
        else { return nil }
        return FileStat(
            size: size, mtime: mtime, ctime: ctime, inode: UInt64(truncatingIfNeeded: inode),
            device: UInt64(truncatingIfNeeded: device))
    }
}

extension Manifest {
    /// A manifest read back from its JSON text. A document that is not one (another tool's file,
    /// a hand edit that broke it) is an error; the batch then refuses to replace it.
    public init(parsing data: Data) throws(TabIconsError) {
        var reader = ManifestReader(Array(data))
        self = try reader.manifest()
    }
}

extension Manifest.Icon {
    /// An icon entry alone, as a worker sends its row; `sharing` lends the strings the caller
    /// holds (the input's name, the planned paths).
    init(parsing bytes: [UInt8], sharing: ManifestReader.Shared? = nil) throws(TabIconsError) {
        var reader = ManifestReader(bytes)
        reader.sharing = sharing
        self = try reader.iconRow()
    }
}
