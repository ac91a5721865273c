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
    let manifest: Manifest?
    /// The manifest as the file holds it, its ignored entries too: what `--check` compares with.
    let recorded: Manifest?
    /// One line for each entry or folder ignored.
    let warnings: [String]
    /// Where each input's entry is in `manifest.icons` (the first, when one is listed twice).
    private let iconsByInput: [String: Int]
    private let keptByInput: [String: [Manifest.FileEntry]]
    /// Files and folders a run that did not finish committed.
    private let journal: RunJournal.Entries

    /// Whether the previous run had this run's options (compared once, not per input), and the
    /// two fingerprints for an icon with options of its own (`--config`).
    private let sameOptions: Bool
    private let runOptions: OptionFingerprint
    /// Which of the manifest's stat records stand for their files' bytes.
    let statCache: StatCache

    /// `trustStats` false (`--verify`): every input and recorded file is read and hashed.
    /// `inputs` and `plan`, this run's, lend their equal strings to the entries read.
    init(
        manifestPath: String, fingerprint: OptionFingerprint, journal: RunJournal,
        trustStats: Bool = true, sharing inputs: [BatchInput] = [], plan: OutputPlan? = nil
    ) throws(BatchUsageError) {
        var warnings: [String] = []
        let shared = plan.map { plan in
            { (index: Int) -> ManifestReader.Shared? in
                guard index < inputs.count, index < plan.icons.count, case .success(let planned) = plan.icons[index] else {
                    return nil
                }
                return .init(input: inputs[index].name, paths: planned.renditionPaths.map(\.path))
            }
        }
        let read = try Self.read(manifestPath, sharing: shared)
        recorded = read?.manifest
        manifest = read.map { Self.plainPathsOnly($0.manifest, warnings: &warnings) }
        statCache = StatCache(trusted: trustStats, recordedBefore: read?.stat.mtime)
        self.journal = journal.read()
        self.warnings = warnings + self.journal.warnings
        sameOptions = manifest?.options == fingerprint
        runOptions = fingerprint
        var icons: [String: Int] = [:]
        for (index, icon) in (manifest?.icons ?? []).enumerated() where icons[icon.input] == nil { icons[icon.input] = index }
        iconsByInput = icons
        var kept: [String: [Manifest.FileEntry]] = [:]
        for error in manifest?.errors ?? [] where !error.keptFiles.isEmpty { kept[error.input, default: []] += error.keptFiles }
        keptByInput = kept
    }

    /// The manifest at `path`, nil when there is none. Anything else there is refused: a web
    /// app's `manifest.json` under `-o public`, a file too large to be one, a broken one.
    /// Entry `k` is usually input `k` (the inputs did not change): `sharing` lends its strings.
    private static func read(_ path: String, sharing: ((Int) -> ManifestReader.Shared?)?) throws(BatchUsageError)
        -> (manifest: Manifest, stat: FileStat)?
    {
        let refusal = "tabicon replaces only a manifest it wrote; move it away or name another --manifest"
        // Read in chunks as it is parsed (`ManifestReader`): the run holds the entries, not the text.
        let read: (manifest: Result<Manifest, TabIconsError>, stat: FileStat)?
        do throws(UntrustedFile.Failure) {
            read = try UntrustedFile.withOpened(path) { fd, stat in
                var reader = ManifestReader(file: fd, size: stat.size)
                reader.sharing = sharing
                return (Result { () throws(TabIconsError) in try reader.manifest() }, stat)
            }
        } catch {
            throw BatchUsageError("--manifest \(path) cannot be the manifest: \(error.reason); \(refusal)")
        }
        guard let read else { return nil }
        do throws(TabIconsError) {
            let manifest = try read.manifest.get()
            guard manifest.tool.hasPrefix("tabicon ") else {
                throw TabIconsError(.corrupt, "its tool is not tabicon")
            }
            return (manifest, read.stat)
        } catch {
            throw BatchUsageError("--manifest \(path) holds a file that is not a tabicon manifest (\(error.message)); \(refusal)")
        }
    }

    /// The manifest without the entries and folders that name a path tabicon would never write.
    private static func plainPathsOnly(_ manifest: Manifest, warnings: inout [String]) -> Manifest {
        var clean = manifest
        func plain(_ files: [Manifest.FileEntry], of input: String) -> Bool {
            guard let bad = files.first(where: { !RelativePath.isPlain($0.path) }) else { return true }
            warnings.append(
                "ignored the previous manifest's entry for \(input): its path \(bad.path.debugDescription) is not a plain path below --out"
            )
            return false
        }
        // Copied only when an entry goes: the common manifest is held once.
        if !manifest.icons.allSatisfy({ $0.allOwnedPaths(RelativePath.isPlain) }) {
            clean.icons = manifest.icons.filter { plain($0.ownedFiles, of: $0.input) }
        }
        for index in clean.errors.indices where !plain(clean.errors[index].keptFiles, of: clean.errors[index].input) {
            clean.errors[index].keptFiles = []
        }
        clean.folders = manifest.folders.filter { folder in
            if RelativePath.isPlain(folder) { return true }
            warnings.append("ignored the previous manifest's folder \(folder.debugDescription): not a plain path below --out")
            return false
        }
        return clean
    }

    /// Every file tabicon owns by the previous manifest (its icons' files and those it kept for
    /// inputs that failed) and by the journal of a run that did not finish, one at a time.
    private func forEachOwnedFile(_ body: (Manifest.FileEntry) -> Void) {
        for icon in manifest?.icons ?? [] { icon.ownedFiles.forEach(body) }
        for error in manifest?.errors ?? [] { error.keptFiles.forEach(body) }
        journal.files.forEach(body)
    }

    /// The previous entry of `input`, carried over when nothing that decides its outputs changed:
    /// the same bytes (the content hash, or with `contentHash` nil the input's stat record, which
    /// then must stand for them: `statCache`), the same options and tool version (fingerprint), the
    /// same paths in the plan, and every file it recorded still on disk with its recorded bytes
    /// (by stat record where it stands, else read and hashed). The entry comes back with the
    /// stats seen now, so the next run need not read what this one had to.
    ///
    /// The options compared are the icon's own: `fingerprint` (nil: the run's) against the
    /// entry's `options` (absent: the previous run's), so one icon's new settings redo it alone.
    /// `plannedStat` answers the stat the output plan took of a planned path (`OutputPlan.outputStat`).
    func reusable(
        input: String, inputStat: FileStat?, contentHash: ContentHash?, fingerprint: OptionFingerprint? = nil,
        plan: OutputPlan.Icon, directory: OutputDirectory, plannedStat: (String) -> FileStat?? = { _ in nil }
    ) -> Manifest.Icon? {
        guard let index = iconsByInput[input], var icon = manifest?.icons[index],
            icon.options == nil && fingerprint == nil
                ? sameOptions : (icon.options ?? manifest?.options) == (fingerprint ?? runOptions)
        else { return nil }
        // An entry without an intent predates `Contents.json` always naming one: redone.
        guard let renditions = icon.renditions, icon.intent != nil,
            icon.name == OutputLayout.iconName(stem: plan.stem),
            renditions.allSatisfy({ plan.path(forScale: $0.scale) == $0.path }),
            icon.contentsFile?.path == plan.contentsPath,
            icon.vectorFile == nil || icon.vectorFile?.path == plan.vectorPath
        else { return nil }
        if let contentHash {
            guard icon.recordedContentHash.records(contentHash) else { return nil }
        } else {
            guard statCache.isUnchanged(recorded: icon.inputStat, current: inputStat) else { return nil }
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
        icon.inputStat = inputStat
        return icon
    }

    /// Files the previous run wrote that this run does not produce, sorted, each once. Compared
    /// by exact name: on a case-sensitive file system `Home.png` renamed `home.png` leaves a stale
    /// `Home.png`. Where the two spellings are one file (macOS), the deletion gate spares it by
    /// identity (`Pruning`).
    func staleFiles(keeping isKept: (String) -> Bool) -> [Manifest.FileEntry] {
        var seen: Set<String> = []
        var stale: [Manifest.FileEntry] = []
        forEachOwnedFile { file in
            if !isKept(file.path), seen.insert(file.path).inserted { stale.append(file) }
        }
        return stale.sorted { $0.path < $1.path }
    }

    /// The files tabicon owns for `input` by the previous manifest (its icon's, or those kept
    /// when it failed before).
    func files(ofInput input: String) -> [Manifest.FileEntry] {
        (iconsByInput[input].flatMap { manifest?.icons[$0].ownedFiles } ?? []) + (keptByInput[input] ?? [])
    }

    /// The folders tabicon created in earlier runs, finished or not.
    var folders: Set<String> { Set((manifest?.folders ?? []) + journal.folders) }
}
