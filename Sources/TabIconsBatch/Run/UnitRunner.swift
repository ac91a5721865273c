import TabIcons
import Foundation

/// The engine: one loop over the plan's units (`OutputPlan.units`: an icon and its twins, or an
/// input alone) on `jobs` threads, under one memory budget, one stop signal and one jail, for
/// `normalize`, `--check`, `preview` and `inspect` alike. Each input is loaded within the budget,
/// carried over from the previous run or made (`RenderedIcon.make`, through the `IconEngine`);
/// then the files the unit shares are made here (an image set's `Contents.json`, which lists the
/// dark twin's files; Android's state list, which names the selected twin); then every file of
/// the unit is written as one set, compared (`--check`), or kept in memory (no directory).
struct UnitRunner: Sendable {
    let settings: EngineSettings
    /// The run read back, when inputs may be carried over from it (nil: none is).
    let previous: PreviousRun?
    let budget: MemoryBudget?
    let engine: IconEngine

    /// What one input of a unit has before the unit's files are written.
    private enum Prepared {
        case reused(Manifest.Icon)
        /// Made, with the hash of the input's bytes, the icon's own options (nil: the run's) and
        /// the input's stat as it was before it was read.
        case made(RenderedIcon, ContentHash, options: OptionFingerprint?, inputStat: FileStat?)
        case failed(TabIconsError)
        case stopped
        /// Handed to the thread's `RenderGroup`, with what `made` will carry.
        case queued(options: OptionFingerprint?, inputStat: FileStat?)
    }

