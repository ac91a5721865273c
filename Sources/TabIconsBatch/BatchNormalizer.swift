import TabIcons
import Foundation
import Synchronization

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
    /// Whether `BatchResult.manifest` holds every icon's entry, as the manifest file does. False:
    /// each entry goes into the manifest's text once every entry before it has, and is let go,
    /// so the run's memory does not grow with the set (what `tabicon normalize` does unless it
    /// prints or pages the manifest); the result's manifest then holds its head, errors and
    /// folders, and `counts` what became of the icons.
    public var resultHoldsIcons = true
    /// Whether `BatchResult.changes` lists every file the run changed (or, checking, would).
    /// False: they are counted (`changesNotHeld`), not listed (what `tabicon normalize` does
    /// unless it prints them, under `--check`): a first run changes every file of the set.
    public var resultHoldsChanges = true
    /// Whether the run keeps a run index beside the manifest (`RunIndex`, `MANIFEST.index`,
    /// written when it finishes with no error and no warning) and, when it holds no icons
    /// (`resultHoldsIcons` false), answers from it when every input and output still has the stat
    /// it recorded: then nothing is read, planned or compared, each input's event is `.unchanged`
    /// and the result says so (`BatchResult.answeredFromIndex`). When only some did, the others
    /// are carried as the index recorded them (`IndexedEntries`; their event `.unchanged` too)
    /// and only the changed ones' entries are read. Never under `force` or `verify`, nor with
    /// `priorErrors`. What `tabicon normalize` does. Any run that writes removes an index there
    /// before its first write.
    public var answersFromIndex = false
    /// Handed the previous run as read, for tests of what the run holds.
    var readPrevious: (@Sendable (PreviousRun) -> Void)?
    /// How many units the workers may run ahead of the first unfinished one (`UnitWindow`; a
    /// test narrows it).
    var unitWindow = UnitWindow.width
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
        /// Carried over as the run index recorded it (`answersFromIndex`): its entry was not read
        /// (the whole run answered, or its unit's every record as recorded: `IndexedEntries`).
        case unchanged(index: Int, name: String)
        case failed(index: Int, name: String, error: TabIconsError)
    }

    package var fingerprint: OptionFingerprint {
        OptionFingerprint(options: normalizer.options, layout: layout, format: format, vector: vector)
    }

    /// The manifest this batch writes, before its icons, errors and folders.
    private var manifestHead: Manifest {
        Manifest(box: normalizer.options.box, scales: normalizer.options.scales, options: fingerprint)
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
        // Locked before anything is read, so no other run changes it meanwhile; a first run has no
        // folder to lock until it creates one (then it reads again, in case another run got there
        // first).
        var lock = try RunLock(root: root, exclusive: !checkOnly)
        let question = answersFromIndex ? RunIndex.question(of: self, inputs: inputs) : nil
        let indexPath = RunIndex.path(manifestPath: manifestURL.relativePath)
        let journal = RunJournal(manifestPath: manifestURL.relativePath)
        // The index is asked by a run that holds no icons, trusts stats and has the folder locked.
        let asksIndex =
            lock != nil && answersFromIndex && !resultHoldsIcons && !force && !verify && priorErrors.isEmpty
            && !inputs.isEmpty
        if asksIndex, let question,
            let answer = RunIndexCheck.answer(
                path: indexPath, question: question, manifestPath: manifestURL.relativePath, journalPath: journal.path,
                root: root, inputs: inputs, jobs: jobs)
        {
            return withExtendedLifetime(lock) { answered(answer, inputs: inputs, onEvent: onEvent) }
        }
        let engine = IconEngine(jail: jail)
        defer { engine.finish() }
        // The first worker starts while the run plans and reads its previous one.
        if !inputs.isEmpty { engine.startAhead(for: inputs) }
        let plan = try OutputPlan.make(
            inputs,
            .init(
                layout: layout, fileExtension: format.fileExtension, scales: normalizer.options.scales,
                outputRoot: root, manifestPath: manifestURL.relativePath, inputFolders: inputFolders,
                previewPath: previewURL?.relativePath, vector: vector, jobs: jobs))
        // Each input's key, which its index record holds (none without a question).
        let keys = question.map { _ in RunIndex.InputKeys(of: self, inputs: inputs, units: plan.sharedUnits) }
        // Some inputs changed, were added or removed: those whose records stand are carried as the
        // index placed them.
        var indexed: IndexedEntries?
        if asksIndex, let question, let keys {
            indexed = IndexedEntries.read(
                path: indexPath, question: question, keys: keys, sameInputs: checkOnly,
                manifestPath: manifestURL.relativePath, journalPath: journal.path, root: root, inputs: inputs, plan: plan)
        }
        var previous: PreviousRun
        if let indexed {
            previous = PreviousRun(
                indexed: indexed, head: manifestHead, fingerprint: fingerprint, journal: journal, checking: checkOnly,
                inputs: inputs)
        } else {
            previous = try PreviousRun(
                manifestPath: manifestURL.relativePath, fingerprint: fingerprint, journal: journal, trustStats: !verify,
                checking: checkOnly)
        }
        let directory = Result { () throws(TabIconsError) in
            try OutputDirectory(root: root, create: !checkOnly, sparing: plan.spared, journal: checkOnly ? nil : journal)
        }
        if lock == nil, !checkOnly, case .success = directory {
            lock = try RunLock(root: root, exclusive: true)
            previous = try PreviousRun(
                manifestPath: manifestURL.relativePath, fingerprint: fingerprint, journal: journal, trustStats: !verify,
                checking: checkOnly)
        }
        readPrevious?(previous)
        if !checkOnly {
            if case .success(let directory) = directory {
                for folder in plan.folders { _ = directory.removeStaleTemporaries(in: folder) }
            }
            // Before this run's own manifest temporary can exist (`ManifestOutput`).
            let folder = (manifestURL.relativePath as NSString).deletingLastPathComponent
            if let manifestFolder = try? OutputDirectory(root: folder.isEmpty ? "." : folder, create: false, sparing: plan.spared)
            {
                _ = manifestFolder.removeStaleTemporaries(in: "")
            }
        }
        // Before the first write: a run stopped or killed from here on leaves no index.
        let previousIndex = checkOnly ? nil : RunIndex.setAside(indexPath)

        var head = manifestHead
        head.errors = priorErrors
        let record = LockedState<RunRecord?>(
            RunRecord(
                head: head, inputs: inputs, paths: plan.pathCount, manifestPath: manifestURL.relativePath, limit: manifestLimit,
                previous: previous, checkOnly: checkOnly, holdsIcons: resultHoldsIcons,
                holdsChanges: resultHoldsChanges,
                index: checkOnly
                    ? nil
                    : RunIndexWriter.make(
                        path: indexPath, keeps: answersFromIndex, question: question, keys: keys, root: root,
                        previous: previousIndex)))
        let budget = MemoryBudget(capacity: memoryBudget)
        let context = IconRun(batch: self, previous: previous, budget: budget, engine: engine)
        // Work goes by the plan's units: an icon and its twins are decided and written together.
        let writesRows = record.withLock { $0!.writesRows }
        // No worker takes a twin (its icon's unit does) or an input carried from the index (the
        // record copies it in order).
        var skipped = [Bool](repeating: false, count: inputs.count)
        for twin in plan.twinInputs { skipped[twin] = true }
        if let indexed { for input in inputs.indices where indexed.carries(input) { skipped[input] = true } }
        let window = UnitWindow(count: inputs.count, skipped: skipped, width: unitWindow)
        skipped = []
        let tell: @Sendable ([RunRecord.Carried]) -> Void = { carried in
            for (index, error) in carried {
                let name = inputs[index].name
                if let error {
                    onEvent(.failed(index: index, name: name, error: error))
                } else {
                    onEvent(.unchanged(index: index, name: name))
                }
            }
        }
        tell(record.withLock { $0!.recordCarried() })
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, inputs.count))) { _ in
            let take = { () -> [Int]? in window.take().map(plan.unit(of:)) }
            var text: [UInt8] = []  // this worker's row text, its room kept from row to row
            let record = { (unitResults: [(index: Int, outcome: IconOutcome)]) in
                for (index, outcome) in unitResults {
                    // The row's text made here, so that the lock is held only while it is appended.
                    var rowText: [UInt8]?
                    if writesRows, let row = outcome.row {
                        ManifestWriter.Stream.entryText(row, into: &text)
                        rowText = text
                    }
                    tell(record.withLock { $0!.record(outcome, text: rowText, at: index) })
                }
                // A unit's first input heads it (the icon; its twins follow it).
                if let root = unitResults.first?.index { window.finish(root) }
                for (index, outcome) in unitResults {
                    let name = inputs[index].name
                    switch outcome {
                    case .written(let icon, _, _), .checked(let icon, _): onEvent(.done(index: index, name: name, icon: icon))
                    case .reused(let icon, _): onEvent(.reused(index: index, name: name, icon: icon))
                    case .failed(let error): onEvent(.failed(index: index, name: name, error: error))
                    case .carried, .stopped: break
                    }
                }
            }
            switch directory {
            case .failure(let error):
                while shouldStop() == 0, let unit = take() {
                    record(unit.map { ($0, .failed(error.naming(inputs[$0].name))) })
                }
            case .success(let directory):
                context.process(
                    next: take, window: window, inputs: inputs, plan: plan, directory: directory, record: record)
            }
        }
        return withExtendedLifetime(lock) {
            finish(
                record.withLock { $0.take()! },
                previous: previous, journal: journal, directory: try? directory.get(), plan: plan)
        }
    }

    /// The run as the index answered it: every input carried over, nothing read or written.
    private func answered(
        _ answer: RunIndexCheck.Answer, inputs: [BatchInput], onEvent: @Sendable (Event) -> Void
    ) -> BatchResult {
        for (index, input) in inputs.enumerated() { onEvent(.unchanged(index: index, name: input.name)) }
        var head = manifestHead
        head.folders = answer.folders
        var result = BatchResult(manifest: head)
        result.counts.reused = inputs.count
        result.counts.unchanged = answer.files
        result.counts.undersized = answer.undersized
        result.answeredFromIndex = true
        return result
    }

    /// Steps 4 and 5: pruning, the rest of the manifest.
    private func finish(
        _ record: consuming RunRecord, previous: PreviousRun, journal: RunJournal, directory: OutputDirectory?,
        plan: OutputPlan
    ) -> BatchResult {
        let signal = shouldStop()
        if signal != 0 { return record.stopped(by: signal, warnings: previous.warnings) }
        // An input that failed keeps its previous files ("Whole sets"): they are not stale, and
        // stay tabicon's (the error entry lists them) for a later run to replace or prune.
        let errors = record.result.manifest.errors
        for (position, error) in errors.enumerated() {
            record.keep(previous.files(ofInput: error.input).filter { directory?.holds($0) ?? false }, ofError: position)
        }
        var folders = previous.folders.union(directory?.createdFolders ?? [])
        if let directory {
            let kept = record.result.manifest.errors.flatMap(\.keptFiles).map(\.path)
            record.sortProduced()
            let owner = copy record  // what the rows own, asked from the closures below
            // The produced paths, folded, as hashes: made once something is stale, and a stale
            // path whose folded hash is among them looks for its spellings (rare: case-only twins).
            var foldedProduced: Set<Int>?
            func forEachProduced(_ body: (String) -> Void) {
                for case .success(let icon) in plan.icons { icon.forEachPath { if owner.produces($0) { body($0) } } }
                kept.forEach(body)
            }
            let removed = Pruning.remove(
                { body in previous.forEachStaleFile(keeping: { owner.produces($0) }, skipping: { owner.rowOwns($0, $1) }, body) },
                in: directory, madeFolders: folders, dryRun: checkOnly
            ) { folded in
                if foldedProduced == nil {
                    var hashes: Set<Int> = []
                    forEachProduced { hashes.insert($0.lowercased().hashValue) }
                    foldedProduced = hashes
                }
                guard foldedProduced!.contains(folded.hashValue) else { return [] }
                var spellings: [String] = []
                forEachProduced { if $0.lowercased() == folded { spellings.append($0) } }
                return spellings
            }
            record.add(removed.files.map { .init(kind: .remove, path: $0) }, removed: removed.files.count)
            folders.subtract(removed.folders)
            folders = folders.filter { directory.folderExists($0) }
        }
        let result = record.finish(
            folders: folders.sorted(), warnings: previous.warnings, manifestPath: manifestURL.relativePath,
            limit: manifestLimit)
        // Everything the journal recorded is now in the manifest, pruned, or no longer tabicon's.
        if !checkOnly, result.manifestError == nil { journal.clear() }
        return result
    }

}

