import TabIcons

/// What the engine (`UnitRunner`) needs of a run; the disk's part is `BatchNormalizer`'s alone.
struct EngineSettings: Sendable {
    var normalizer: Normalizer
    var layout: OutputLayout
    var format: OutputFormat
    var vector: Bool
    /// `--symbols` and its weights: SVG inputs become custom symbols (nil: not asked).
    var symbols: SymbolWeights? = nil
    /// `inspect`: the normalizer's plan only, rows without renditions.
    var planOnly = false
    /// `--force` and `--check`, as `BatchNormalizer`'s.
    var force = false
    var checkOnly = false
    var shouldStop: @Sendable () -> Int32

    var fingerprint: OptionFingerprint {
        OptionFingerprint(options: normalizer.options, layout: layout, format: format, vector: vector, symbols: symbols)
    }

    /// What `input` is made with: its own settings, or the run's; the scales and limits are
    /// always the run's (`IconSettings`), so its files are the ones the plan laid out.
    func settings(of input: BatchInput) -> IconSettings { .of(input, run: normalizer.options, format: format) }

    /// The fingerprint of an input with settings of its own (nil for the run's): its incremental
    /// cache key and its manifest entry's `options`, when that differs from the run's.
    func fingerprint(of input: BatchInput) -> OptionFingerprint? {
        let own = settings(of: input)
        let fingerprint = OptionFingerprint(
            options: own.options, layout: layout, format: own.format, vector: vector, symbols: symbols)
        return fingerprint == self.fingerprint ? nil : fingerprint
    }

    /// What the engine makes of an input placed at `plan` with `settings`.
    func work(_ plan: OutputPlan.Icon, _ settings: IconSettings) -> RenderedIcon.Work {
        planOnly
            ? .plan(symbols: symbols) : .render(settings.format, vector: plan.vectorTarget(symbolWeights: symbols ?? .standard))
    }
}
