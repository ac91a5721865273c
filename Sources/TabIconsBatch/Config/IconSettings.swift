import TabIcons

/// The options one icon is made with when they are not the batch's own (`--config`'s `icons`
/// entries, SPEC §6); its fingerprint is its own, so changing them redoes that icon only. The
/// scales and decode limits are the run's: the plan lays out files by the run's scales, and the
/// limits guard the run, not an icon.
public struct IconSettings: Sendable, Equatable {
    public var options: NormalizeOptions
    public var format: OutputFormat

    public init(options: NormalizeOptions, format: OutputFormat) {
        self.options = options
        self.format = format
    }

    /// What `input` is made with in a run of `options` and `format`: its own settings with the
    /// run's scales and limits, or the run's. The one answer for `normalize` and `preview`.
    static func of(_ input: BatchInput, run options: NormalizeOptions, format: OutputFormat) -> IconSettings {
        guard var own = input.settings else { return IconSettings(options: options, format: format) }
        own.options.scales = options.scales
        own.options.limits = options.limits
        return own
    }
}
