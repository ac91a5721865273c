import TabIcons
import Foundation

/// The previous run, as its manifest at the `--manifest` path (and the journal of a run that did
/// not finish, `RunJournal`) recorded it: the cache of an incremental run (SPEC §6a "Incremental")
/// and the list of files tabicon owns ("No stale files").
///
/// What it reads is untrusted ("What it reads back is untrusted"): the manifest is read with a
/// size cap; a file there that is not a tabicon manifest is a usage error (tabicon replaces only
/// its own manifest); an entry naming any path that is not a plain relative path below `--out`
/// (`RelativePath`) is dropped whole with a warning, so it is never reused, pruned or listed.
struct PreviousRun: Sendable {
    /// The manifest's head, errors and folders as the file holds them, without its icons (read
    /// one at a time: `entries`): what `--check` compares with.
    let recorded: Manifest?
    /// Its icon entries, in its file (when `indexed`, those it does not carry).
    let entries: ManifestEntries?
    /// The inputs the run index carries, their entries copied as bytes (`IndexedEntries`); nil
    /// when the manifest was read.
    let indexed: IndexedEntries?
    /// The errors' kept files and the folders, without those that name a path that is not plain.
    private let keptByInput: [String: [Manifest.FileEntry]]
    private let recordedFolders: [String]
    /// One line for each error entry's files or folder ignored (the icon entries' are `entries`').
    private let headWarnings: [String]
    /// Files and folders a run that did not finish committed.
    private let journal: RunJournal.Entries

    /// Whether the previous run had this run's options (compared once, not per input), and the
    /// two fingerprints for an icon with options of its own (`--config`).
    private let sameOptions: Bool
    private let recordedOptions: OptionFingerprint?
    private let runOptions: OptionFingerprint
    /// Which of the manifest's stat records stand for their files' bytes.
    let statCache: StatCache

    /// `trustStats` false (`--verify`): every input and recorded file is read and hashed.
    /// `checking` (`--check`): each entry read for an input is kept until its row is compared.
    init(
        manifestPath: String, fingerprint: OptionFingerprint, journal: RunJournal, trustStats: Bool = true,
        checking: Bool = false
    ) throws(BatchUsageError) {
        var warnings: [String] = []
        let read = try Self.read(manifestPath, keepingRead: checking)
        recorded = read?.head
        entries = read?.entries
        indexed = nil
        var kept: [String: [Manifest.FileEntry]] = [:]
        for error in read?.head.errors ?? [] where !error.keptFiles.isEmpty {
            if let bad = error.keptFiles.first(where: { !RelativePath.isPlain($0.path) }) {
                warnings.append(
                    "ignored the previous manifest's entry for \(error.input): its path \(bad.path.debugDescription) is not a plain path below --out"
                )
                continue
            }
            kept[error.input, default: []] += error.keptFiles
        }
        keptByInput = kept
        recordedFolders = (read?.head.folders ?? []).filter { folder in
            if RelativePath.isPlain(folder) { return true }
            warnings.append("ignored the previous manifest's folder \(folder.debugDescription): not a plain path below --out")
            return false
        }
        statCache = StatCache(trusted: trustStats, recordedBefore: read?.stat.mtime)
        self.journal = journal.read()
        headWarnings = warnings
        recordedOptions = recorded?.options
        sameOptions = recorded?.options == fingerprint
        runOptions = fingerprint
    }

    /// The previous run as the run index placed it (`IndexedEntries`): the manifest `head` this
    /// run writes (the index asked the same question, so the previous run's options were these),
    /// the index's folders; no error entry (an index is written only by a run without one).
    init(
        indexed: IndexedEntries, head: Manifest, fingerprint: OptionFingerprint, journal: RunJournal, checking: Bool,
        inputs: [BatchInput]
    ) {
        var recorded = head
        recorded.folders = indexed.folders
        self.recorded = recorded
        entries = indexed.uncarriedEntries(of: inputs, keepsRead: checking)
        self.indexed = indexed
        keptByInput = [:]
        recordedFolders = indexed.folders
        headWarnings = []
        statCache = StatCache(trusted: true, recordedBefore: indexed.manifestStat.mtime)
        self.journal = journal.read()
        recordedOptions = fingerprint
        sameOptions = true
        runOptions = fingerprint
    }

    /// What the run ignored of what it read back: the entries, errors' files and folders that
    /// name a path that is not plain, and the journal's bad lines. The icon entries are read as
    /// the run asks for them: all of them by the time it has pruned (`forEachStaleFile`).
    var warnings: [String] { headWarnings + (entries?.warnings ?? []) + journal.warnings }

    /// The manifest at `path`, its icon entries placed, not read (`ManifestEntries`); nil when
    /// there is none. Anything else there is refused: a web app's `manifest.json` under
    /// `-o public`, a file too large to be one, a broken one.
    private static func read(_ path: String, keepingRead: Bool) throws(BatchUsageError)
        -> (head: Manifest, entries: ManifestEntries, stat: FileStat)?
    {
        let refusal = "tabicon replaces only a manifest it wrote; move it away or name another --manifest"
        // Read in chunks as it is outlined (`ManifestReader`): the run holds the places, not the text.
        let opened: (fd: Int32, stat: FileStat)?
        do throws(UntrustedFile.Failure) {
            opened = try UntrustedFile.opened(path)
        } catch {
            throw BatchUsageError("--manifest \(path) cannot be the manifest: \(error.reason); \(refusal)")
        }
        guard let (fd, stat) = opened else { return nil }
        var reader = ManifestReader(file: fd, size: stat.size)
        do throws(TabIconsError) {
            let head = try reader.outline()
            guard head.tool.hasPrefix("tabicon ") else {
                throw TabIconsError(.corrupt, "its tool is not tabicon")
            }
            return (head, ManifestEntries(fd: fd, places: reader.places, keepsRead: keepingRead), stat)
        } catch {
            close(fd)
            throw BatchUsageError("--manifest \(path) holds a file that is not a tabicon manifest (\(error.message)); \(refusal)")
        }
    }

