import TabIcons
import Foundation

/// `--fit optical` (SPEC §3a): each glyph scaled to its set's optical size, the median of the
/// set's glyphs as drawn. A glyph's size is known only once it is drawn, and the median only once
/// every glyph of the set is: so a first pass, the engine asked for each input's plan (what
/// `inspect` does: each drawn alone at the largest scale and measured, nothing written), then the
/// inputs that ask for it are made with `--fit SIZE` of their set's median. Their manifest entry's
/// `options` records that size (so a rerun whose medians are the same carries them over); the first
/// pass reads every input of such a run again, the price of the option.
enum SetOpticalFit {
    /// `inputs` with `--fit optical` made `--fit SIZE` (unchanged when none asks for it). The set
    /// is `SetLints`': the glyphs (intent template) of one config `set` no other input has as a
    /// twin (`twins`: the plan's); a set without a glyph leaves its inputs to the rule.
    static func resolved(
        _ inputs: [BatchInput], twins: [(selected: Int?, dark: Int?)], settings: EngineSettings, memoryBudget: Int,
        jail: WorkerJail?, jobs: Int
    ) -> [BatchInput] {
        let own = inputs.map { settings.settings(of: $0) }
        guard own.contains(where: { $0.options.opticalFit == .set }) else { return inputs }
        var measuring = settings
        measuring.planOnly = true
        measuring.force = true
        measuring.checkOnly = false
        let outcomes = UnitRunner(settings: measuring, previous: nil, memoryBudget: memoryBudget, jail: jail)
            .run(inputs, plan: .unplaced(inputs), directory: nil, jobs: jobs, onEvent: { _ in })
        let twinIndices = Set(twins.flatMap { [$0.selected, $0.dark].compactMap { $0 } })
        var sizes: [String?: [Double]] = [:]
        for (index, outcome) in outcomes.enumerated() where !twinIndices.contains(index) {
            guard case .made(let row, _)? = outcome, row.intent == .template, let size = row.measures?.opticalSize, size > 0
            else { continue }
            sizes[inputs[index].set, default: []].append(size)
        }
        let medians = sizes.mapValues { SetLints.median($0) }
        return zip(inputs, own).map { input, own in
            guard own.options.opticalFit == .set else { return input }
            var input = input
            var made = own
            made.options.opticalFit = medians[input.set].map { .size(NumberText.rounded($0)) }
            input.settings = made
            return input
        }
    }
}