    /// Every input's outcome, in input order (nil: not reached before a stop). `directory`: where
    /// the units are written or compared; its failure fails every input; nil keeps them in memory.
    /// `onEvent` hears of each input as its unit finishes, from any thread.
    func run(
        _ inputs: [BatchInput], plan: OutputPlan, directory: Result<OutputDirectory, TabIconsError>?, jobs: Int,
        onEvent: @escaping @Sendable (BatchNormalizer.Event) -> Void
    ) -> [IconOutcome?] {
        let units = plan.units
        let next = LockedState(0)
        let outcomes = LockedState([IconOutcome?](repeating: nil, count: inputs.count))
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, units.count))) { _ in
            let take = { () -> [Int]? in
                next.withLock { position in
                    guard position < units.count else { return nil }
                    position += 1
                    return units[position - 1]
                }
            }
            let record = { (results: [(index: Int, outcome: IconOutcome)]) in
                outcomes.withLock { for (index, outcome) in results { $0[index] = outcome } }
                for (index, outcome) in results {
                    let name = inputs[index].name
                    switch outcome {
                    case .written(let icon, _, _), .checked(let icon, _), .made(let icon, _):
                        onEvent(.done(index: index, name: name, icon: icon))
                    case .reused(let icon, _): onEvent(.reused(index: index, name: name, icon: icon))
                    case .failed(let error): onEvent(.failed(index: index, name: name, error: error))
                    case .stopped: break
                    }
                }
            }
            switch directory {
            case .failure(let error)?:
                while settings.shouldStop() == 0, let unit = take() {
                    record(unit.map { ($0, .failed(error.naming(inputs[$0].name))) })
                }
            case .success(let directory)?:
                process(next: take, inputs: inputs, plan: plan, directory: directory, record: record)
            case nil:
                process(next: take, inputs: inputs, plan: plan, directory: nil, record: record)
            }
        }
        return outcomes.withLock { $0 }
    }

    /// Takes units from `next` until it has none (or the run is asked to stop) and gives the
    /// outcome of every input of each unit to `record`, in the unit's order. The units' inputs
    /// to make go to the engine a few at a time (`RenderGroup`); each unit is finished once
    /// every input of it has its outcome.
    private func process(
        next: () -> [Int]?, inputs: [BatchInput], plan: OutputPlan, directory: OutputDirectory?,
        record: ([(index: Int, outcome: IconOutcome)]) -> Void
    ) {
        var group = RenderGroup(engine: engine, budget: budget, shouldStop: settings.shouldStop)
        var waiting: [[Int]] = []
        var prepared: [Int: Prepared] = [:]
        func finish(_ unit: [Int]) {
            record(self.finish(unit: unit, inputs: inputs, plan: plan, directory: directory, prepared: prepared))
            for index in unit { prepared[index] = nil }
        }
        func finishWaiting() {
            for unit in waiting {
                for index in unit {
                    guard case .queued(let options, let inputStat)? = prepared[index] else { continue }
                    switch group.takeOutcome(index) {
                    case .made(let icon, let hash)?:
                        prepared[index] = .made(icon, hash, options: options, inputStat: inputStat)
                    case .failed(let error)?: prepared[index] = .failed(error.naming(inputs[index].name))
                    case .stopped?, nil: prepared[index] = .stopped
                    }
                }
                finish(unit)
            }
            waiting = []
        }
        while settings.shouldStop() == 0 {
            guard let unit = next() else { break }
            for index in unit {
                let input = inputs[index]
                do throws(TabIconsError) {
                    prepared[index] = try prepare(index, input, plan: plan, directory: directory, group: &group)
                } catch {
                    prepared[index] = .failed(error.naming(input.name))
                }
            }
            // A unit with nothing to make (carried over, or failed before) is finished at once;
            // the others wait for their group, so at most a group's worth of units waits.
            if unit.contains(where: { if case .queued? = prepared[$0] { true } else { false } }) {
                waiting.append(unit)
            } else {
                finish(unit)
            }
            if group.isEmpty { finishWaiting() }
        }
        group.send()
        finishWaiting()
    }

    /// The outcome of every input of `unit`, in the unit's order, its rows linked to their twins
    /// (`IconTwins.link`: `selectedTwin`, `darkTwin`, the `twin-mismatch` lint). The twins of an
    /// icon are all in its unit, so the links are those the whole manifest would have.
    private func finish(
        unit: [Int], inputs: [BatchInput], plan: OutputPlan, directory: OutputDirectory?, prepared: [Int: Prepared]
    ) -> [(index: Int, outcome: IconOutcome)] {
        var outcomes = outcomes(unit: unit, inputs: inputs, plan: plan, directory: directory, prepared: prepared)
        var twins: [String: (selected: String?, dark: String?)] = [:]
        for index in unit {
            let links = plan.twins[index]
            if links.selected != nil || links.dark != nil {
                twins[inputs[index].name] = (links.selected.map { inputs[$0].name }, links.dark.map { inputs[$0].name })
            }
        }
        let withRows = outcomes.indices.filter { outcomes[$0].outcome.row != nil }
        var rows = withRows.map { outcomes[$0].outcome.row! }
        IconTwins.link(&rows) { twins[$0] ?? (nil, nil) }
        for (position, row) in zip(withRows, rows) { outcomes[position].outcome.row = row }
        return outcomes
    }

    /// The outcome of every input of `unit`, in the unit's order, from what each input has.
    private func outcomes(
        unit: [Int], inputs: [BatchInput], plan: OutputPlan, directory: OutputDirectory?, prepared: [Int: Prepared]
    ) -> [(index: Int, outcome: IconOutcome)] {
        var prepared = prepared
        let stopped = {
            unit.map { index -> (index: Int, outcome: IconOutcome) in
                if case .failed(let error)? = prepared[index] { return (index, .failed(error)) }
                return (index, .stopped)
            }
        }
        guard settings.shouldStop() == 0, !unit.contains(where: { if case .stopped? = prepared[$0] { true } else { false } })
        else { return stopped() }

        // Each input's row, and the files it has to write.
        var rows: [Int: Manifest.Icon] = [:]
        var files: [Int: [IconFile]] = [:]
        for index in unit {
            switch prepared[index] {
            case .reused(let row)?:
                rows[index] = row
                files[index] = []
            case .made(let icon, let hash, let options, let inputStat)?:
                guard let place = try? plan.icons[index].get() else { break }
                var (row, made) = icon.row(
                    input: inputs[index].name, plan: place, contentHash: hash,
                    work: settings.work(place, settings.settings(of: inputs[index])))
                row.options = options
                row.inputStat = inputStat
                rows[index] = row
                files[index] = made
            default:
                break
            }
        }
        // A dark twin's files belong to its icon's set (the image set, the icon's resource at night):
        // when the icon has none this run, the twin is not written either, so the set stays as the
        // last good run left it (SPEC §6a "Whole sets"; its previous files are kept).
        if settings.layout != .flat {
            for index in unit {
                guard let dark = plan.twins[index].dark, rows[index] == nil, rows[dark] != nil else { continue }
                rows[dark] = nil
                files[dark] = nil
                prepared[dark] = .failed(
                    TabIconsError(
                        .io, "not written: its files belong to its icon \(inputs[index].name), which failed",
                        input: inputs[dark].name))
            }
        }
        addSharedFiles(unit, plan: plan, prepared: prepared, rows: &rows, files: &files)

        var outcomes: [(index: Int, outcome: IconOutcome)] = []
        guard let directory else {
            return unit.map { index in
                rows[index].map { (index, .made($0, files: files[index]!)) } ?? (index, failure(prepared[index]))
            }
        }
        if settings.checkOnly {
            for index in unit {
                guard let row = rows[index] else { outcomes.append((index, failure(prepared[index]))); continue }
                do throws(TabIconsError) {
                    let changes = try compare(files[index]!, directory: directory)
                    if case .reused? = prepared[index] {
                        outcomes.append((index, .reused(row, changes: changes)))
                    } else {
                        outcomes.append((index, .checked(row, changes)))
                    }
                } catch {
                    outcomes.append((index, .failed(error.naming(inputs[index].name))))
                }
            }
            return outcomes
        }
        let written = unit.flatMap { index in (files[index] ?? []).map { (path: $0.path, bytes: $0.bytes) } }
        let staged: [OutputDirectory.Staged], unchanged: Set<String>
        do throws(TabIconsError) {
            let set = try directory.stage(written)
            guard settings.shouldStop() == 0 else {
                directory.discard(set.staged)
                return stopped()
            }
            try directory.commit(set.staged)
            (staged, unchanged) = (set.staged, Set(set.unchanged))
        } catch {
            // The whole unit keeps its previous files ("Whole sets").
            return unit.map { index in
                rows[index] == nil ? (index, failure(prepared[index])) : (index, .failed(error.naming(inputs[index].name)))
            }
        }
        let stagedPaths = Set(staged.map(\.relative))
        for index in unit {
            guard let row = rows[index] else { outcomes.append((index, failure(prepared[index]))); continue }
            let mine = files[index]!.map(\.path)
            let changes = mine.filter(stagedPaths.contains).map { BatchResult.Change(kind: .write, path: $0) }
            // What the file system says of the files now that they are in place (a rename moves
            // ctime): the next run's stat cache. A carried-over file not written keeps its record.
            // Nothing written (a carried-over row): its records stand as they are, arrays shared.
            let updated: Manifest.Icon
            if mine.isEmpty {
                updated = row
            } else {
                let recorded = Dictionary(row.ownedFiles.map { ($0.path, $0.stat) }, uniquingKeysWith: { first, _ in first })
                let written = Set(mine)
                updated = row.withFileStats { path in written.contains(path) ? directory.fileStat(path) : recorded[path] ?? nil }
            }
            if case .reused? = prepared[index] {
                outcomes.append((index, .reused(updated, changes: changes)))
            } else {
                outcomes.append((index, .written(updated, changes, unchanged: mine.filter(unchanged.contains).count)))
            }
        }
        return outcomes
    }

    /// The files an icon shares with its twins, made here from the unit's rows: an image set's
    /// `Contents.json` (its renditions and its dark twin's) and Android's state list (its resource
    /// and its selected twin's). Each is set on the icon's row and added to its files to write,
    /// unless the icon was carried over with these very bytes (which `reusable` found on disk).
    private func addSharedFiles(
        _ unit: [Int], plan: OutputPlan, prepared: [Int: Prepared],
        rows: inout [Int: Manifest.Icon], files: inout [Int: [IconFile]]
    ) {
        for index in unit {
            guard var row = rows[index], let icon = try? plan.icons[index].get() else { continue }
            let links = plan.twins[index]
            let reused = { if case .reused? = prepared[index] { true } else { false } }()
            func share(_ recorded: Manifest.FileEntry?, _ path: String, _ text: String) -> Manifest.FileEntry {
                let bytes = Array(text.utf8)
                let entry = Manifest.FileEntry(path: path, bytes: bytes.count, hash: ContentHash(of: bytes))
                // A carried-over file that is already these bytes (checked on disk by `reusable`) stays as it is.
                if reused, let recorded, recorded.path == path, recorded.hash == entry.hash,
                    recorded.bytes == entry.bytes
                {
                    return recorded
                }
                files[index]!.append(IconFile(path: path, bytes: bytes))
                return entry
            }
            if let path = icon.contentsPath, let intent = row.intent {
                let text = AssetCatalogContents.json(icon: row, intent: intent, darkTwin: links.dark.flatMap { rows[$0] })
                row.contentsFile = share(row.contentsFile, path, text)
            }
            if let path = icon.selectorPath, let twin = links.selected, rows[twin] != nil,
                let twinPlan = try? plan.icons[twin].get()
            {
                let text = AndroidStateList.xml(
                    icon: OutputLayout.androidResourceName(stem: icon.stem),
                    selected: OutputLayout.androidResourceName(stem: twinPlan.stem))
                row.selectorFile = share(row.selectorFile, path, text)
            } else {
                // No state list without a twin that has its drawable this run: it would name nothing.
                row.selectorFile = nil
            }
            rows[index] = row
        }
    }

    private func failure(_ prepared: Prepared?) -> IconOutcome {
        if case .failed(let error)? = prepared { return .failed(error) }
        return .stopped
    }

    /// One input up to its files: carried over (stat record, then content hash) or queued to be
    /// made in `group`.
    private func prepare(
        _ index: Int, _ input: BatchInput, plan whole: OutputPlan, directory: OutputDirectory?, group: inout RenderGroup
    ) throws(TabIconsError) -> Prepared {
        let plan = try whole.icons[index].get()
        // The icon's own options, when it has some (`--config`): its cache key and its entry's `options`.
        let fingerprint = settings.fingerprint(of: input)
        // Read from the previous manifest once (none under --force: nothing is carried over).
        let recorded = settings.force ? nil : previous?.entry(ofInput: input.name)
        let reuse = { (evidence: PreviousRun.InputEvidence) -> Manifest.Icon? in
            guard let previous, let directory,
                var entry = previous.reusable(
                    recorded, input: evidence, fingerprint: fingerprint, plan: plan, directory: directory,
                    plannedStat: whole.outputStat)
            else { return nil }
            entry.options = fingerprint
            return entry
        }
        // An input whose stat record stands (the stat the plan took is the one recorded) is
        // carried over without a byte of it read.
        if let entry = reuse(.stat(whole.inputStat(index))) { return .reused(entry) }
        // Taken before the bytes are read: a change after it makes the next run's stat differ.
        let inputStat = previous == nil ? nil : input.sourcePath.flatMap(FileStat.init(path:))
        let own = settings.settings(of: input)
        if let entry = try group.add(
            index, input, normalizer: Normalizer(options: own.options), work: settings.work(plan, own),
            reuse: { hash in reuse(.content(hash, stat: inputStat)) })
        {
            return .reused(entry)
        }
        return .queued(options: fingerprint, inputStat: inputStat)
    }

    /// What writing `files` would do, for `--check`.
    private func compare(_ files: [IconFile], directory: OutputDirectory) throws(TabIconsError) -> [BatchResult.Change] {
        var changes: [BatchResult.Change] = []
        for file in files {
            let existing = try directory.read(file.path)
            if existing == nil {
                changes.append(.init(kind: .write, path: file.path))
            } else if existing != file.bytes {
                changes.append(.init(kind: .change, path: file.path))
            }
        }
        return changes
    }
}
