import TabIcons

/// The batch's results in input order, as its workers deliver them (`IconOutcome`): each
/// manifest row in its input's slot of the array that becomes the manifest's `icons`, the rest of
/// the outcome beside it. The rows are so held once, from the worker to the manifest writer
/// (SPEC §6a "Incremental": a run's memory follows what it holds, not twice the set).
struct IconResults: Sendable {
    /// What became of one input, without its row.
    enum Outcome: Sendable {
        case written([BatchResult.Change], unchanged: Int)
        case checked([BatchResult.Change])
        /// Carried over: how many files it owns, and those its unit changed for it (its
        /// `Contents.json` or state list, when a twin changed).
        case reused(files: Int, changes: [BatchResult.Change])
        case failed(TabIconsError)
        case stopped
    }

    /// One slot an input; a placeholder row where the input has none (yet).
    private var rows: [Manifest.Icon]
    private(set) var outcomes: [Outcome?]

    private static let placeholder = Manifest.Icon(
        input: "", name: "", format: "", pixelWidth: 0, pixelHeight: 0, orientation: 0, hasAlpha: false, animated: false,
        contentHash: "", decodeScale: 0, pointWidth: 0, pointHeight: 0, lints: [])

    init(count: Int) {
        rows = Array(repeating: Self.placeholder, count: count)
        outcomes = Array(repeating: nil, count: count)
    }

    mutating func record(_ outcome: IconOutcome, at index: Int) {
        switch outcome {
        case .written(let icon, let changes, let unchanged):
            rows[index] = icon
            outcomes[index] = .written(changes, unchanged: unchanged)
        case .checked(let icon, let changes):
            rows[index] = icon
            outcomes[index] = .checked(changes)
        case .reused(let icon, let changes):
            rows[index] = icon
            outcomes[index] = .reused(files: icon.ownedFileCount, changes: changes)
        case .failed(let error): outcomes[index] = .failed(error)
        case .stopped: outcomes[index] = .stopped
        }
    }

    /// The rows of the inputs that have one, in input order: the same array, compacted in place.
    consuming func icons() -> [Manifest.Icon] {
        var kept = 0
        for index in rows.indices {
            switch outcomes[index] {
            case .written, .checked, .reused:
                if kept != index { rows.swapAt(kept, index) }
                kept += 1
            default: break
            }
        }
        outcomes = []
        rows.removeSubrange(kept...)
        return rows
    }
}
