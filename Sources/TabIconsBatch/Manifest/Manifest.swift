import TabIcons
import Foundation

/// The document `tabicon normalize` writes and `inspect --json` prints (SPEC §6): content only,
/// the same bytes on any machine, at any time, for any `--jobs` (SPEC §6a "One record"). Keys,
/// declared once in each type's `CodingKeys`, may be added, never renamed (`ManifestWriter`).
public struct Manifest: Sendable, Equatable, Codable {
    public var version: Int
    public var tool: String
    public var box: Double
    public var scales: [Double]
    /// Every option that changes output bytes, and the tool's version (`OptionFingerprint`):
    /// an icon is carried over from the previous run only when this is unchanged. Nil for inspect,
    /// and when a previous manifest's options are not this version's.
    public var options: OptionFingerprint?
    public var icons: [Icon]
    public var errors: [ErrorEntry]
    /// Folders below `--out` that tabicon created (relative paths), so pruning removes those it
    /// made once they are empty, and never a folder someone else made.
    public var folders: [String]
    /// A fragment's only (`ManifestFragment`): the set lints' thresholds its render was given,
    /// when they are not the defaults, for `assemble` to judge the set with.
    package var lintThresholds: SetLints.Thresholds?

    enum CodingKeys: String, CodingKey {
        case version, tool, box, scales, options, icons, errors, folders
        case lintThresholds = "lints"
    }

    package init(
        box: IconBox, scales: [Double], options: OptionFingerprint? = nil, icons: [Icon] = [],
        errors: [ErrorEntry] = [], folders: [String] = []
    ) {
        self.version = 1
        self.tool = TabIconsVersion.tool
        self.box = box.points
        self.scales = scales
        self.options = options
        self.icons = icons
        self.errors = errors
        self.folders = folders
    }

    public init(from decoder: any Decoder) throws { try self.init(from: decoder, readingIcons: true) }

