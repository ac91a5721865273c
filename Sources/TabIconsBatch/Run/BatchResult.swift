import TabIcons

/// What a batch did (or, under `--check`, would do), beside the manifest it wrote.
public struct BatchResult: Sendable {
    /// The manifest the run wrote (or, checking, would write).
    public var manifest: Manifest

    /// Icons carried over from the previous run untouched, icons normalized, inputs that failed;
    /// files written, files whose bytes were already on disk (left as they were), stale files
    /// removed; icons too small for some of their scales (the `undersized` lint).
    public struct Counts: Sendable, Equatable {
        public var reused = 0
        public var normalized = 0
        public var failed = 0
        public var written = 0
        public var unchanged = 0
        public var removed = 0
        public var undersized = 0
    }
    public var counts = Counts()

    /// One file a run writes, changes or removes: under `--check`, the list of what is not up
    /// to date; after a real run, what changed.
    public struct Change: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable { case write, change, remove }
        public var kind: Kind
        /// Relative to the output root, or the manifest's path as given.
        public var path: String
        public var description: String { "\(kind.rawValue) \(path)" }
    }
    public var changes: [Change] = []

    /// The signal that stopped the batch before it finished (SIGINT, SIGTERM), else nil: the
    /// previous manifest was left as it was.
    public var stoppedBy: Int32?

    /// What the run ignored of what it read back (the previous manifest's entries that name no
    /// plain path below `--out`, a journal's bad lines), one line each (SPEC §6a).
    public var warnings: [String] = []

    /// Why the manifest could not be written, when it could not (the icons still were).
    public var manifestError: TabIconsError?

    /// Whether `--out` already was exactly what this run writes (what `--check` answers).
    public var isUpToDate: Bool { changes.isEmpty && manifest.errors.isEmpty }
}
