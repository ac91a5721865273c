import TabIcons
import Foundation

/// The previous run as its manifest, the stat cache and a stopped run's journal recorded it: the
/// incremental cache and the files tabicon owns (SPEC §6a). Untrusted: an entry that does not
/// decode or names a path that is not plain is dropped with a warning, never reused or pruned.
struct PreviousRun: Sendable {
    /// The manifest's text as read (nil when there is none), which the new one is compared with.
    let text: [UInt8]?
    /// The icon entries that read, in the file's order, and the first of them for each input.
    private let icons: [Manifest.Icon]
    private let entryByInput: [String: Int]
    /// The errors' kept files and the folders, without those that name a path that is not plain.
    private let keptByInput: [String: [Manifest.FileEntry]]
    private let recordedFolders: [String]
    private let manifestWarnings: [String]
    /// Files and folders a run that did not finish committed.
    private let journal: RunJournal.Entries
    /// Whether the previous run had this run's options (compared once, not per input), and the
    /// two fingerprints for an icon with options of its own (`--config`).
    private let sameOptions: Bool
    private let recordedOptions: OptionFingerprint?
    private let runOptions: OptionFingerprint
    /// The stat records beside the manifest.
    let statCache: StatCache

    /// `trustStats` false (`--verify`): every input and recorded file is read and hashed.
    init(manifestPath: String, fingerprint: OptionFingerprint, journal: RunJournal, trustStats: Bool = true)
        throws(BatchUsageError)
    {
        var warnings: [String] = []
        // The stat cache is decoded beside the manifest, on another thread.
        let cache = LockedState<StatCache?>(nil)
        let reading = DispatchGroup()
        DispatchQueue.global().async(group: reading) {
            cache.withLock { $0 = StatCache(readingFrom: StatCache.path(manifestPath: manifestPath), trusted: trustStats) }
        }
        let manifest = Result { () throws(BatchUsageError) in try Self.read(manifestPath) }
        reading.wait()
        let read = try manifest.get()
        text = read?.text
        var icons: [Manifest.Icon] = []
        var entryByInput: [String: Int] = [:]
        for (position, entry) in (read?.recorded.icons ?? []).enumerated() {
            guard let icon = entry.value else {
                warnings.append("ignored the previous manifest's entry number \(position + 1): \(entry.failure ?? "")")
                continue
            }
            if let problem = icon.problem {
                warnings.append("ignored the previous manifest's entry for \(icon.input): \(problem)")
                continue
            }
            if entryByInput[icon.input] == nil { entryByInput[icon.input] = icons.count }
            icons.append(icon)
        }
        self.icons = icons
        self.entryByInput = entryByInput
        var kept: [String: [Manifest.FileEntry]] = [:]
        for error in read?.recorded.head.errors ?? [] where !error.keptFiles.isEmpty {
            if let problem = Manifest.problem(of: error.keptFiles) {
                warnings.append("ignored the previous manifest's entry for \(error.input): \(problem)")
                continue
            }
            kept[error.input, default: []] += error.keptFiles
        }
        keptByInput = kept
        recordedFolders = (read?.recorded.head.folders ?? []).filter { folder in
            if RelativePath.isPlain(folder) { return true }
            warnings.append("ignored the previous manifest's folder \(folder.debugDescription): not a plain path below --out")
            return false
        }
        manifestWarnings = warnings
        statCache = cache.withLock { $0! }
        self.journal = journal.read()
        recordedOptions = read?.recorded.head.options
        sameOptions = read?.recorded.head.options == fingerprint
        runOptions = fingerprint
    }

    /// What the run ignored of what it read back, one line each.
    var warnings: [String] { manifestWarnings + journal.warnings }

    /// The manifest with each icon entry as it decoded (or not).
    private struct Recorded: Decodable {
        let head: Manifest
        let icons: [Lenient<Manifest.Icon>]

        init(from decoder: any Decoder) throws {
            head = try Manifest(from: decoder, readingIcons: false)
            icons = try decoder.container(keyedBy: Manifest.CodingKeys.self).decode([Lenient<Manifest.Icon>].self, forKey: .icons)
        }
    }