    /// Without its icons when `readingIcons` is false (`PreviousRun` reads them leniently).
    init(from decoder: any Decoder, readingIcons: Bool) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        version = try keys.decode(Int.self, forKey: .version)
        tool = try keys.decode(String.self, forKey: .tool)
        box = try keys.decode(Double.self, forKey: .box)
        scales = try keys.decode([Double].self, forKey: .scales)
        options = try keys.decodeIfPresent(OptionFingerprint.self, forKey: .options)
        lintThresholds = try keys.decodeIfPresent(SetLints.Thresholds.self, forKey: .lintThresholds)
        icons = readingIcons ? try keys.decode([Icon].self, forKey: .icons) : []
        errors = try keys.decode([ErrorEntry].self, forKey: .errors)
        folders = try keys.decodeIfPresent([String].self, forKey: .folders) ?? []
    }

    /// A manifest read back from its JSON text. A document that is not one (another tool's file,
    /// a hand edit that broke it) is a `corrupt` error; the batch then refuses to replace it.
    public init(parsing data: Data) throws(TabIconsError) {
        do {
            self = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw TabIconsError(.corrupt, "not a tabicon manifest: \(Self.describe(error))")
        }
    }

    /// A decoding failure in a sentence: which key, and what was wrong with it.
    static func describe(_ error: any Error) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the document" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context): return "\(place(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(place(context.codingPath)) has the wrong type"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(place(context.codingPath)) is not valid"
        // Foundation's own (a number no Swift type holds: 96.5 for an Int); never echoed, as
        // it may quote the file.
        default: return "a value is not of its key's kind"
        }
    }

    /// One written file: its screen scale, path relative to the output root, size and hash.
    public struct RenditionEntry: Sendable, Equatable, Codable {
        public var scale: Double
        public var path: String
        public var pixelWidth: Int
        public var pixelHeight: Int
        public var bytes: Int
        public var hash: String
        /// What the file system said of the file when this run wrote or checked it (`StatCache`).
        @Uncompared package var stat: FileStat? = nil

        enum CodingKeys: String, CodingKey { case scale, path, pixelWidth, pixelHeight, bytes, hash }

        public init(scale: Double, path: String, pixelWidth: Int, pixelHeight: Int, bytes: Int, hash: String) {
            self.scale = scale
            self.path = path
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.bytes = bytes
            self.hash = hash
        }
    }

    /// A file tabicon wrote that is not a rendition (an image set's `Contents.json`, a state list,
    /// a vector).
    public struct FileEntry: Sendable, Equatable, Hashable, Codable {
        public var path: String
        public var bytes: Int
        public var hash: String
        /// The stat cache's record of the file (see `RenditionEntry.stat`).
        @Uncompared package var stat: FileStat? = nil

        enum CodingKeys: String, CodingKey { case path, bytes, hash }

        public init(path: String, bytes: Int, hash: String) {
            self.path = path
            self.bytes = bytes
            self.hash = hash
        }

        /// The entry of a file that holds `bytes`.
        package init(path: String, of bytes: [UInt8]) {
            self.init(path: path, bytes: bytes.count, hash: ContentHash(of: bytes).description)
        }
    }

    /// One input that failed, with its error code and the library's reason.
    public struct ErrorEntry: Sendable, Equatable, Codable {
        public var input: String
        public var code: String
        public var message: String
        /// The files of this input's last good run, left in place because this run failed for
        /// it (SPEC §6a "Whole sets"); still tabicon's, so a later run can replace or prune them.
        public var keptFiles: [FileEntry] = []

        enum CodingKeys: String, CodingKey { case input, code, message, keptFiles }

        public init(input: String, error: TabIconsError) {
            self.input = input
            self.code = error.code.rawValue
            self.message = error.message
        }

        public init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: CodingKeys.self)
            input = try keys.decode(String.self, forKey: .input)
            code = try keys.decode(String.self, forKey: .code)
            message = try keys.decode(String.self, forKey: .message)
            keptFiles = try keys.decodeIfPresent([FileEntry].self, forKey: .keptFiles) ?? []
        }
    }

    /// One icon that decoded, with what was learned and (for normalize) what was written.
    public struct Icon: Sendable, Equatable, Codable {
        public var input: String
        public var name: String
        public var format: String
        public var pixelWidth: Int
        public var pixelHeight: Int
        public var orientation: Int
        public var hasAlpha: Bool
        public var animated: Bool
        /// SVG: renditions drawn from the document, `pixelWidth`/`pixelHeight` its intrinsic size.
        public var vector: Bool?
        /// `ContentHash`'s text of the input's bytes.
        public var contentHash: String
        public var decodeScale: Double
        public var pointWidth: Double
        public var pointHeight: Double
        /// How the platform is told to draw the icon (`IconIntent`); nil in an entry written
        /// before intents were recorded (such an entry is never carried over).
        public var intent: IconIntent?
        /// The input path of the icon's selected twin and of its dark twin (`IconTwins`), set for
        /// the run as a whole (an icon carried over gets the links of this run's inputs).
        public var selectedTwin: String?
        public var darkTwin: String?
        public var renditions: [RenditionEntry]?
        /// The xcassets image set's `Contents.json`, which the icon's run also owns.
        public var contentsFile: FileEntry?
        /// Android's state list for an icon with a selected twin (`drawable/NAME_selector.xml`).
        public var selectorFile: FileEntry?
        /// With `--vector`, the SVG or VectorDrawable written for an SVG input (its renditions are
        /// then only PNG fallbacks: none when the vector was written).
        public var vectorFile: FileEntry?
        /// With `--symbols`, the custom symbol's template written for an SVG input
        /// (`NAME.symbolset/NAME.svg`, SF Symbols template 3.0), in place of its image set.
        public var symbolFile: FileEntry?
        /// The options this icon was made with (`OptionFingerprint`), when they are not the run's
        /// (`--config`'s `icons` entries); absent: the manifest's top-level `options`.
        public var options: OptionFingerprint?
        public var lints: [Lint]
        /// What the eye sees of the icon (SPEC §3a, `IconMeasures`); nil in an entry written before
        /// measures were recorded (such an entry is never carried over).
        public var measures: IconMeasures?
        /// The config's `set` this icon is judged in (SPEC §3a); absent: the run's one set.
        public var set: String?
        /// The stat cache's record of the input, as this run read or checked it.
        @Uncompared package var inputStat: FileStat? = nil

        enum CodingKeys: String, CodingKey {
            case input, name, format, pixelWidth, pixelHeight, orientation, hasAlpha, animated, vector, contentHash
            case decodeScale, pointWidth, pointHeight, intent, selectedTwin, darkTwin, renditions, contentsFile
            case selectorFile, vectorFile, symbolFile, options, lints, measures, set
        }

        /// A row from its figures. Decode scale and point size are held as `NumberText` writes
        /// them (3.84, not 3.8400000000000003), so a manifest read back equals the one written.
        package init(
            input: String, name: String, format: ImageFormat, pixelWidth: Int, pixelHeight: Int,
            orientation: Orientation, hasAlpha: Bool, animated: Bool, vector: Bool, contentHash: ContentHash,
            decodeScale: Double, pointWidth: Double, pointHeight: Double, intent: IconIntent?,
            renditions: [RenditionEntry]?, lints: [Lint]
        ) {
            self.input = input
            self.name = name
            self.format = format.rawValue
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.orientation = orientation.rawValue
            self.hasAlpha = hasAlpha
            self.animated = animated
            self.vector = vector ? true : nil
            self.contentHash = contentHash.description
            self.decodeScale = NumberText.rounded(decodeScale)
            self.pointWidth = NumberText.rounded(pointWidth)
            self.pointHeight = NumberText.rounded(pointHeight)
            self.intent = intent
            self.renditions = renditions
            self.lints = lints
        }

        /// A row for a source described by `info` (tests and tools that make rows by hand).
        package init(
            input: String, name: String, info: ImageInfo, contentHash: ContentHash,
            decodeScale: Double, pointWidth: Double, pointHeight: Double,
            renditions: [RenditionEntry]?, lints: [Lint]
        ) {
            self.init(
                input: input, name: name, format: info.format, pixelWidth: info.pixelWidth,
                pixelHeight: info.pixelHeight, orientation: info.orientation, hasAlpha: info.hasAlpha,
                animated: info.isAnimated, vector: info.isVector, contentHash: contentHash, decodeScale: decodeScale,
                pointWidth: pointWidth, pointHeight: pointHeight, intent: nil, renditions: renditions, lints: lints)
        }

        /// Every file this icon's run wrote.
        package var ownedFiles: [FileEntry] {
            (renditions ?? []).map { rendition in
                var file = FileEntry(path: rendition.path, bytes: rendition.bytes, hash: rendition.hash)
                file.stat = rendition.stat
                return file
            } + [contentsFile, selectorFile, vectorFile, symbolFile].compactMap { $0 }
        }

        /// The same entry with each owned file's `stat` from `statOf` (nil where it answers nil).
        package func withFileStats(_ statOf: (String) -> FileStat?) -> Icon {
            var icon = self
            for index in renditions?.indices ?? 0..<0 { icon.renditions![index].stat = statOf(renditions![index].path) }
            for file in [\Icon.contentsFile, \.selectorFile, \.vectorFile, \.symbolFile] {
                if let path = self[keyPath: file]?.path { icon[keyPath: file]?.stat = statOf(path) }
            }
            return icon
        }

        /// What makes an entry read back unusable, or nil (SPEC §6a "What it reads back is untrusted").
        package var problem: String? {
            if let problem = Manifest.problem(of: ownedFiles) { return problem }
            if (renditions?.count ?? 0) > NormalizeOptions.mostScales {
                return "it lists more renditions than \(NormalizeOptions.mostScales), the most a run renders"
            }
            return pixelWidth < 0 || pixelHeight < 0 ? "it records a negative size" : nil
        }
    }

    /// What makes files read back unusable (an icon's, or an error's kept files), or nil.
    static func problem(of files: [FileEntry]) -> String? {
        if let bad = files.first(where: { !RelativePath.isPlain($0.path) }) {
            return "its path \(bad.path.debugDescription) is not a plain path below --out"
        }
        return files.contains { $0.bytes < 0 } ? "it records a negative size" : nil
    }
}

/// An element of a list read back that may not decode: kept as nil rather than failing the
/// document, so one bad entry of a manifest is ignored (with a warning), not the whole file.
struct Lenient<Value: Decodable & Sendable>: Decodable, Sendable {
    let value: Value?
    let failure: String?

    init(from decoder: any Decoder) {
        do {
            value = try Value(from: decoder)
            failure = nil
        } catch {
            value = nil
            failure = Manifest.describe(error)
        }
    }
}

/// What a manifest entry carries for the run only (the stat cache's records): never written,
/// compared or hashed, so two entries of the same content are equal whatever a file's stat.
@propertyWrapper
package struct Uncompared<Value: Sendable>: Sendable, Hashable {
    package var wrappedValue: Value
    package init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    package static func == (a: Self, b: Self) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}
