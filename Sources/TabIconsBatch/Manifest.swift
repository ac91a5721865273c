import TabIcons
import Foundation

/// The document `tabicon normalize` writes and `tabicon inspect --json` prints (SPEC §6), as
/// build pipelines read it. Keys may be added over time, never renamed; `renditions` is absent
/// from an inspect document.
///
/// One writer (`jsonValue`, through `JSONValue`) and one reader (`init(parsing:)`, through
/// `JSONParser`): the next run reads this document back as its cache (SPEC §6a), so the two must
/// stay each other's inverse, which a test checks.
public struct Manifest: Sendable, Equatable {
    public var version: Int
    public var tool: String
    public var box: Double
    public var scales: [Double]
    /// Every option that changes output bytes, and the tool's version (`OptionFingerprint`):
    /// an icon is carried over from the previous run only when this is unchanged. Nil for inspect.
    public var options: OptionFingerprint?
    public var icons: [Icon]
    public var errors: [ErrorEntry]
    /// Folders below `--out` that tabicon created (relative paths), so pruning removes those it
    /// made once they are empty, and never a folder someone else made.
    public var folders: [String]

    public init(box: IconBox, scales: [Double], options: OptionFingerprint? = nil, icons: [Icon] = [],
                errors: [ErrorEntry] = [], folders: [String] = []) {
        self.version = 1
        self.tool = "tabicon \(TabIconsVersion.current)"
        self.box = box.points
        self.scales = scales
        self.options = options
        self.icons = icons
        self.errors = errors
        self.folders = folders
    }

    /// One icon that decoded, with what was learned and (for normalize) what was written.
    public struct Icon: Sendable, Equatable {
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
        public var contentHash: String
        public var decodeScale: Double
        public var pointWidth: Double
        public var pointHeight: Double
        public var renditions: [RenditionEntry]?
        /// The xcassets image set's `Contents.json`, which the icon's run also owns.
        public var contentsFile: FileEntry?
        /// Android's state list for an icon with a selected twin (`drawable/NAME_selector.xml`),
        /// which the icon's run owns.
        public var selectorFile: FileEntry?
        /// What the file system said of the input when it was read (`FileStat`): while it still
        /// says so, the input is not read again (`StatCache`).
        package var inputStat: FileStat?
        public var lints: [Lint]
        /// How the platform is told to draw the icon (`IconIntent`); nil in an entry written
        /// before intents were recorded (such an entry is never carried over).
        public var intent: IconIntent?
        /// The input path of the icon's selected twin and of its dark twin (`IconTwins`), set for
        /// the run as a whole (an icon carried over gets the links of this run's inputs).
        public var selectedTwin: String?
        public var darkTwin: String?
        /// The options this icon was made with (`OptionFingerprint`), when they are not the run's
        /// (`--config`'s `icons` entries); absent: the manifest's top-level `options`.
        public var options: OptionFingerprint?

        /// The row for a normalized icon: decode scale and point size are the normalizer's, of
        /// the icon as laid out (after trim, on its square or circle), never worked out again.
        public init(input: String, name: String, icon: NormalizedIcon, contentHash: ContentHash,
                    renditions: [RenditionEntry]?, contentsFile: FileEntry? = nil) {
            self.init(input: input, name: name, info: icon.source, contentHash: contentHash,
                      decodeScale: icon.decodeScale, pointWidth: icon.pointWidth, pointHeight: icon.pointHeight,
                      renditions: renditions, contentsFile: contentsFile, lints: icon.lints)
            self.intent = icon.intent
        }

        public init(input: String, name: String, info: ImageInfo, contentHash: ContentHash,
                    decodeScale: Double, pointWidth: Double, pointHeight: Double,
                    renditions: [RenditionEntry]?, contentsFile: FileEntry? = nil, lints: [Lint]) {
            self.input = input
            self.name = name
            self.format = info.format.rawValue
            self.pixelWidth = info.pixelWidth
            self.pixelHeight = info.pixelHeight
            self.orientation = info.orientation.rawValue
            self.hasAlpha = info.hasAlpha
            self.animated = info.isAnimated
            self.vector = info.isVector ? true : nil
            self.contentHash = contentHash.description
            // Held as `NumberText` writes them (3.84, not 3.8400000000000003), so a manifest read
            // back equals the one written.
            self.decodeScale = NumberText.rounded(decodeScale)
            self.pointWidth = NumberText.rounded(pointWidth)
            self.pointHeight = NumberText.rounded(pointHeight)
            self.renditions = renditions
            self.contentsFile = contentsFile
            self.lints = lints
        }

