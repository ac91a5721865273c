import TabIcons
import Foundation

/// The engine for `normalize`, `--check`, `preview` and `inspect` alike: one loop over the plan's
/// units (an icon and its twins, or an input alone) on `jobs` threads, under one memory budget,
/// one stop signal and one jail; each input carried over or made, then the unit finished
/// (`UnitFinish`).
struct UnitRunner: Sendable {
    let settings: EngineSettings
    /// The run read back, when inputs may be carried over from it (nil: none is).
    let previous: PreviousRun?
    /// Bytes of estimated decode memory the threads may hold at once (`MemoryBudget`).
    let memoryBudget: Int
    let jail: WorkerJail?

    /// What one input of a unit has before the unit's files are written.
    enum Prepared {
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
        let (engine, budget) = (IconEngine(jail: jail), MemoryBudget(capacity: memoryBudget))
        defer { engine.finish() }
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
                    case .normalized(let icon, _, _), .made(let icon, _):
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
            case .success, nil:
                var group = RenderGroup(engine: engine, budget: budget, shouldStop: settings.shouldStop)
                process(next: take, inputs: inputs, plan: plan, directory: try? directory?.get(), group: &group, record: record)
            }
        }
        return outcomes.withLock { $0 }
    }

    /// Takes units from `next` until it has none (or the run is asked to stop) and gives the
    /// outcome of every input of each unit to `record`, once every input of it has one.
    private func process(
        next: () -> [Int]?, inputs: [BatchInput], plan: OutputPlan, directory: OutputDirectory?, group: inout RenderGroup,
        record: ([(index: Int, outcome: IconOutcome)]) -> Void
    ) {
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
                    case (.success(let icon)?, let hash)?:
                        prepared[index] = .made(icon, hash, options: options, inputStat: inputStat)
                    case (.failure(let error)?, _)?: prepared[index] = .failed(error.naming(inputs[index].name))
                    default: prepared[index] = .stopped
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

    /// One input up to its files: carried over (stat record, then content hash) or queued to be
    /// made in `group`.
    private func prepare(
        _ index: Int, _ input: BatchInput, plan whole: OutputPlan, directory: OutputDirectory?, group: inout RenderGroup
    ) throws(TabIconsError) -> Prepared {
        let plan = try whole.icons[index].get()
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
        let inputStat = whole.inputStat(index)
        if let entry = reuse(.stat(StatDigest(inputStat))) { return .reused(entry) }
        let own = settings.settings(of: input)
        if let entry = try group.add(
            index, input, size: inputStat?.size, normalizer: Normalizer(options: own.options), work: settings.work(plan, own),
            reuse: { hash in reuse(.content(hash, stat: inputStat)) })
        {
            return .reused(entry)
        }
        return .queued(options: fingerprint, inputStat: previous == nil ? nil : inputStat)
    }
}
