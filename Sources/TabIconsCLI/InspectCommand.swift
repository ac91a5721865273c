import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon inspect [--json] <file|dir|->...`: decodes each input and reports what it is and how
/// the decode-scale rule places it in the box. Writes nothing.
struct InspectCommand {
    let inputs: [String]
    let json: Bool
    let box: IconBox
    let limits: DecodeOptions.Limits
    /// `--symbols`: say which inputs could not become symbols.
    let symbols: SymbolWeights?

    init(arguments: [String]) throws(ParsedArguments.UsageError) {
        let parsed = try ParsedArguments(arguments, command: .inspect)
        guard !parsed.positionals.isEmpty else { throw .init("inspect needs at least one input") }
        inputs = parsed.positionals
        json = parsed.has(.json)
        box = try CommonOptions.box(parsed.value(.inspectBox))
        limits = try CommonOptions.limits(maxPixels: parsed.value(.maxPixels))
        symbols = try CommonOptions.symbols(OptionWords(commandLine: parsed, [.symbols, .symbolWeights]), layout: nil)
        _ = try CommonOptions.validated(NormalizeOptions(box: box, limits: limits))
    }

    func run(console: Console, jail: WorkerJail?) -> TabIconCommand.ExitStatus {
        let collected = InputCollector.collect(inputs)
        let (items, missing) = (collected.inputs, collected.failures)
        // Lints such as `undersized` are judged against the default scales, so the document names them.
        var manifest = Manifest(box: box, scales: NormalizeOptions().scales)
        for (input, error) in missing {
            manifest.errors.append(.init(input: input, error: error))
            console.reportFailure(input: input, error)
        }
        var run = InspectRun(box: box, limits: limits)
        run.jail = jail
        run.symbols = symbols
        run.shouldStop = { StopSignals.received }
        let inputs = items.map { BatchInput($0, limit: limits.maxInputBytes) }
        for (item, result) in zip(items, run.run(inputs)) {
            switch result {
            case .success(let icon)?:
                manifest.icons.append(icon)
                if !json { console.out(Self.describe(icon)) }
            case .failure(let error)?:
                manifest.errors.append(.init(input: item.displayName, error: error))
                console.reportFailure(input: item.displayName, error)
            case nil:
                break
            }
        }
        let signal = StopSignals.received
        if signal != 0 { return signal == SIGTERM ? .terminated : .interrupted }
        // Twins and the set are known once every input is: the document's links, `twin-mismatch`
        // and the set's lints are normalize's (SPEC §5, §3a); the lines, printed in input order,
        // get one more line a lint (an inspected row has none of them before this).
        IconTwins.link(&manifest.icons)
        SetLints.apply(&manifest.icons)
        if !json {
            for icon in manifest.icons {
                for lint in icon.lints where lint.code == .twinMismatch || SetLints.codes.contains(lint.code) {
                    console.out(
                        TerminalText.quoted(icon.input) + "  lints: \(lint.code.rawValue): " + TerminalText.quoted(lint.message))
                }
            }
        }
        if json { console.outText(String(decoding: manifest.jsonData(), as: UTF8.self)) }
        return manifest.errors.isEmpty ? .success : .someInputsFailed
    }

    /// One line a person reads: `home.png  png 96×96 rgba  alpha  scale 3.84 → 25×25 pt  lints: padding`.
    static func describe(_ icon: Manifest.Icon) -> String {
        var parts = [TerminalText.quoted(icon.input), "\(icon.format) \(icon.pixelWidth)×\(icon.pixelHeight)"]
        parts.append(icon.hasAlpha ? "alpha" : "opaque")
        if icon.orientation != 1 { parts.append("orientation \(icon.orientation)") }
        if icon.animated { parts.append("animated") }
        parts.append(
            "scale \(NumberText.decimal(icon.decodeScale)) → \(NumberText.decimal(icon.pointWidth))×\(NumberText.decimal(icon.pointHeight)) pt"
        )
        parts.append(icon.contentHash)
        if let m = icon.measures {
            let text = { (value: Double) in NumberText.decimal(value) }
            parts.append(
                "weight \(text(m.strokeWeight)) pt, size \(text(m.opticalSize)) pt, centre \(text(m.centre[0])),\(text(m.centre[1])) pt, "
                    + "ink \(text((m.coverage * 1000).rounded() / 10))%")
        }
        if !icon.lints.isEmpty { parts.append("lints: " + icon.lints.map(\.code.rawValue).joined(separator: ", ")) }
        return parts.joined(separator: "  ")
    }
}
