import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon preview [normalize options] -o FILE.html <file|dir|->...`: the same normalization as
/// `normalize`, in memory, then one self-contained page (SPEC §6). Writes only FILE.html.
///
/// The options are `normalize`'s, read by `NormalizeCommand(parsed:)` itself (one meaning for
/// every flag); the ones about written files are refused (`CommandDeclaration.preview`), since
/// nothing but the page is written.
struct PreviewCommand {
    let settings: NormalizeCommand
    let pageURL: URL
    let pageName: String

    init(arguments: [String]) throws(ParsedArguments.UsageError) {
        let parsed = try ParsedArguments(arguments, command: .preview)
        guard !parsed.positionals.isEmpty else { throw .init("preview needs at least one input") }
        guard let out = parsed.value(.page) else { throw .init("preview needs -o FILE.html, the page to write") }
        try parsed.checkRefused()
        settings = try NormalizeCommand(parsed: parsed)
        pageName = out
        pageURL = URL(fileURLWithPath: out)
    }

    func run(console: Console, jail: WorkerJail?) -> TabIconCommand.ExitStatus {
        let collected = InputCollector.collect(settings.inputs)
        // Each input with its `--config` settings, as `normalize` makes it.
        let inputs: [BatchInput]
        do throws(ParsedArguments.UsageError) {
            inputs = try settings.batchInputs(collected.inputs, console: console)
        } catch {
            console.err("tabicon: \(error.description)")
            return .usage
        }
        // The page is checked as `normalize` checks its manifest: not an input, a folder, a link,
        // a FIFO or a device, before any work.
        do throws(BatchUsageError) {
            try OutputPlan.checkFilePath("-o", pageURL.relativePath, inputs: inputs)
        } catch {
            console.err("tabicon: \(error.description)")
            return .usage
        }
        let missing = collected.failures
        for (input, error) in missing { console.reportFailure(input: input, error) }
        let progress = ProgressLine(total: inputs.count, console: console, enabled: !settings.quiet)
        var run = PreviewRun(
            normalizer: Normalizer(options: settings.options), layout: settings.layout,
            format: settings.format, jobs: settings.jobs)
        run.vector = settings.vector
        run.setThresholds = settings.config?.thresholds ?? .init()
        run.jail = jail
        run.shouldStop = { StopSignals.received }
        var document = run.run(inputs) { event in
            switch event {
            case .done(_, let name, let icon), .reused(_, let name, let icon):
                progress.advance(name, detail: NormalizeCommand.describe(icon))
            case .failed(_, let name, let error):
                progress.clear()
                console.reportFailure(input: name, error)
                progress.advance(name)
            }
        }
        progress.finish()
        let signal = StopSignals.received
        if signal != 0 {
            console.err("tabicon: stopped by signal \(signal); no page written")
            return signal == SIGTERM ? .terminated : .interrupted
        }
        // A VectorDrawable (--layout android --vector) is shown by its SVG, as `normalize --preview` shows it.
        document = document.showingVectorDrawables(inputs, run: run)
        document.errors = missing.map { Manifest.ErrorEntry(input: $0.0, error: $0.1) } + document.errors
        guard Self.write(document, to: pageURL, name: pageName, console: console) else { return .someInputsFailed }
        if !settings.quiet {
            var text = "previewed \(NormalizeCommand.count(document.icons.count, "icon"))"
            if !document.errors.isEmpty { text += " (\(document.errors.count) failed)" }
            console.err(text + " in \(TerminalText.quoted(pageName)); open it in a browser")
        }
        return document.errors.isEmpty ? .success : .someInputsFailed
    }

    /// `normalize --preview FILE`'s hook: the page for a run that wrote its renditions under
    /// `outputRoot`, read back from the files `manifest` lists. Answers false when the page could
    /// not be written (the error is printed). The batch's plan has already kept the page off the
    /// inputs, the manifest and every output.
    /// Icons kept as VectorDrawables are shown by their SVG form, made again from `inputs` by `run`.
    static func writePage(
        for manifest: Manifest, render: NormalizeOptions.Render, outputRoot: URL,
        inputs: [BatchInput], run: PreviewRun, to url: URL, console: Console
    ) -> Bool {
        return write(
            PreviewDocument(manifest: manifest, render: render, outputRoot: outputRoot)
                .showingVectorDrawables(inputs, run: run),
            to: url, name: url.path, console: console)
    }

    private static func write(_ document: PreviewDocument, to url: URL, name: String, console: Console) -> Bool {
        do throws(TabIconsError) {
            try AtomicFileWriter.write(Data(PreviewPage.html(document).utf8), to: url)
            return true
        } catch {
            console.err("tabicon: cannot write the preview \(name): \(error.message)")
            return false
        }
    }
}
