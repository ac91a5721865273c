import TabIcons
import Foundation

/// `tabicon inspect`'s work: the batch's engine asked for the normalizer's plan of each input
/// only (nothing drawn, nothing written), so what it reports is `normalize`'s.
package struct InspectRun: Sendable {
    package var options: NormalizeOptions
    /// `inspect --symbols`: say which inputs could not become symbols, and why.
    package var symbols: SymbolWeights?
    package var jobs = JobCount.allCores
    /// As `BatchNormalizer.jail`.
    package var jail: WorkerJail?
    package var shouldStop: @Sendable () -> Int32 = { 0 }

    /// `options`: the box and limits given; the scales, against which `undersized` is judged, the default ones.
    package init(box: IconBox, limits: DecodeOptions.Limits) {
        options = NormalizeOptions(box: box, limits: limits)
    }

    /// Each input's row (no renditions) or error, in input order; nil for an input a stop left undone.
    package func run(_ inputs: [BatchInput]) -> [Result<Manifest.Icon, TabIconsError>?] {
        let settings = EngineSettings(
            normalizer: Normalizer(options: options), layout: .flat, format: .png, vector: false, symbols: symbols,
            planOnly: true, shouldStop: shouldStop)
        let outcomes = UnitRunner(
            settings: settings, previous: nil, memoryBudget: BatchNormalizer.defaultMemoryBudget, jail: jail
        ).run(inputs, plan: .unplaced(inputs), directory: nil, jobs: jobs, onEvent: { _ in })
        return outcomes.map { outcome in
            switch outcome {
            case .made(let row, _)?: .success(row)
            case .failed(let error)?: .failure(error)
            default: nil
            }
        }
    }
}