    /// Every file tabicon owns by the previous manifest (its icons' files and those it kept for
    /// inputs that failed) and by the journal of a run that did not finish, one at a time; an
    /// entry taken by an input whose row owns just its paths (`owns`) is passed over.
    private func forEachOwnedFile(
        skipping owns: (_ input: Int, PathSignature) -> Bool, _ body: (Manifest.FileEntry) -> Void
    ) {
        entries?.forEachEntry(skipping: owns) { $0.ownedFiles.forEach(body) }
        for files in keptByInput.values { files.forEach(body) }
        journal.files.forEach(body)
    }

    /// The previous entry of input number `index`, read from the file (the strings of `plan`
    /// lent to it), nil when it has none.
    func entry(ofInput input: String, index: Int, plan: OutputPlan.Icon?) -> Manifest.Icon? {
        entries?.entry(
            forInput: input, index: index, sharing: .init(input: input, paths: plan?.renditionPaths.map(\.path) ?? []))
    }

    /// What the run knows of an input when it asks whether its entry stands: the digest of the
    /// stat the output plan took (the stat record's check: nothing read), or its bytes' hash with
    /// the stat taken just before they were read (the record the entry then keeps).
    enum InputEvidence {
        case stat(StatDigest)
        case content(ContentHash, stat: FileStat?)
    }

    /// The previous entry of an input (`entry(ofInput:)`), carried over when nothing that decides its outputs changed:
    /// the same bytes (the content hash, or the input's stat record, which then must stand for
    /// them: `statCache`), the same options and tool version (fingerprint), the
    /// same paths in the plan, and every file it recorded still on disk with its recorded bytes
    /// (by stat record where it stands, else read and hashed). The entry comes back with the
    /// stats seen now, so the next run need not read what this one had to.
    ///
    /// The options compared are the icon's own: `fingerprint` (nil: the run's) against the
    /// entry's `options` (absent: the previous run's), so one icon's new settings redo it alone.
    /// `plannedStat` answers the stat the output plan took of a planned path (`OutputPlan.outputStat`).
    func reusable(
        _ previous: Manifest.Icon?, input: InputEvidence, fingerprint: OptionFingerprint? = nil,
        plan: OutputPlan.Icon, directory: OutputDirectory, plannedStat: (String) -> StatDigest? = { _ in nil }
    ) -> Manifest.Icon? {
        guard var icon = previous,
            icon.options == nil && fingerprint == nil
                ? sameOptions : (icon.options ?? recordedOptions) == (fingerprint ?? runOptions)
        else { return nil }
        // An entry without an intent predates `Contents.json` always naming one: redone.
        guard let renditions = icon.renditions, icon.intent != nil,
            icon.name == OutputLayout.iconName(stem: plan.stem),
            renditions.allSatisfy({ plan.path(forScale: $0.scale) == $0.path }),
            icon.contentsFile?.path == plan.contentsPath,
            icon.vectorFile == nil || icon.vectorFile?.path == plan.vectorPath
        else { return nil }
        switch input {
        case .content(let hash, _): guard icon.recordedContentHash.records(hash) else { return nil }
        case .stat(let current): guard statCache.isUnchanged(recorded: icon.inputStat, current: current) else { return nil }
        }
        let owned = icon.ownedFiles
        var stats: [FileStat] = []
        stats.reserveCapacity(owned.count)
        var renewed = false
        for file in owned {
            guard let stat = directory.check(file, cache: statCache, planned: plannedStat(file.path)) else { return nil }
            stats.append(stat)
            renewed = renewed || stat != file.stat
        }
        // Unchanged records keep the previous entry itself: a rerun holds it once.
        if renewed {
            let seen = Dictionary(zip(owned.map(\.path), stats), uniquingKeysWith: { _, last in last })
            icon = icon.withFileStats { seen[$0] }
        }
        // A record that stood stays; bytes read bring the stat taken before them.
        if case .content(_, let stat) = input { icon.inputStat = stat }
        return icon
    }

    /// Each file the previous run wrote that this run does not produce, once, as the manifest
    /// (then the journal) lists them, handed to `body` as found: nothing holds the list, so a
    /// manifest of a million stale renditions costs a hash each (`seen`), not its entries. Once
    /// by the hash of its path: of two paths that meet by chance the second is kept, never
    /// removed. Compared by exact name: on a case-sensitive file system `Home.png` renamed
    /// `home.png` leaves a stale `Home.png`. Where the two spellings are one file (macOS), the
    /// deletion gate spares it by identity (`Pruning`).
    func forEachStaleFile(
        keeping isKept: (String) -> Bool, skipping owns: (_ input: Int, PathSignature) -> Bool = { _, _ in false },
        _ body: (Manifest.FileEntry) -> Void
    ) {
        var seen: Set<Int> = []
        forEachOwnedFile(skipping: owns) { file in
            if !isKept(file.path), seen.insert(file.path.hashValue).inserted { body(file) }
        }
    }

    /// The files tabicon owns for `input` by the previous manifest (its icon's, or those kept
    /// when it failed before).
    func files(ofInput input: String) -> [Manifest.FileEntry] {
        (entries?.entry(forInput: input, index: nil)?.ownedFiles ?? []) + (keptByInput[input] ?? [])
    }

    /// The folders tabicon created in earlier runs, finished or not.
    var folders: Set<String> { Set(recordedFolders + journal.folders) }
}