/// What became of one input (recorded by `RunRecord`).
enum IconOutcome: Sendable {
    /// Normalized and written: the changes (files written) and how many files were already equal.
    case written(Manifest.Icon, [BatchResult.Change], unchanged: Int)
    /// Normalized and compared only (`--check`): what a run would write or change.
    case checked(Manifest.Icon, [BatchResult.Change])
    /// Carried over from the previous manifest, nothing decoded; the files its unit changed for it
    /// (its `Contents.json` or state list, when its twin changed).
    case reused(Manifest.Icon, changes: [BatchResult.Change])
    /// Carried over as the run index recorded it, every record of its unit standing: its entry's
    /// bytes copied, nothing read or compared (`IndexedEntries`).
    case carried(IndexedEntries.CarriedRow)
    case failed(TabIconsError)
    /// Abandoned because the batch was asked to stop; its temporaries are removed.
    case stopped
}

extension IconOutcome {
    /// The manifest row of an input that has one.
    var row: Manifest.Icon? {
        get {
            switch self {
            case .written(let icon, _, _), .checked(let icon, _), .reused(let icon, _): icon
            case .carried, .failed, .stopped: nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .written(_, let changes, let unchanged): self = .written(newValue, changes, unchanged: unchanged)
            case .checked(_, let changes): self = .checked(newValue, changes)
            case .reused(_, let changes): self = .reused(newValue, changes: changes)
            case .carried, .failed, .stopped: break
            }
        }
    }
}
