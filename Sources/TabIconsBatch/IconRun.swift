import TabIcons
import Foundation

/// One input through the batch, start to finish: load within the memory budget, carry over or
/// render (normalize and encode, through the `IconEngine`: in a jailed worker or in process),
/// write the whole set (or, checking, compare it).
struct IconRun: Sendable {
    let batch: BatchNormalizer
    let previous: PreviousRun
    let budget: MemoryBudget?
    let engine: IconEngine

    func process(_ input: BatchInput, plan: OutputPlan.Icon, directory: OutputDirectory) -> IconOutcome {
        do throws(TabIconsError) {
            return try run(input, plan: plan, directory: directory)
        } catch {
            return .failed(error.naming(input.name))
        }
    }

    private func run(_ input: BatchInput, plan: OutputPlan.Icon, directory: OutputDirectory) throws(TabIconsError) -> IconOutcome {
        // Taken before the bytes are read: a change after it makes the next run's stat differ.
        let inputStat = input.sourcePath.flatMap(FileStat.init(path:))
        // The icon's own options, when it has some (`--config`): its cache key and its entry's `options`.
        let fingerprint = batch.fingerprint(of: input)
        let reuse = { (hash: ContentHash?) -> Manifest.Icon? in
            guard !batch.force, var entry = previous.reusable(input: input.name, inputStat: inputStat, contentHash: hash,
                                                             fingerprint: fingerprint, plan: plan, directory: directory)
            else { return nil }
            entry.options = fingerprint
            return entry
        }
        // An input whose stat record stands is carried over without a byte of it read.
        if let entry = reuse(nil) { return .reused(entry) }
        let loaded = try load(input, plan: plan) { hash in reuse(hash) }
        let rendered: RenderedIcon
        switch loaded {
        case .reused(let entry): return .reused(entry)
        case .stopped: return .stopped
        case .rendered(let icon): rendered = icon
        }
        var row = rendered.row
        row.options = fingerprint
        if batch.checkOnly { return .checked(row, try compare(rendered.files, directory: directory)) }
        guard batch.shouldStop() == 0 else { return .stopped }
        let (staged, unchanged) = try directory.stage(rendered.files.map { ($0.path, $0.bytes) })
        guard batch.shouldStop() == 0 else {
            directory.discard(staged)
            return .stopped
        }
        try directory.commit(staged)
        // What the file system says of the files now that they are in place (a rename moves
        // ctime), and of the input as it was read: the next run's stat cache.
        row = row.withFileStats(directory.fileStat)
        row.inputStat = inputStat
        return .written(row, staged.map { .init(kind: .write, path: $0.relative) }, unchanged: unchanged.count)
    }

    /// What writing `files` would do, for `--check`.
    private func compare(_ files: [IconFiles.File], directory: OutputDirectory) throws(TabIconsError) -> [BatchResult.Change] {
        var changes: [BatchResult.Change] = []
        for file in files {
            let existing = try directory.read(file.path)
            if existing == nil { changes.append(.init(kind: .write, path: file.path)) }
            else if existing != file.bytes { changes.append(.init(kind: .change, path: file.path)) }
        }
        return changes
    }

    private enum Loaded {
        case reused(Manifest.Icon)
        case rendered(RenderedIcon)
        /// The batch was asked to stop while the input was being rendered.
        case stopped
    }

    /// Loads one input within the memory budget, asks `reuse` whether its previous entry stands
    /// (before any decoding), and otherwise renders it; the bytes are released before this
    /// returns. The budget is held while a worker renders, so it still decides how many large
    /// inputs are decoded at once, jailed or not.
    ///
    /// The order keeps the budget honest: the worker takes the input's file size from the budget
    /// before reading it (so it never holds a large input while another decodes), then its
    /// estimated decode memory (`Normalizer.normalizeMemoryEstimate`: what the path it takes holds). When that does not fit beside what
    /// others hold, it lets the bytes go, waits holding nothing, and reads them again: waiting
    /// while holding would deadlock two workers, or raise the peak by one input.
    private func load(_ input: BatchInput, plan: OutputPlan.Icon, reuse: (ContentHash) -> Manifest.Icon?) throws(TabIconsError) -> Loaded {
        let settings = batch.settings(of: input)
        let normalizer = Normalizer(options: settings.options)
        let render = { (data: Data, hash: ContentHash) throws(TabIconsError) -> Loaded in
            guard let icon = try engine.render(data, input: input.name, plan: plan, normalizer: normalizer, format: settings.format,
                                               contentHash: hash, shouldStop: batch.shouldStop) else { return .stopped }
            return .rendered(icon)
        }
        guard let budget else {
            let data = try input.load()
            let hash = ContentHash(of: data)
            if let entry = reuse(hash) { return .reused(entry) }
            return try render(data, hash)
        }
        var held = max(input.expectedByteCount() ?? 0, 0)
        budget.acquire(held)
        defer { budget.release(held) }
        var data = try input.load()
        let hash = ContentHash(of: data)
        if let entry = reuse(hash) { return .reused(entry) }
        let needed = max(normalizer.normalizeMemoryEstimate(data), held)
        if !budget.tryGrow(from: held, to: needed) {
            data = Data()
            budget.release(held)
            held = 0
            budget.acquire(needed)
            held = needed
            data = try input.load()
        } else {
            held = needed
        }
        return try render(data, ContentHash(of: data))
    }
}