        /// Every file this icon's run wrote: its renditions, its `Contents.json` and its state list.
        public var ownedFiles: [FileEntry] {
            (renditions ?? []).map { FileEntry(path: $0.path, bytes: $0.bytes, hash: $0.hash, stat: $0.stat) }
                + (contentsFile.map { [$0] } ?? []) + (selectorFile.map { [$0] } ?? [])
        }

        /// The same entry with each owned file's `stat` from `statOf` (nil where it answers nil).
        package func withFileStats(_ statOf: (String) -> FileStat?) -> Icon {
            var icon = self
            icon.renditions = renditions?.map { var entry = $0; entry.stat = statOf($0.path); return entry }
            icon.contentsFile = contentsFile.map { var entry = $0; entry.stat = statOf($0.path); return entry }
            icon.selectorFile = selectorFile.map { var entry = $0; entry.stat = statOf($0.path); return entry }
            return icon
        }
    }

    /// One written file: its screen scale, path relative to the output root, size and hash.
    public struct RenditionEntry: Sendable, Equatable {
        public var scale: Double
        public var path: String
        public var pixelWidth: Int
        public var pixelHeight: Int
        public var bytes: Int
        public var hash: String
        /// What the file system said of the file when tabicon last wrote or read it.
        package var stat: FileStat?

        public init(scale: Double, path: String, pixelWidth: Int, pixelHeight: Int, bytes: Int, hash: ContentHash) {
            self.init(scale: scale, path: path, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                      bytes: bytes, hash: hash.description)
        }

        init(scale: Double, path: String, pixelWidth: Int, pixelHeight: Int, bytes: Int, hash: String) {
            self.scale = scale
            self.path = path
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.bytes = bytes
            self.hash = hash
        }
    }

    /// A file tabicon wrote that is not a rendition (an image set's `Contents.json`).
    public struct FileEntry: Sendable, Equatable, Hashable {
        public var path: String
        public var bytes: Int
        public var hash: String
        /// What the file system said of the file when tabicon last wrote or read it.
        package var stat: FileStat?

        public init(path: String, bytes: Int, hash: String) {
            self.path = path
            self.bytes = bytes
            self.hash = hash
        }

        package init(path: String, bytes: Int, hash: String, stat: FileStat?) {
            self.init(path: path, bytes: bytes, hash: hash)
            self.stat = stat
        }
    }

    /// One input that failed, with its error code and the library's reason.
    public struct ErrorEntry: Sendable, Equatable {
        public var input: String
        public var code: String
        public var message: String
        /// The files of this input's last good run, left in place because this run failed for
        /// it (SPEC §6a "Whole sets"); still tabicon's, so a later run can replace or prune them.
        public var keptFiles: [FileEntry] = []

        public init(input: String, error: TabIconsError) {
            self.input = input
            self.code = error.code.rawValue
            self.message = error.message
        }
    }

    /// The document without its stat records (`FileStat`): what a run produces, whichever
    /// machine's file system it ran on.
    package var withoutStats: Manifest {
        var manifest = self
        for index in manifest.icons.indices {
            manifest.icons[index] = manifest.icons[index].withFileStats { _ in nil }
            manifest.icons[index].inputStat = nil
        }
        for index in manifest.errors.indices {
            manifest.errors[index].keptFiles = manifest.errors[index].keptFiles.map { .init(path: $0.path, bytes: $0.bytes, hash: $0.hash) }
        }
        return manifest
    }

    /// The document as pretty-printed JSON, keys in the order SPEC §6 shows them.
    public func jsonData() -> Data { Data(jsonBytes) }

    package var jsonBytes: [UInt8] {
        var bytes = jsonValue.utf8()
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