    /// The manifest at `path`, nil when there is none. Anything else there is refused: a web app's
    /// `manifest.json` under `-o public`, a file too large to be one, a broken one.
    private static func read(_ path: String) throws(BatchUsageError) -> (text: [UInt8], recorded: Recorded)? {
        let refusal = "tabicon replaces only a manifest it wrote; move it away or name another --manifest"
        let read: (bytes: [UInt8], stat: FileStat)?
        do throws(UntrustedFile.Failure) {
            read = try UntrustedFile.read(path)
        } catch {
            throw BatchUsageError("--manifest \(path) cannot be the manifest: \(error.reason); \(refusal)")
        }
        guard let read else { return nil }
        let recorded: Recorded
        do {
            recorded = try JSONDecoder().decode(Recorded.self, from: Data(read.bytes))
        } catch {
            throw BatchUsageError(
                "--manifest \(path) holds a file that is not a tabicon manifest (\(Manifest.describe(error))); \(refusal)")
        }
        guard recorded.head.tool.hasPrefix("tabicon ") else {
            throw BatchUsageError(
                "--manifest \(path) holds a file that is not a tabicon manifest (its tool is not tabicon); \(refusal)")
        }
        return (read.bytes, recorded)
    }

    /// The previous entry of `input`, nil when it has none.
    func entry(ofInput input: String) -> Manifest.Icon? { entryByInput[input].map { icons[$0] } }

    /// What the run knows of an input when it asks whether its entry stands: the digest of the
    /// stat the output plan took (nothing read), or its bytes' hash and the stat taken before.
    enum InputEvidence {
        case stat(StatDigest)
        case content(ContentHash, stat: FileStat?)
    }

    /// The previous entry of an input, carried over when nothing that decides its outputs changed:
    /// the same bytes (by content hash, or by a stat record that stands), the same options and
    /// tool version, the same paths in the plan, and every file it recorded still on disk with its
    /// recorded bytes (by stat record where it stands, else read and hashed). It comes back with
    /// the stats seen now, for the next run's stat cache. The options compared are the icon's
    /// own (`fingerprint`, nil: the run's), so one icon's new settings redo it alone.
    func reusable(
        _ previous: Manifest.Icon?, input: InputEvidence, fingerprint: OptionFingerprint? = nil,
        plan: OutputPlan.Icon, directory: OutputDirectory, plannedStat: (String) -> StatDigest? = { _ in nil }
    ) -> Manifest.Icon? {
        guard var icon = previous,
            icon.options == nil && fingerprint == nil
                ? sameOptions : (icon.options ?? recordedOptions) == (fingerprint ?? runOptions)
        else { return nil }
        // An entry without an intent predates `Contents.json` always naming one, one without
        // measures the set's lints: redone.
        guard let renditions = icon.renditions, icon.intent != nil, icon.measures != nil,
            icon.name == OutputLayout.iconName(stem: plan.stem),
            renditions.allSatisfy({ plan.path(forScale: $0.scale) == $0.path }),
            icon.contentsFile?.path == (icon.symbolFile == nil ? plan.contentsPath : plan.symbolContentsPath),
            icon.vectorFile == nil || icon.vectorFile?.path == plan.vectorPath,
            icon.symbolFile == nil || icon.symbolFile?.path == plan.vectorPath
        else { return nil }
        switch input {
        case .content(let hash, let stat):
            guard icon.contentHash == hash.description else { return nil }
            icon.inputStat = stat
        case .stat(let current):
            guard let stat = statCache.standing(input: icon.input, hash: icon.contentHash, current: current) else {
                return nil
            }
            icon.inputStat = stat
        }
        var stats: [String: FileStat] = [:]
        for file in icon.ownedFiles {
            guard let stat = directory.check(file, cache: statCache, planned: plannedStat(file.path)) else { return nil }
            stats[file.path] = stat
        }
        return icon.withFileStats { stats[$0] }
    }

    /// Each file the previous run wrote (by its manifest, then the journal) that this run does
    /// not produce (`isKept` false), once. Compared by exact name: on a case-sensitive file system
    /// `Home.png` renamed `home.png` leaves a stale `Home.png`. Where the two spellings are one
    /// file (macOS), the deletion gate spares it by identity (`Pruning`).
    func staleFiles(keeping isKept: (String) -> Bool) -> [Manifest.FileEntry] {
        var seen: Set<String> = []
        let owned = icons.flatMap(\.ownedFiles) + keptByInput.keys.sorted().flatMap { keptByInput[$0]! } + journal.files
        return owned.filter { !isKept($0.path) && seen.insert($0.path).inserted }
    }

    /// The files tabicon owns for `input` by the previous manifest (its icon's, or those kept
    /// when it failed before).
    func files(ofInput input: String) -> [Manifest.FileEntry] {
        (entry(ofInput: input)?.ownedFiles ?? []) + (keptByInput[input] ?? [])
    }

    /// The folders tabicon created in earlier runs, finished or not.
    var folders: Set<String> { Set(recordedFolders + journal.folders) }
}
