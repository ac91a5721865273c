import TabIcons
import Foundation

/// One input through the batch, start to finish: load within the memory budget, carry over or
/// normalize, turn into files, write the whole set (or, checking, compare it).
struct IconRun: Sendable {
    let batch: BatchNormalizer
    let previous: PreviousRun
    let budget: MemoryBudget?

    func process(_ input: BatchInput, plan: OutputPlan.Icon, directory: OutputDirectory) -> IconOutcome {
        do throws(TabIconsError) {
            return try run(input, plan: plan, directory: directory)
        } catch {
            return .failed(error.naming(input.name))
        }
    }

    private func run(_ input: BatchInput, plan: OutputPlan.Icon, directory: OutputDirectory) throws(TabIconsError) -> IconOutcome {
        let loaded = try load(input) { hash in
            batch.force ? nil : previous.reusable(input: input.name, contentHash: hash, plan: plan, directory: directory)
        }
        let (icon, hash): (NormalizedIcon, ContentHash)
        switch loaded {
        case .reused(let entry): return .reused(entry)
        case .normalized(let normalized, let contentHash): (icon, hash) = (normalized, contentHash)
        }
        let files = try IconFiles(icon, plan: plan, format: batch.format, render: batch.normalizer.options.render)
        let row = files.manifestIcon(input: input, plan: plan, icon: icon, contentHash: hash)
        if batch.checkOnly { return .checked(row, try compare(files, directory: directory)) }
        guard batch.shouldStop() == 0 else { return .stopped }
        let (staged, unchanged) = try directory.stage(files.files.map { ($0.path, $0.bytes) })
        guard batch.shouldStop() == 0 else {
            directory.discard(staged)
            return .stopped
        }
        try directory.commit(staged)
        return .written(row, staged.map { .init(kind: .write, path: $0.relative) }, unchanged: unchanged.count)
    }

    /// What writing `files` would do, for `--check`.
    private func compare(_ files: IconFiles, directory: OutputDirectory) throws(TabIconsError) -> [BatchResult.Change] {
        var changes: [BatchResult.Change] = []
        for file in files.files {
            let existing = try directory.read(file.path)
            if existing == nil { changes.append(.init(kind: .write, path: file.path)) }
            else if existing != file.bytes { changes.append(.init(kind: .change, path: file.path)) }
        }
        return changes
    }

    private enum Loaded {
        case reused(Manifest.Icon)
        case normalized(NormalizedIcon, ContentHash)
    }

    /// Loads one input within the memory budget, asks `reuse` whether its previous entry stands
    /// (before any decoding), and otherwise normalizes it; the bytes are released before this
    /// returns.
    ///
    /// The order keeps the budget honest: the worker takes the input's file size from the budget
    /// before reading it (so it never holds a large input while another decodes), then its
    /// estimated decode memory (`Normalizer.normalizeMemoryEstimate`: what the path it takes holds). When that does not fit beside what
    /// others hold, it lets the bytes go, waits holding nothing, and reads them again: waiting
    /// while holding would deadlock two workers, or raise the peak by one input.
    private func load(_ input: BatchInput, reuse: (ContentHash) -> Manifest.Icon?) throws(TabIconsError) -> Loaded {
        let normalizer = batch.normalizer
        guard let budget else {
            let data = try input.load()
            let hash = ContentHash(of: data)
            if let entry = reuse(hash) { return .reused(entry) }
            return .normalized(try normalizer.normalize(data), hash)
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
        return .normalized(try normalizer.normalize(data), ContentHash(of: data))
    }
}
