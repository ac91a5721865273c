import TabIcons
import Foundation
import Synchronization

/// One input of a batch: its name, the stem its outputs mirror, and how to get its bytes.
/// Bytes are loaded by the worker that processes the input, so a batch holds at most `jobs`
/// inputs in memory at once, however many it has.
public struct BatchInput: Sendable {
    public let name: String
    public let outputStem: String
    public let load: @Sendable () throws(TabIconsError) -> Data
    /// The input's size in bytes before it is loaded (a file's `stat`), when it can be known:
    /// a worker then waits for the memory budget before reading a large input, not after.
    public let expectedByteCount: @Sendable () -> Int?
    /// The file the bytes come from, when there is one: the output plan keeps every output off
    /// it by identity (SPEC §6a "Inputs are sacred").
    public let sourcePath: String?
    /// The options this input is made with when they are not the batch's (`--config`'s `icons`
    /// entries); nil: the batch's. Its scales and limits must be the batch's (`IconSettings`).
    public var settings: IconSettings? {
        get { _settings?.value }
        set { _settings = newValue.map(OptionalBox.init) }
    }
    // Boxed: most inputs have none, and a set of thousands holds every input for the whole run.
    private var _settings: OptionalBox<IconSettings>?

    public init(
        name: String, outputStem: String, load: @escaping @Sendable () throws(TabIconsError) -> Data,
        expectedByteCount: @escaping @Sendable () -> Int? = { nil }, sourcePath: String? = nil
    ) {
        self.name = name
        self.outputStem = outputStem
        self.load = load
        self.expectedByteCount = expectedByteCount
        self.sourcePath = sourcePath
    }
}

/// Normalizes many inputs into an output tree, as a careful build step (SPEC §6, §6a).
///
/// 1. `OutputPlan`: every final path, checked, before any work (usage mistakes throw).
/// 2. Temporaries a killed run left in the folders of the plan are removed.
/// 3. `--jobs` workers take the next input: an input whose previous entry is still good
///    (`PreviousRun.reusable`) is carried over without decoding; any other is normalized,
///    turned into files (`IconFiles`) and written as a whole set (`OutputDirectory`: staged,
///    then renamed; bytes equal to the disk's are not rewritten). Results are kept in input
///    order, so the manifest and every byte are the same for any `jobs`.
/// 4. Files the previous run owned and this one does not produce are pruned.
/// 5. The manifest is written (when its bytes changed).
/// `shouldStop` (SIGINT, SIGTERM) stops the batch at the next icon; then steps 4 and 5 are skipped.
/// `checkOnly` runs the same plan and comparisons and writes nothing (`--check`).
public struct BatchNormalizer: Sendable {
    public var normalizer: Normalizer
    public var layout: OutputLayout
    public var format: OutputFormat
    public var outputRoot: URL
    /// Default `outputRoot/manifest.json`.
    public var manifestURL: URL
    public var jobs: Int
    /// Bytes of estimated decode memory the workers may hold at once (`DecodeMemoryEstimate`);
    /// an input larger than this runs alone. 48 MiB lets icons use every core while two large
    /// progressive photos are never decoded side by side.
    public var memoryBudget: Int
    /// Redo every input, whatever the previous manifest says.
    public var force = false
    /// Compare only: write, rename and remove nothing.
    public var checkOnly = false
    /// Read and hash every input and recorded file, trusting no stat record (`--verify`).
    public var verify = false
    /// The folders the inputs were collected from, so `--out` over one of them is refused.
    public var inputFolders: [String] = []
    /// `--preview FILE`: the page the caller writes after the run, planned with the outputs so
    /// that it cannot land on an input, the manifest or an output (SPEC §6a).
    public var previewURL: URL?
    /// Answers a signal number once the batch should stop (0 to go on). With a jail, an input
    /// in flight is abandoned within a tick of the answer (its worker killed).
    public var shouldStop: @Sendable () -> Int32 = { 0 }
    /// Where each input is decoded, normalized and encoded: in a jailed worker process
    /// (`WorkerJail`, what `tabicon` does), or in process when nil (the default; a UI runtime
    /// that may not spawn processes). See `WorkerJail` for which to use when.
    public var jail: WorkerJail?
    /// `--vector`: SVG inputs written as vectors (SPEC §6), PNG renditions where the format
    /// cannot hold the drawing.
    public var vector = false
    /// Handed the previous run as read, for tests of what the run holds.
    var readPrevious: (@Sendable (PreviousRun) -> Void)?
    /// The largest manifest a run writes: what the next run reads back (a test lowers it).
    var manifestLimit = UntrustedFile.cap

