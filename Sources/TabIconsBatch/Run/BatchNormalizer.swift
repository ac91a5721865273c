import TabIcons
import Foundation

/// Normalizes many inputs into an output tree, as a careful build step (SPEC §6, §6a): the plan,
/// the engine (`UnitRunner`), pruning, the manifest, in the steps ARCHITECTURE.md lists. A stop
/// (`shouldStop`) skips pruning and the manifest; `checkOnly` (`--check`) writes nothing.
public struct BatchNormalizer: Sendable {
    public var normalizer: Normalizer
    public var layout: OutputLayout
    public var format: OutputFormat
    public var outputRoot: URL
    /// Default `outputRoot/manifest.json` (`defaultManifestName`).
    public var manifestURL: URL
    /// The manifest's name in `outputRoot` when no other place is given.
    public static let defaultManifestName = "manifest.json"
    public var jobs: Int
    /// Bytes of estimated decode memory the workers may hold at once (`DecodeMemoryEstimate`);
    /// an input larger than this runs alone.
    public var memoryBudget: Int
    /// 48 MiB lets icons use every core while two large progressive photos are never decoded side by side.
    public static let defaultMemoryBudget = 48 << 20
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
    /// Where each input is decoded, normalized and encoded: in a jailed worker process, or in
    /// process when nil (the default). See `WorkerJail` for which to use when.
    public var jail: WorkerJail?
    /// `--vector`: SVG inputs written as vectors (SPEC §6), PNG renditions where the format
    /// cannot hold the drawing.
    public var vector = false
    /// `--symbols`: SVG inputs written as custom symbols made with these weights (SPEC §6).
    package var symbols: SymbolWeights?
    /// How far off the set's lints allow (the config's `lints`, SPEC §3a).
    package var setThresholds = SetLints.Thresholds()
    /// Handed the previous run as read, for tests of what the run holds.
    var readPrevious: (@Sendable (PreviousRun) -> Void)?
    /// The largest manifest a run writes: what the next run reads back (a test lowers it).
    var manifestLimit = UntrustedFile.cap

    public init(
        normalizer: Normalizer, layout: OutputLayout = .flat, format: OutputFormat = .png,
        outputRoot: URL, manifestURL: URL? = nil, jobs: Int = JobCount.allCores,
        memoryBudget: Int = BatchNormalizer.defaultMemoryBudget
    ) {
        self.normalizer = normalizer
        self.layout = layout
        self.format = format
        self.outputRoot = outputRoot
        self.manifestURL = manifestURL ?? outputRoot.appendingPathComponent(Self.defaultManifestName)
        self.jobs = max(1, jobs)
        self.memoryBudget = memoryBudget
    }

    /// What happened to one input, delivered as each finishes (from any worker thread).
    public enum Event: Sendable {
        case done(index: Int, name: String, icon: Manifest.Icon)
        case reused(index: Int, name: String, icon: Manifest.Icon)
        case failed(index: Int, name: String, error: TabIconsError)
    }

    /// What the engine needs of this batch.
    var engineSettings: EngineSettings {
        EngineSettings(
            normalizer: normalizer, layout: layout, format: format, vector: vector, symbols: symbols, force: force,
            checkOnly: checkOnly,
            shouldStop: shouldStop)
    }

    package var fingerprint: OptionFingerprint { engineSettings.fingerprint }

