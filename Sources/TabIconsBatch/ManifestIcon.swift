import TabIcons

extension Manifest {
    /// One icon that decoded, with what was learned and (for normalize) what was written: its
    /// `Fields`, read and set as the icon's own properties (`icon.input`, `icon.renditions`).
    ///
    /// The fields are held behind one reference and copied on write, and setting a field to the
    /// value it holds changes nothing: a row carried over unchanged (its options, stat record,
    /// twins and shared files set again to what they were) is the entry as read, not a second copy
    /// of its fields (what `--check` keeps of the entry to compare with is then the row itself).
    @dynamicMemberLookup
    public struct Icon: Sendable, Equatable, CustomReflectable {
        public struct Fields: Sendable, Equatable {
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
            package var recordedContentHash: RecordedHash
            public var decodeScale: Double
            public var pointWidth: Double
            public var pointHeight: Double
            public var renditions: [RenditionEntry]?
            // Boxed: most entries have none of them, so each costs a pointer, not a file entry.
            fileprivate var _contentsFile: OptionalBox<FileEntry>?
            fileprivate var _selectorFile: OptionalBox<FileEntry>?
            fileprivate var _vectorFile: OptionalBox<FileEntry>?
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

            /// The keys SPEC §6 requires; the optional ones unset.
            package init(
                input: String, name: String, format: String, pixelWidth: Int, pixelHeight: Int, orientation: Int,
                hasAlpha: Bool, animated: Bool, recordedContentHash: RecordedHash, decodeScale: Double,
                pointWidth: Double, pointHeight: Double, lints: [Lint]
            ) {
                self.input = input
                self.name = name
                self.format = format
                self.pixelWidth = pixelWidth
                self.pixelHeight = pixelHeight
                self.orientation = orientation
                self.hasAlpha = hasAlpha
                self.animated = animated
                self.recordedContentHash = recordedContentHash
                self.decodeScale = decodeScale
                self.pointWidth = pointWidth
                self.pointHeight = pointHeight
                self.lints = lints
            }

            /// `ContentHash`'s text of the input's bytes.
            public var contentHash: String {
                get { recordedContentHash.text }
                set { recordedContentHash = RecordedHash(newValue) }
            }
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
        }

        private final class Storage: @unchecked Sendable {
            // Changed only through `Icon`'s setter, while that icon is its one reference.
            var fields: Fields
            init(_ fields: Fields) { self.fields = fields }
        }

        private var storage: Storage

        public subscript<Value: Equatable>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
            get { storage.fields[keyPath: field] }
            set {
                guard storage.fields[keyPath: field] != newValue else { return }
                if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
                storage.fields[keyPath: field] = newValue
            }
        }

        public static func == (a: Icon, b: Icon) -> Bool {
            a.storage === b.storage || a.storage.fields == b.storage.fields
        }

        /// Printed (and shown by a failed expectation) as its fields.
        public var customMirror: Mirror { Mirror(reflecting: storage.fields) }

        /// All the fields at once.
        package var fields: Fields { storage.fields }

        /// Whether the two are one entry (a row carried over untouched is its previous entry).
        package func isSameEntry(as other: Icon) -> Bool { storage === other.storage }

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
            // Held as `NumberText` writes them (3.84, not 3.8400000000000003), so a manifest read
            // back equals the one written.
            var fields = Fields(
                input: input, name: name, format: info.format.rawValue, pixelWidth: info.pixelWidth,
                pixelHeight: info.pixelHeight, orientation: info.orientation.rawValue, hasAlpha: info.hasAlpha,
                animated: info.isAnimated, recordedContentHash: RecordedHash(contentHash),
                decodeScale: NumberText.rounded(decodeScale), pointWidth: NumberText.rounded(pointWidth),
                pointHeight: NumberText.rounded(pointHeight), lints: lints)
            fields.vector = info.isVector ? true : nil
            fields.renditions = renditions
            fields.contentsFile = contentsFile
            storage = Storage(fields)
        }

        /// Every entry's keys, as the manifest reader finds them (`ManifestReader`).
        package init(
            input: String, name: String, format: String, pixelWidth: Int, pixelHeight: Int, orientation: Int,
            hasAlpha: Bool, animated: Bool, contentHash: String, decodeScale: Double, pointWidth: Double,
            pointHeight: Double, lints: [Lint]
        ) {
            self.init(
                Fields(
                    input: input, name: name, format: format, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                    orientation: orientation, hasAlpha: hasAlpha, animated: animated,
                    recordedContentHash: RecordedHash(contentHash), decodeScale: decodeScale, pointWidth: pointWidth,
                    pointHeight: pointHeight, lints: lints))
        }

        /// An entry of these fields, all set at once (the reader's optional keys too), none
        /// through the setter's key path.
        package init(_ fields: Fields) { storage = Storage(fields) }

        /// Every file this icon's run wrote: its renditions, its `Contents.json`, its state list
        /// and its vector file.
        package var ownedFiles: [FileEntry] {
            (self.renditions ?? []).map {
                FileEntry(path: $0.path, bytes: $0.bytes, hash: $0.recordedHash, stat: $0.stat)
            } + [self.contentsFile, self.selectorFile, self.vectorFile].compactMap { $0 }
        }

        /// How many files `ownedFiles` lists, without making the list.
        package var ownedFileCount: Int {
            var count = 0
            forEachOwnedPath { _ in count += 1 }
            return count
        }

        /// Each owned file's path, in `ownedFiles`' order, without making the list of them.
        package func forEachOwnedPath(_ body: (String) -> Void) {
            for rendition in fields.renditions ?? [] { body(rendition.path) }
            if let file = fields.contentsFile { body(file.path) }
            if let file = fields.selectorFile { body(file.path) }
            if let file = fields.vectorFile { body(file.path) }
        }

        /// The entry without its stat records.
        package var withoutStats: Icon {
            var icon = withFileStats { _ in nil }
            icon.inputStat = nil
            return icon
        }

        /// The same entry with each owned file's `stat` from `statOf` (nil where it answers nil),
        /// `statOf` asked once a file. Where no stat differs it is the same entry, not a copy.
        package func withFileStats(_ statOf: (String) -> FileStat?) -> Icon {
            var icon = self
            if let renditions = self.renditions {
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
            if let file = renewed(self.contentsFile) { icon.contentsFile = file }
            if let file = renewed(self.selectorFile) { icon.selectorFile = file }
            if let file = renewed(self.vectorFile) { icon.vectorFile = file }
            return icon
        }
    }
}