    public init(
        normalizer: Normalizer, layout: OutputLayout = .flat, format: OutputFormat = .png,
        outputRoot: URL, manifestURL: URL? = nil, jobs: Int = JobCount.allCores,
        memoryBudget: Int = 48 << 20
    ) {
        self.normalizer = normalizer
        self.layout = layout
        self.format = format
        self.outputRoot = outputRoot
        self.manifestURL = manifestURL ?? outputRoot.appendingPathComponent("manifest.json")
        self.jobs = max(1, jobs)
        self.memoryBudget = memoryBudget
    }

    /// What happened to one input, delivered as each finishes (from any worker thread).
    public enum Event: Sendable {
        case done(index: Int, name: String, icon: Manifest.Icon)
        case reused(index: Int, name: String, icon: Manifest.Icon)
        case failed(index: Int, name: String, error: TabIconsError)
    }

    package var fingerprint: OptionFingerprint {
        OptionFingerprint(options: normalizer.options, layout: layout, format: format, vector: vector)
    }

    /// What `input` is made with: its own settings, or the batch's; the scales and limits are
    /// always the batch's (`IconSettings`), so its files are the ones the plan laid out.
    func settings(of input: BatchInput) -> IconSettings { .of(input, run: normalizer.options, format: format) }

    private var runSettings: IconSettings { IconSettings(options: normalizer.options, format: format) }

    /// The fingerprint of an input with settings of its own (nil for the batch's): its incremental
    /// cache key and its manifest entry's `options`, when that differs from the run's.
    func fingerprint(of input: BatchInput) -> OptionFingerprint? {
        let own = settings(of: input)
        guard own != runSettings else { return nil }
        let fingerprint = OptionFingerprint(options: own.options, layout: layout, format: own.format, vector: vector)
        return fingerprint == self.fingerprint ? nil : fingerprint
    }

