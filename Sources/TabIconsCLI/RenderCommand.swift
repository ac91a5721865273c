import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon render [normalize options] -o DIR <file|dir|->...`: one build action's work (SPEC §9),
/// `HermeticRender` with `normalize`'s options, read by `NormalizeCommand(parsed:)` itself (one
/// meaning for every flag); the options about the state `normalize` keeps are refused.
struct RenderCommand {
    let settings: NormalizeCommand
    let outputName: String

    init(arguments: [String]) throws(ParsedArguments.UsageError) {
        let parsed = try ParsedArguments(arguments, command: .render)
        guard !parsed.positionals.isEmpty else { throw .init("render needs at least one input") }
        guard let out = parsed.value(.emptyOut), !out.isEmpty else {
            throw .init("render needs -o DIR, an empty folder (or a new one) for the inputs' files and fragments")
        }
        try parsed.checkRefused()
        settings = try NormalizeCommand(parsed: parsed)
        outputName = out
    }

    func run(console: Console, jail: WorkerJail?) -> TabIconCommand.ExitStatus {
        let outputRoot = URL(fileURLWithPath: outputName)
        var collected = InputCollector.collect(settings.inputs, excluding: outputRoot)
        let inputs: [BatchInput]
        do throws(ParsedArguments.UsageError) {
            inputs = try settings.batchInputs(collected.inputs, console: console)
            // Each input is made alone: its set's optical size is not to be known here.
            let run = IconSettings(options: settings.options, format: settings.format)
            if let alone = inputs.first(where: { ($0.settings ?? run).options.opticalFit == .set }) {
                throw .init(
                    "--fit optical needs the set's other icons, and render makes \(TerminalText.quoted(alone.name)) alone; "
                        + "give the optical size (--fit 18)")
            }
        } catch {
            console.err("tabicon: \(error.description)")
            return .usage
        }
        collected.inputs = []
        var render = HermeticRender(
            normalizer: Normalizer(options: settings.options), layout: settings.layout, format: settings.format,
            outputRoot: outputRoot, jobs: settings.jobs)
        render.vector = settings.vector
        render.symbols = settings.symbols
        render.setThresholds = settings.config?.thresholds ?? .init()
        render.jail = jail
        render.shouldStop = { StopSignals.received }
        let progress = ProgressLine(total: inputs.count, console: console, enabled: !settings.quiet)
        let result: HermeticRender.Result
        do throws(BatchUsageError) {
            result = try render.run(inputs) { event in
                switch event {
                case .done(_, let name, let icon): progress.advance(name, detail: NormalizeCommand.describe(icon))
                case .reused(_, let name, _): progress.advance(name)
                case .failed(_, let name, let error):
                    progress.clear()
                    console.reportFailure(input: name, error)
                    progress.advance(name)
                }
            }
        } catch {
            console.err("tabicon: \(error.description)")
            return .usage
        }
        progress.finish()
        for (input, error) in collected.failures { console.reportFailure(input: input, error) }
        if let signal = result.stoppedBy {
            console.err("tabicon: stopped by signal \(signal); the inputs rendered so far are whole")
            return signal == SIGTERM ? .terminated : .interrupted
        }
        let failed = result.errors.count + collected.failures.count
        if !settings.quiet {
            var line = "rendered \(NormalizeCommand.count(result.icons.count, "icon")) into \(outputName)"
            if failed > 0 { line += "; \(failed) failed" }
            console.err(line)
        }
        return failed == 0 ? .success : .someInputsFailed
    }
}
