import TabIcons
import Foundation

/// The document `tabicon normalize` writes and `tabicon inspect --json` prints (SPEC §6), as
/// build pipelines read it. Keys may be added over time, never renamed; `renditions` is absent
/// from an inspect document.
///
/// One writer (`ManifestWriter`, streamed) and one reader (`ManifestReader`, streamed, behind
/// `init(parsing:)`): the next run reads this document back as its cache (SPEC §6a), so the two
/// must stay each other's inverse, which a test checks.
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

    package init(
        box: IconBox, scales: [Double], options: OptionFingerprint? = nil, icons: [Icon] = [],
        errors: [ErrorEntry] = [], folders: [String] = []
    ) {
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
        public var contentsFile: FileEntry? {
            get { _contentsFile?.value }
            set { _contentsFile = newValue.map(OptionalBox.init) }
        }
        /// Android's state list for an icon with a selected twin (`drawable/NAME_selector.xml`),
        /// which the icon's run owns.
        public var selectorFile: FileEntry? {
            get { _selectorFile?.value }
            set { _selectorFile = newValue.map(OptionalBox.init) }
        }
        /// With `--vector`, the SVG or VectorDrawable written for an SVG input (its renditions are
        /// then only PNG fallbacks: none when the vector was written).
        public var vectorFile: FileEntry? {
            get { _vectorFile?.value }
            set { _vectorFile = newValue.map(OptionalBox.init) }
        }
        // Boxed: most entries have none of them, and a set of thousands holds its entries twice
        // (the previous run's and this run's), so each costs a pointer, not a file entry.
        private var _contentsFile: OptionalBox<FileEntry>?
        private var _selectorFile: OptionalBox<FileEntry>?
        private var _vectorFile: OptionalBox<FileEntry>?
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
        package init(
            input: String, name: String, icon: NormalizedIcon, contentHash: ContentHash,
            renditions: [RenditionEntry]?, contentsFile: FileEntry? = nil
        ) {
            self.init(
                input: input, name: name, info: icon.source, contentHash: contentHash,
                decodeScale: icon.decodeScale, pointWidth: icon.pointWidth, pointHeight: icon.pointHeight,
                renditions: renditions, contentsFile: contentsFile, lints: icon.lints)
            self.intent = icon.intent
        }

        package init(
            input: String, name: String, info: ImageInfo, contentHash: ContentHash,
            decodeScale: Double, pointWidth: Double, pointHeight: Double,
            renditions: [RenditionEntry]?, contentsFile: FileEntry? = nil, lints: [Lint]
        ) {
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
            self.lints = lints
            self.contentsFile = contentsFile
        }

        /// Every entry's keys, as the manifest reader finds them (`ManifestReader`).
        package init(
            input: String, name: String, format: String, pixelWidth: Int, pixelHeight: Int, orientation: Int,
            hasAlpha: Bool, animated: Bool, contentHash: String, decodeScale: Double, pointWidth: Double,
            pointHeight: Double, lints: [Lint]
        ) {
            self.input = input
            self.name = name
            self.format = format
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.orientation = orientation
            self.hasAlpha = hasAlpha
            self.animated = animated
            self.contentHash = contentHash
            self.decodeScale = decodeScale
            self.pointWidth = pointWidth
            self.pointHeight = pointHeight
            self.lints = lints
        }

        /// Every file this icon's run wrote: its renditions, its `Contents.json`, its state list
        /// and its vector file.
        package var ownedFiles: [FileEntry] {
            (renditions ?? []).map { FileEntry(path: $0.path, bytes: $0.bytes, hash: $0.hash, stat: $0.stat) }
                + (contentsFile.map { [$0] } ?? []) + (selectorFile.map { [$0] } ?? []) + (vectorFile.map { [$0] } ?? [])
        }

        /// How many files `ownedFiles` lists, without making the list.
        package var ownedFileCount: Int {
            var count = 0
            forEachOwnedPath { _ in count += 1 }
            return count
        }

        /// Whether every owned file's path passes `test`, without making the list of them.
        package func allOwnedPaths(_ test: (String) -> Bool) -> Bool {
            var all = true
            forEachOwnedPath { path in if all, !test(path) { all = false } }
            return all
        }

        /// Each owned file's path, in `ownedFiles`' order, without making the list of them.
        package func forEachOwnedPath(_ body: (String) -> Void) {
            for rendition in renditions ?? [] { body(rendition.path) }
            if let contentsFile { body(contentsFile.path) }
            if let selectorFile { body(selectorFile.path) }
            if let vectorFile { body(vectorFile.path) }
        }

        /// The entry without its stat records.
        package var withoutStats: Icon {
            var icon = withFileStats { _ in nil }
            icon.inputStat = nil
            return icon
        }

        /// The same entry with each owned file's `stat` from `statOf` (nil where it answers nil),
        /// `statOf` asked once a file. Where no stat differs the entry keeps its arrays and boxes
        /// (a rerun's carried-over rows then share them with the previous manifest's).
        package func withFileStats(_ statOf: (String) -> FileStat?) -> Icon {
            var icon = self
            if let renditions {
                var renewed: [RenditionEntry]?
                for (index, entry) in renditions.enumerated() {
                    let stat = statOf(entry.path)
                    guard stat != entry.stat else { continue }
                    if renewed == nil { renewed = renditions }
                    renewed![index].stat = stat
                }
                if let renewed { icon.renditions = renewed }
            }
            func renewed(_ file: FileEntry?) -> FileEntry? {
                guard var file else { return nil }
                let stat = statOf(file.path)
                guard stat != file.stat else { return nil }
                file.stat = stat
                return file
            }
            if let file = renewed(contentsFile) { icon.contentsFile = file }
            if let file = renewed(selectorFile) { icon.selectorFile = file }
            if let file = renewed(vectorFile) { icon.vectorFile = file }
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

        package init(scale: Double, path: String, pixelWidth: Int, pixelHeight: Int, bytes: Int, hash: ContentHash) {
            self.init(
                scale: scale, path: path, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
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

        package init(path: String, bytes: Int, hash: String) {
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

        /// The entry without the stat records of its kept files.
        package var withoutStats: ErrorEntry {
            var entry = self
            entry.keptFiles = keptFiles.map { .init(path: $0.path, bytes: $0.bytes, hash: $0.hash) }
            return entry
        }
    }

    /// The document without its stat records (`FileStat`): what a run produces, whichever
    /// machine's file system it ran on.
    package var withoutStats: Manifest {
        var manifest = self
        manifest.icons = icons.map(\.withoutStats)
        manifest.errors = errors.map(\.withoutStats)
        return manifest
    }

    /// Whether the two documents are equal but for their stat records, entry by entry: what
    /// `withoutStats` of each would answer, without a copy of either.
    package func equalsIgnoringStats(_ other: Manifest) -> Bool {
        var head = self, otherHead = other
        head.icons = []
        head.errors = []
        otherHead.icons = []
        otherHead.errors = []
        return head == otherHead && icons.count == other.icons.count && errors.count == other.errors.count
            && zip(icons, other.icons).allSatisfy { $0.withoutStats == $1.withoutStats }
            && zip(errors, other.errors).allSatisfy { $0.withoutStats == $1.withoutStats }
    }
}

/// A value held behind one pointer, compared by value: for a rarely set field of a struct that
/// arrays hold by the thousand (`Manifest.Icon`).
struct OptionalBox<Value: Sendable & Equatable>: Sendable, Equatable {
    private final class Storage: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let storage: Storage
    init(_ value: Value) { storage = Storage(value) }
    var value: Value { storage.value }

    static func == (a: Self, b: Self) -> Bool { a.storage === b.storage || a.value == b.value }
}
