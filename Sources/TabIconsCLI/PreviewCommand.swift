import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon preview [normalize options] -o FILE.html <file|dir|->...`: the same normalization as
/// `normalize`, in memory, then one self-contained page (SPEC §6). Writes only FILE.html.
///
/// The options are `normalize`'s, parsed by `NormalizeCommand` itself (one parser, one meaning for
/// every flag); the ones about written files (`--manifest`, `--json`, `--preview`, `--check`,
/// `--force`) are refused, since nothing but the page is written.
struct PreviewCommand {
    let settings: NormalizeCommand
    let pageURL: URL
    let pageName: String

    static let refused = ["manifest", "json", "preview", "check", "force"]

    init(arguments: [String]) throws(ParsedArguments.UsageError) {
        let parsed = try ParsedArguments(arguments, options: NormalizeCommand.options)
        guard !parsed.positionals.isEmpty else { throw .init("preview needs at least one input") }
        guard let out = parsed.value("out") else { throw .init("preview needs -o FILE.html, the page to write") }
        if let key = Self.refused.first(where: { parsed.has($0) || parsed.value($0) != nil }) {
            throw .init("--\(key) does not apply to preview, which writes only the page")
        }
        settings = try NormalizeCommand(arguments: arguments)
        pageName = out
        pageURL = URL(fileURLWithPath: out)
    }

    func run(console: Console, jail: WorkerJail?) -> TabIconCommand.ExitStatus {
        let collected = InputCollector.collect(settings.inputs)
        let (items, missing) = (collected.inputs, collected.failures)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: pageURL.path, isDirectory: &isDirectory), isDirectory.boolValue {
            console.err("tabicon: -o \(pageName) is a directory; preview writes one file (-o FILE.html)")
            return .usage
        }
        if let clash = Self.inputAt(pageURL, among: items) {
            console.err("tabicon: -o \(pageName) is the input \(clash.displayName): the page would overwrite it")
            return .usage
        }
        for (input, error) in missing { console.reportFailure(input: input, error) }
        let limit = settings.options.limits.maxInputBytes
        let inputs = items.map { item in
            BatchInput(name: item.displayName, outputStem: item.outputStem,
                       load: { () throws(TabIconsError) -> Data in try item.read(limit: limit) },
                       expectedByteCount: { item.byteCount })
        }
        let progress = Progress(total: inputs.count, console: console, enabled: !settings.quiet)
        var run = PreviewRun(normalizer: Normalizer(options: settings.options), layout: settings.layout,
                             format: settings.format, jobs: settings.jobs)
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
        document.errors = missing.map { Manifest.ErrorEntry(input: $0.0, error: $0.1) } + document.errors
        guard Self.write(document, to: pageURL, name: pageName, console: console) else { return .someInputsFailed }
        return document.errors.isEmpty ? .success : .someInputsFailed
    }

    /// `normalize --preview FILE`'s hook: the page for a run that wrote its renditions under
    /// `outputRoot`, read back from the files `manifest` lists. Answers false when the page could
    /// not be written (the error is printed).
    static func writePage(for manifest: Manifest, render: NormalizeOptions.Render, outputRoot: URL,
                          to url: URL, console: Console) -> Bool {
        let inputs = manifest.icons.map(\.input) + manifest.errors.map(\.input)
        if let clash = inputs.first(where: { isSameFile($0, url.path) }) {
            console.err("tabicon: --preview \(url.path) is the input \(clash): the page would overwrite it")
            return false
        }
        return write(PreviewDocument(manifest: manifest, render: render, outputRoot: outputRoot),
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

    /// The input that is the very file at `url` (same device and inode), if any.
    private static func inputAt(_ url: URL, among items: [InputItem]) -> InputItem? {
        items.first { item in
            guard case .file(let input) = item.source else { return false }
            return isSameFile(input.path, url.path)
        }
    }

    /// Whether two paths name one existing file (by identity, not spelling).
    private static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0
            && first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