    /// Runs the batch. `priorErrors` (inputs the caller could not even collect) head the
    /// manifest's errors.
    public func run(
        _ inputs: [BatchInput], priorErrors: [Manifest.ErrorEntry] = [],
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws(BatchUsageError) -> BatchResult {
        // Paths as the caller spelled them (relative ones stay relative), so messages name them so.
        let root = outputRoot.relativePath
        let manifestPath = manifestURL.relativePath
        // Locked before anything is read, so no other run changes it meanwhile; a first run has no
        // folder to lock until it creates one (then it reads again, in case another run got there
        // first). The manifest's folder too, when it is another: two runs into other folders
        // that share a manifest wait for each other.
        let manifestLock = try RunLock(manifestPath: manifestPath, root: root, exclusive: !checkOnly)
        var lock = try RunLock(root: root, exclusive: !checkOnly)
        let journal = RunJournal(manifestPath: manifestPath)
        let (fingerprint, verify) = (fingerprint, verify)
        let readRun = { @Sendable () throws(BatchUsageError) in
            try PreviousRun(manifestPath: manifestPath, fingerprint: fingerprint, journal: journal, trustStats: !verify)
        }
        // Read while the plan is made (neither needs the other; reading never blocks, follows no
        // link, writes nothing): a rerun waits for the longer of the two, most of its time.
        let read = LockedState<Result<PreviousRun, BatchUsageError>?>(nil)
        let reading = DispatchGroup()
        DispatchQueue.global().async(group: reading) {
            read.withLock { $0 = Result { () throws(BatchUsageError) in try readRun() } }
        }
        let planned = Result { () throws(BatchUsageError) in
            try OutputPlan.make(
                inputs,
                .init(
                    layout: layout, fileExtension: format.fileExtension, scales: normalizer.options.scales,
                    outputRoot: root, manifestPath: manifestPath, inputFolders: inputFolders,
                    previewPath: previewURL?.relativePath, vector: vector, symbols: symbols != nil))
        }
        reading.wait()
        let plan = try planned.get()  // the plan's usage errors first
        var previous = try read.withLock { $0! }.get()
        let directory = Result { () throws(TabIconsError) in
            try OutputDirectory(root: root, create: !checkOnly, sparing: plan.spared, journal: checkOnly ? nil : journal)
        }
        if lock == nil, !checkOnly, case .success = directory {
            lock = try RunLock(root: root, exclusive: true)
            previous = try readRun()
        }
        readPrevious?(previous)
        if !checkOnly { removeLeftovers(plan: plan, directory: try? directory.get()) }

        // `--fit optical`: the set's optical size, known once every glyph of it is drawn.
        let fitted = SetOpticalFit.resolved(
            inputs, twins: plan.twins, settings: engineSettings, memoryBudget: memoryBudget, jail: jail, jobs: jobs)
        let outcomes = UnitRunner(settings: engineSettings, previous: previous, memoryBudget: memoryBudget, jail: jail)
            .run(fitted, plan: plan, directory: directory, jobs: jobs, onEvent: onEvent)
        return withExtendedLifetime((lock, manifestLock)) {
            finish(
                outcomes, inputs: fitted, priorErrors: priorErrors, previous: previous, journal: journal,
                directory: try? directory.get())
        }
    }

    /// What a killed run left in the folders of the plan (temporaries of tabicon's own pattern)
    /// and, beside the manifest, its temporaries and a run index of an older version, each through
    /// the deletion gate.
    private func removeLeftovers(plan: OutputPlan, directory: OutputDirectory?) {
        if let directory {
            for folder in plan.folders { _ = directory.removeStaleTemporaries(in: folder) }
        }
        let (folder, name) = OutputDirectory.split(manifestURL.relativePath)
        guard let manifestFolder = try? OutputDirectory(root: folder.isEmpty ? "." : folder, create: false, sparing: plan.spared)
        else { return }
        _ = manifestFolder.removeStaleTemporaries(in: "")
        _ = manifestFolder.remove(.formerRunIndex(name + ".index"))
    }

    /// Pruning, the manifest and the stat cache, from every input's outcome in input order (so the
    /// manifest and every count are the same for any `jobs`).
    private func finish(
        _ outcomes: [IconOutcome?], inputs: [BatchInput], priorErrors: [Manifest.ErrorEntry], previous: PreviousRun,
        journal: RunJournal, directory: OutputDirectory?
    ) -> BatchResult {
        var manifest = Manifest(box: normalizer.options.box, scales: normalizer.options.scales, options: fingerprint)
        var result = BatchResult(manifest: manifest)
        result.warnings = previous.warnings
        let signal = shouldStop()
        if signal != 0 {
            // The previous manifest stays as it was; the journal records what was committed.
            result.stoppedBy = signal
            return result
        }
        manifest.errors = priorErrors
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .normalized(let icon, let changes, let unchanged):
                result.counts.normalized += 1
                if !checkOnly { result.counts.written += changes.count }
                result.counts.unchanged += unchanged
                result.changes += changes
                manifest.icons.append(icon)
            case .reused(let icon, let changes):
                result.counts.reused += 1
                if !checkOnly { result.counts.written += changes.count }
                result.counts.unchanged += icon.ownedFiles.count - changes.count
                result.changes += changes
                manifest.icons.append(icon)
            case .failed(let error):
                var entry = Manifest.ErrorEntry(input: inputs[index].name, error: error)
                // An input that failed keeps its previous files ("Whole sets"): they are not stale,
                // and stay tabicon's (the error entry lists them) for a later run to replace or prune.
                entry.keptFiles = previous.files(ofInput: entry.input).filter { directory?.holds($0) ?? false }
                manifest.errors.append(entry)
                result.counts.failed += 1
            case .made, .stopped, nil:  // .made: only a run without a directory
                break
            }
        }
        SetLints.apply(&manifest.icons, thresholds: setThresholds)
        result.counts.undersized = manifest.icons.filter { $0.lints.contains { $0.code == .undersized } }.count
        var folders = previous.folders.union(directory?.createdFolders ?? [])
        if let directory {
            let produced = Set(
                manifest.icons.flatMap(\.ownedFiles).map(\.path) + manifest.errors.flatMap(\.keptFiles).map(\.path))
            let byFolded = Dictionary(grouping: produced, by: { $0.lowercased() })
            let removed = Pruning.remove(
                previous.staleFiles(keeping: produced.contains), in: directory, madeFolders: folders, dryRun: checkOnly,
                producedFolding: { byFolded[$0] ?? [] })
            result.changes += removed.files.map { .init(kind: .remove, path: $0) }
            if !checkOnly { result.counts.removed = removed.files.count }
            folders.subtract(removed.folders)
            folders = folders.filter { directory.folderExists($0) }
        }
        manifest.folders = folders.sorted()
        result.manifest = manifest
        let manifestPath = manifestURL.relativePath
        // The stat cache is encoded while the manifest is: the run's last serial work, on two cores.
        let cacheText = LockedState<[UInt8]?>(nil)
        let encoding = DispatchGroup()
        if !checkOnly {
            DispatchQueue.global().async(group: encoding) { [icons = manifest.icons, cache = previous.statCache] in
                let text = cache.text(of: icons)
                cacheText.withLock { $0 = text }
            }
        }
        let text = manifest.jsonBytes
        if text != previous.text {
            result.changes.append(.init(kind: previous.text == nil ? .write : .change, path: manifestPath))
        }
        guard !checkOnly else { return result }
        if text.count > manifestLimit {
            // Never a manifest the next run would refuse to read: the journal keeps what this run
            // wrote tabicon's, and the previous manifest stays as it was.
            let shown = manifestLimit % (1 << 20) == 0 ? "\(manifestLimit >> 20) MiB" : "\(manifestLimit) bytes"
            result.manifestError = TabIconsError(
                .tooLarge,
                "the manifest would hold more than \(shown), the most a run reads back; split the set into runs with their own --out",
                input: manifestPath)
            return result
        }
        if text != previous.text {
            do throws(TabIconsError) {
                try AtomicFileWriter.write(text, toPath: manifestPath)
            } catch {
                result.manifestError = error
                return result
            }
        }
        encoding.wait()
        if let cache = cacheText.withLock({ $0 }) {
            try? AtomicFileWriter.write(cache, toPath: StatCache.path(manifestPath: manifestPath))
        }
        // Everything the journal recorded is now in the manifest, pruned, or no longer tabicon's.
        journal.clear()
        return result
    }
}

/// What became of one input.
enum IconOutcome: Sendable {
    /// Normalized and written (the files written, and how many were already equal), or under
    /// `--check` compared only (what a run would write or change).
    case normalized(Manifest.Icon, [BatchResult.Change], unchanged: Int)
    /// Made and kept in memory, nothing written or compared (`preview`, `inspect`).
    case made(Manifest.Icon, files: [IconFile])
    /// Carried over from the previous manifest, nothing decoded; the files its unit changed for it
    /// (its `Contents.json` or state list, when its twin changed).
    case reused(Manifest.Icon, changes: [BatchResult.Change])
    case failed(TabIconsError)
    /// Abandoned because the batch was asked to stop; its temporaries are removed.
    case stopped
}
