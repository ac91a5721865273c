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

    /// One written file: its screen scale, path relative to the output root, size and hash.
    public struct RenditionEntry: Sendable, Equatable {
        public var scale: Double
        public var path: String
        public var pixelWidth: Int
        public var pixelHeight: Int
        public var bytes: Int
        public var hash: String {
            get { recordedHash.text }
            set { recordedHash = RecordedHash(newValue) }
        }
        package var recordedHash: RecordedHash
        /// What the file system said of the file when tabicon last wrote or read it.
        package var stat: FileStat?

        package init(scale: Double, path: String, pixelWidth: Int, pixelHeight: Int, bytes: Int, hash: ContentHash) {
            self.init(
                scale: scale, path: path, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                bytes: bytes, hash: RecordedHash(hash))
        }

        init(scale: Double, path: String, pixelWidth: Int, pixelHeight: Int, bytes: Int, hash: String) {
            self.init(
                scale: scale, path: path, pixelWidth: pixelWidth, pixelHeight: pixelHeight, bytes: bytes,
                hash: RecordedHash(hash))
        }

        init(scale: Double, path: String, pixelWidth: Int, pixelHeight: Int, bytes: Int, hash: RecordedHash) {
            self.scale = scale
            self.path = path
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.bytes = bytes
            self.recordedHash = hash
        }
    }

    /// A file tabicon wrote that is not a rendition (an image set's `Contents.json`).
    public struct FileEntry: Sendable, Equatable, Hashable {
        public var path: String
        public var bytes: Int
        public var hash: String {
            get { recordedHash.text }
            set { recordedHash = RecordedHash(newValue) }
        }
        package var recordedHash: RecordedHash
        /// What the file system said of the file when tabicon last wrote or read it.
        package var stat: FileStat?

        package init(path: String, bytes: Int, hash: String, stat: FileStat? = nil) {
            self.init(path: path, bytes: bytes, hash: RecordedHash(hash), stat: stat)
        }

        package init(path: String, bytes: Int, hash: ContentHash) {
            self.init(path: path, bytes: bytes, hash: RecordedHash(hash))
        }

        package init(path: String, bytes: Int, hash: RecordedHash, stat: FileStat? = nil) {
            self.path = path
            self.bytes = bytes
            self.recordedHash = hash
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
            entry.keptFiles = keptFiles.map { .init(path: $0.path, bytes: $0.bytes, hash: $0.recordedHash) }
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
