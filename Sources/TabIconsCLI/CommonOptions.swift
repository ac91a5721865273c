import TabIcons
import TabIconsBatch

/// Option values shared by `inspect` and `normalize`, parsed in one place, whether the word came
/// from the command line or from `--config`'s file: `name` is how the message names its source
/// (`--box`, or `--config tabicons.json: icons[2].box`).
enum CommonOptions {
    static func box(_ text: String?, name: String = "--box") throws(ParsedArguments.UsageError) -> IconBox {
        guard let text else { return .regular }
        guard let box = IconBox(text) else {
            throw .init("\(name) must be regular, compact, material or a positive number of points, not '\(text)'")
        }
        return box
    }

    static func padding(_ text: String?, name: String = "--padding") throws(ParsedArguments.UsageError) -> IconPadding {
        guard let text else { return .none }
        guard let padding = IconPadding(text) else {
            throw .init("\(name) must be a number of points or a percentage of the box (2, 2.5, 10%), not '\(text)'")
        }
        return padding
    }

    /// `--stroke-width`: points (its range is `NormalizeOptions.problem`'s).
    static func strokeWidth(_ text: String?, name: String = "--stroke-width") throws(ParsedArguments.UsageError) -> Double? {
        guard let text else { return nil }
        guard let points = NumberText.parseDecimal(text) else { throw .init("\(name) must be a number of points, not '\(text)'") }
        return points
    }

    /// `--symbols` and `--symbol-weights ULTRALIGHT,BLACK`: the weights' factors when symbols
    /// are asked (only of an asset catalog; `layout` nil: `inspect`, which has none), else nil.
    static func symbols(_ words: OptionWords, layout: OutputLayout?) throws(ParsedArguments.UsageError) -> SymbolWeights? {
        guard words.flag(.symbols) else {
            if words.gave(.symbolWeights) { throw .init("\(words.name(.symbolWeights)) needs --symbols") }
            return nil
        }
        if let layout, layout != .xcassets {
            throw .init("\(words.name(.symbols)) needs --layout xcassets: a symbol set lives in an asset catalog")
        }
        let text = words.value(.symbolWeights) ?? ""
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { NumberText.parseDecimal(String($0)) }
        guard parts.count == 2, let ultralight = parts[0], let black = parts[1], ultralight > 0, ultralight <= 1,
            black >= 1, black <= 4
        else {
            throw .init(
                "\(words.name(.symbolWeights)) must be two factors ULTRALIGHT,BLACK with 0 < ULTRALIGHT <= 1 <= BLACK <= 4 (0.4,1.8), not '\(text)'"
            )
        }
        return SymbolWeights(ultralight: ultralight, black: black)
    }

    /// `--fit box|optical|POINTS` (a size's range is `NormalizeOptions.problem`'s).
    static func fit(_ text: String?, name: String = "--fit") throws(ParsedArguments.UsageError) -> NormalizeOptions.OpticalFit? {
        switch text {
        case nil, "box": return nil
        case "optical": return .set
        case let text?:
            guard let points = NumberText.parseDecimal(text) else {
                throw .init("\(name) must be box, optical or an optical size in points, not '\(text)'")
            }
            return .size(points)
        }
    }

    /// `--centre box|optical`: the off-centre threshold glyphs are moved past (the config's
    /// `lints.offCentre`), or nil.
    static func centre(_ text: String?, name: String = "--centre", threshold: Double) throws(ParsedArguments.UsageError)
        -> Double?
    {
        switch text {
        case nil, "box": return nil
        case "optical": return threshold
        case let text?: throw .init("\(name): unknown value '\(text)'")
        }
    }

    static func limits(maxPixels text: String?) throws(ParsedArguments.UsageError) -> DecodeOptions.Limits {
        var limits = DecodeOptions.Limits.default
        if let text {
            guard let value = NumberText.parseInteger(text), value > 0 else {
                throw .init("--max-pixels must be a positive integer, not '\(text)'")
            }
            limits.maxPixels = value
        }
        return limits
    }

    /// The library's own check of the options (`NormalizeOptions.problem`), as a usage error
    /// naming the flag that set the value: options that cannot work stop the run before any work.
    static func validated(_ options: NormalizeOptions, name: (CommandOption) -> String = \.longName)
        throws(ParsedArguments.UsageError) -> NormalizeOptions
    {
        guard let problem = options.problem else { return options }
        switch problem {
        case .box(let text): throw .init("\(name(.box)): \(text)")
        case .scales(let text): throw .init("\(name(.scales)): \(text)")
        case .limits(let text): throw .init("--max-pixels: \(text)")
        case .padding(let text): throw .init("\(name(.padding)): \(text)")
        case .strokeWidth(let text): throw .init("\(name(.strokeWidth)): \(text)")
        case .opticalFit(let text): throw .init("\(name(.fit)): \(text)")
        case .opticalCentre(let text): throw .init("\(name(.centre)): \(text)")
        }
    }
}