    /// Runs the batch. `priorErrors` (inputs the caller could not even collect) head the
    /// manifest's errors.
    public func run(
        _ inputs: [BatchInput], priorErrors: [Manifest.ErrorEntry] = [],
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws(BatchUsageError) -> BatchResult {
        // Paths as the caller spelled them (relative ones stay relative), so messages name them so.
        let root = outputRoot.relativePath
        let plan = try OutputPlan.make(
            inputs,
            .init(
                layout: layout, fileExtension: format.fileExtension, scales: normalizer.options.scales,
                outputRoot: root, manifestPath: manifestURL.relativePath, inputFolders: inputFolders,
                previewPath: previewURL?.relativePath, vector: vector))
        let journal = RunJournal(manifestPath: manifestURL.relativePath)
        // Locked before the previous run is read, so no other run changes it meanwhile; a first
        // run has no folder to lock until it creates one (then it reads again, in case another
        // run got there first).
        var lock = try RunLock(root: root, exclusive: !checkOnly)
        var previous = try PreviousRun(
            manifestPath: manifestURL.relativePath, fingerprint: fingerprint, journal: journal,
            trustStats: !verify, sharing: inputs, plan: plan)
        let directory = Result { () throws(TabIconsError) in
            try OutputDirectory(root: root, create: !checkOnly, sparing: plan.spared, journal: checkOnly ? nil : journal)
        }
        if lock == nil, !checkOnly, case .success = directory {
            lock = try RunLock(root: root, exclusive: true)
            previous = try PreviousRun(
                manifestPath: manifestURL.relativePath, fingerprint: fingerprint, journal: journal,
                trustStats: !verify, sharing: inputs, plan: plan)
        }
        readPrevious?(previous)
        if !checkOnly, case .success(let directory) = directory {
            for folder in plan.folders { _ = directory.removeStaleTemporaries(in: folder) }
        }

        let results = LockedState(IconResults(count: inputs.count))
        let next = Atomic<Int>(0)
        let budget = MemoryBudget(capacity: memoryBudget)
        let engine = IconEngine(jail: jail)
        defer { engine.finish() }
        let context = IconRun(batch: self, previous: previous, budget: budget, engine: engine)
        // Work goes by the plan's units: an icon and its twins are decided and written together.
        let units = plan.units
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, units.count))) { _ in
            let take = { () -> [Int]? in
                let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
                return position < units.count ? units[position] : nil
            }
            let record = { (unitResults: [(index: Int, outcome: IconOutcome)]) in
                results.withLock { for (index, outcome) in unitResults { $0.record(outcome, at: index) } }
                for (index, outcome) in unitResults {
                    let name = inputs[index].name
                    switch outcome {
                    case .written(let icon, _, _), .checked(let icon, _): onEvent(.done(index: index, name: name, icon: icon))
                    case .reused(let icon, _): onEvent(.reused(index: index, name: name, icon: icon))
                    case .failed(let error): onEvent(.failed(index: index, name: name, error: error))
                    case .stopped: break
                    }
                }
            }
            switch directory {
            case .failure(let error):
                while shouldStop() == 0, let unit = take() {
                    record(unit.map { ($0, .failed(error.naming(inputs[$0].name))) })
                }
            case .success(let directory):
                context.process(next: take, inputs: inputs, plan: plan, directory: directory, record: record)
            }
        }
        return withExtendedLifetime(lock) {
            finish(
                inputs,
                results.withLock { taken in
                    defer { taken = IconResults(count: 0) }; return taken
                }, priorErrors: priorErrors,
                previous: previous, journal: journal, directory: try? directory.get(), spared: plan.spared,
                twins: Self.twinNames(plan.twins, inputs))
        }
    }

    /// Steps 4 and 5: the counts, pruning, the manifest.
    private func finish(
        _ inputs: [BatchInput], _ results: consuming IconResults, priorErrors: [Manifest.ErrorEntry],
        previous: PreviousRun, journal: RunJournal, directory: OutputDirectory?,
        spared: Set<FileIdentity>, twins: [String: (selected: String?, dark: String?)]
    ) -> BatchResult {
        var manifest = Manifest(box: normalizer.options.box, scales: normalizer.options.scales, options: fingerprint)
        var result = BatchResult(manifest: manifest)
        result.warnings = previous.warnings
        manifest.errors = priorErrors
        for (index, outcome) in results.outcomes.enumerated() {
            switch outcome {
            case .written(let written, let unchanged):
                result.counts.normalized += 1
                result.counts.written += written.count
                result.counts.unchanged += unchanged
                result.changes += written
            case .checked(let changes):
                result.counts.normalized += 1
                result.changes += changes
            case .reused(let files, let changes):
                // Carried over; its changes are the files its twins changed (`Contents.json`, a state list).
                result.counts.reused += 1
                if !checkOnly { result.counts.written += changes.count }
                result.counts.unchanged += files - changes.count
                result.changes += changes
            case .failed(let error):
                manifest.errors.append(.init(input: inputs[index].name, error: error))
                result.counts.failed += 1
            case .stopped, nil:
                break
            }
        }
        // The rows, in input order, become the manifest's: held once, not copied.
        manifest.icons = results.icons()
        Self.linkTwins(&manifest.icons, twins)
        let signal = shouldStop()
        if signal != 0 {
            result.stoppedBy = signal
            result.manifest = manifest
            return result
        }
        // An input that failed keeps its previous files ("Whole sets"): they are not stale, and
        // stay tabicon's (the error entry lists them) for a later run to replace or prune.
        for index in manifest.errors.indices {
            manifest.errors[index].keptFiles = previous.files(ofInput: manifest.errors[index].input)
                .filter { directory?.holds($0) ?? false }
        }
        var kept: Set<String> = []
        for icon in manifest.icons { icon.forEachOwnedPath { kept.insert($0) } }
        for error in manifest.errors { kept.formUnion(error.keptFiles.map(\.path)) }
        let stale = previous.staleFiles(producing: kept)
        var folders = previous.folders.union(directory?.createdFolders ?? [])
        if let directory {
            let removed = Pruning.remove(stale, producing: kept, in: directory, madeFolders: folders, dryRun: checkOnly)
            result.changes += removed.files.map { .init(kind: .remove, path: $0) }
            if !checkOnly { result.counts.removed = removed.files.count }
            folders.subtract(removed.folders)
            folders = folders.filter { directory.folderExists($0) }
        }
        manifest.folders = folders.sorted()
        result.manifest = manifest
        writeManifest(manifest, into: &result, previous: previous, sparing: spared)
        // Everything the journal recorded is now in the manifest, pruned, or no longer tabicon's.
        if !checkOnly, result.manifestError == nil { journal.clear() }
        return result
    }

    /// The plan's twins by input name.
    static func twinNames(_ twins: [(selected: Int?, dark: Int?)], _ inputs: [BatchInput]) -> [String: (
        selected: String?, dark: String?
    )] {
        var names: [String: (selected: String?, dark: String?)] = [:]
        for (index, links) in twins.enumerated() where links.selected != nil || links.dark != nil {
            names[inputs[index].name] = (links.selected.map { inputs[$0].name }, links.dark.map { inputs[$0].name })
        }
        return names
    }

    /// The manifest's `selectedTwin` / `darkTwin` of every icon, as the plan placed them (`twins`,
    /// by input), where both icons have an entry this run; and the `twin-mismatch` lint on both
    /// (`IconTwins.link`).
    static func linkTwins(_ icons: inout [Manifest.Icon], _ twins: [String: (selected: String?, dark: String?)]) {
        IconTwins.link(&icons) { twins[$0] ?? (nil, nil) }
    }

    /// The manifest, written only when its bytes differ from the file there (so a run that
    /// changed nothing changes no mtime); under `checkOnly`, a difference is one more change.
    ///
    /// `--check` compares the manifests without their stat records: those are a cache of what one
    /// machine's file system said (a fresh clone has other inodes and times), not part of what a
    /// run produces.
    private func writeManifest(
        _ manifest: Manifest, into result: inout BatchResult, previous: PreviousRun,
        sparing spared: Set<FileIdentity>
    ) {
        let path = manifestURL.relativePath
        if checkOnly {
            if previous.recorded?.equalsIgnoringStats(manifest) == true { return }
            result.changes.append(.init(kind: previous.recorded == nil ? .write : .change, path: path))
            return
        }
        // The text is made twice when it changed (compared, then written), never held whole.
        let existing = ManifestWriter.compare(manifest, withFileAt: path)
        if existing == .equal { return }
        result.changes.append(.init(kind: existing == .absent ? .write : .change, path: path))
        let folder = (path as NSString).deletingLastPathComponent
        if let directory = try? OutputDirectory(root: folder.isEmpty ? "." : folder, create: false, sparing: spared) {
            _ = directory.removeStaleTemporaries(in: "")
        }
        do throws(TabIconsError) {
            try AtomicFileWriter.write(toPath: path, limit: manifestLimit) { put in _ = ManifestWriter.write(manifest, put) }
        } catch {
            result.manifestError = error
            guard error.code == .tooLarge else { return }
            // Never a manifest the next run would refuse to read: the journal keeps what this
            // run wrote tabicon's, and the previous manifest stays as it was.
            let limit = manifestLimit % (1 << 20) == 0 ? "\(manifestLimit >> 20) MiB" : "\(manifestLimit) bytes"
            result.manifestError = TabIconsError(
                .tooLarge,
                "the manifest would hold more than \(limit), the most a run reads back; split the set into runs with their own --out",
                input: path)
        }
    }
}

/// What became of one input (kept by `IconResults`).
enum IconOutcome: Sendable {
    /// Normalized and written: the changes (files written) and how many files were already equal.
    case written(Manifest.Icon, [BatchResult.Change], unchanged: Int)
    /// Normalized and compared only (`--check`): what a run would write or change.
    case checked(Manifest.Icon, [BatchResult.Change])
    /// Carried over from the previous manifest, nothing decoded; the files its unit changed for it
    /// (its `Contents.json` or state list, when its twin changed).
    case reused(Manifest.Icon, changes: [BatchResult.Change])
    case failed(TabIconsError)
    /// Abandoned because the batch was asked to stop; its temporaries are removed.
    case stopped
}
