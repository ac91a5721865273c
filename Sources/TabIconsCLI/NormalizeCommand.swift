import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon normalize [options] <file|dir|->...`: the main job. Parses SPEC §6's options into a
/// `BatchNormalizer`, runs it with progress on stderr, writes the manifest, and answers the exit
/// status (0 all done, 1 some inputs failed, 2 usage).
struct NormalizeCommand {
    let inputs: [String]
    let outputRoot: URL
    let manifestURL: URL
    /// The output root and manifest as the user wrote them, for the summary line.
    let outputName: String
    let manifestName: String
    let options: NormalizeOptions
    let layout: OutputLayout
    let format: OutputFormat
    let jobs: Int
    let json: Bool
    let quiet: Bool
    /// `--preview FILE`: also write the preview page of this run (`PreviewCommand.writePage`).
    let preview: URL?
    /// `--check`: compare with what a run would write, write nothing (SPEC §6a).
    let check: Bool
    /// `--force`: redo every input, whatever the previous manifest says.
    let force: Bool
    /// `--verify`: hash every input and recorded file, trusting no stat record.
    let verify: Bool
    /// `--vector`: SVG inputs written as vectors (SPEC §6).
    let vector: Bool
    /// `--symbols` (and `--symbol-weights`): SVG inputs written as custom symbols.
    let symbols: SymbolWeights?
    /// `--config FILE` or `./tabicons.json` (SPEC §6), when there is one.
    let config: IconConfig?
    /// Whether an `icons` entry matching none of the inputs is a warning: not for a run over
    /// part of the set (`package-icon`, one icon a run; `package-names` warns for the whole).
    var warnsUnmatchedEntries = true
    /// The words the run's options were read from: the config's `options` under the command line's.
    private let runWords: OptionWords
    /// Each `icons` entry's words, in file order.
    private let entryWords: [OptionWords]

    init(arguments: [String]) throws(ParsedArguments.UsageError) {
        let parsed = try ParsedArguments(arguments, command: .normalize)
        guard !parsed.positionals.isEmpty else { throw .init("normalize needs at least one input") }
        try self.init(parsed: parsed)
    }

    /// The settings of `parsed`, whose command is `normalize` or `preview` (which shares its
    /// options; what preview refuses is simply absent, so its default holds).
    init(parsed: ParsedArguments) throws(ParsedArguments.UsageError) {
        inputs = parsed.positionals

        // SPEC §6's precedence: defaults, then the config's `options`, then the command line.
        let config = try ConfigOptions.load(parsed)
        self.config = config
        var configWords = OptionWords()
        if let config { configWords = try ConfigOptions.words(config.options, file: config.path, perIconOnly: false) }
        let words = configWords.overlaid(by: OptionWords(commandLine: parsed, ConfigOptions.perIcon + ConfigOptions.runWide))
        runWords = words
        layout = try Self.choice(words, .layout)
        let scales =
            try words.value(.scales).map { text throws(ParsedArguments.UsageError) in
                try Self.scales(text, name: words.name(.scales))
            } ?? layout.defaultScales
        if layout == .android, let odd = scales.first(where: { s in !OutputLayout.androidDensities.contains { $0.scale == s } }) {
            throw .init("--layout android has no density folder for scale \(NumberText.decimal(odd)) (use 0.75, 1, 1.5, 2, 3, 4)")
        }
        let limits = try CommonOptions.limits(maxPixels: parsed.value(.maxPixels))
        let threshold = config?.thresholds.offCentre ?? SetLints.Thresholds().offCentre
        let run = try Self.settings(words, layout: layout, scales: scales, limits: limits, centreThreshold: threshold)
        options = run.options
        format = run.format
        // Every entry's values, each read by its option's parser before any work: a bad value is
        // an error even in an entry that matches nothing. Whether they go together (a quality for
        // a PNG, a padding the box cannot hold) is known only where entries meet: per input.
        var entryWords: [OptionWords] = []
        for entry in config?.icons ?? [] {
            let own = try ConfigOptions.words(entry.settings, file: config?.path ?? "", perIconOnly: true)
            _ = try Self.settings(
                words.overlaid(by: own), layout: layout, scales: scales, limits: limits, together: false,
                centreThreshold: threshold)
            entryWords.append(own)
        }
        self.entryWords = entryWords

        if let text = parsed.value(.jobs) {
            guard let n = NumberText.parseInteger(text), (1...Self.maxJobs).contains(n) else {
                throw .init("--jobs must be a whole number from 1 to \(Self.maxJobs), not '\(text)'")
            }
            jobs = n
        } else {
            jobs = JobCount.allCores
        }
        for option in [CommandOption.out, .manifest, .preview] where parsed.value(option)?.isEmpty == true {
            throw .init("\(option.longName) needs a path, not an empty word")
        }
        // `.out`'s declared default; preview reads its page from the same words (`.page`).
        outputName = parsed.value(.out) ?? ""
        outputRoot = URL(fileURLWithPath: outputName)
        if let given = parsed.value(.manifest) {
            manifestName = given
        } else {
            manifestName = try Self.defaultManifest(out: outputName, layout: layout)
        }
        manifestURL = URL(fileURLWithPath: manifestName)
        // One default name, one kind of file: a manifest at ./tabicons.json would be read as the
        // next run's config.
        if manifestURL.standardizedFileURL.path == URL(fileURLWithPath: ConfigOptions.defaultFile).standardizedFileURL.path {
            throw .init(
                "--manifest \(TerminalText.quoted(manifestName)) is where tabicon looks for its config "
                    + "(./\(ConfigOptions.defaultFile)); name the manifest otherwise (the default is "
                    + "OUT/\(BatchNormalizer.defaultManifestName))")
        }
        json = parsed.has(.json)
        quiet = parsed.has(.quiet)
        preview = parsed.value(.preview).map { URL(fileURLWithPath: $0) }
        check = parsed.has(.check)
        force = parsed.has(.force)
        verify = parsed.has(.verify)
        vector = words.flag(.vector)
        symbols = try CommonOptions.symbols(words, layout: layout)
    }

    func run(console: Console, jail: WorkerJail?) -> TabIconCommand.ExitStatus {
        var collected = InputCollector.collect(inputs, excluding: outputRoot)
        let batchInputs: [BatchInput]
        do throws(ParsedArguments.UsageError) {
            batchInputs = try self.batchInputs(collected.inputs, console: console)
        } catch {
            console.err("tabicon: \(error.description)")
            return .usage
        }
        // The batch inputs hold what the run needs of each item: the list goes before the run.
        collected.inputs = []
        var batch = BatchNormalizer(
            normalizer: Normalizer(options: options), layout: layout, format: format,
            outputRoot: outputRoot, manifestURL: manifestURL, jobs: jobs)
        batch.force = force
        batch.verify = verify
        batch.vector = vector
        batch.symbols = symbols
        batch.setThresholds = config?.thresholds ?? .init()
        batch.checkOnly = check
        batch.inputFolders = collected.folders
        batch.previewURL = preview
        batch.shouldStop = { StopSignals.received }
        batch.jail = jail

        let progress = ProgressLine(total: batchInputs.count, console: console, enabled: !quiet)
        let result: BatchResult
        do throws(BatchUsageError) {
            result = try batch.run(batchInputs, priorErrors: collected.errors) { event in
                switch event {
                case .done(_, let name, let icon): progress.advance(name, detail: Self.describe(icon))
                case .reused(_, let name, _): progress.advance(name, detail: "unchanged")
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
        for warning in result.warnings { console.warn(warning) }
        for (input, error) in collected.failures { console.reportFailure(input: input, error) }
        if let signal = result.stoppedBy {
            console.err("tabicon: stopped by signal \(signal); finished icons are in place, the manifest is the previous one")
            return signal == SIGTERM ? .terminated : .interrupted
        }
        if check {
            for change in result.changes { console.out("\(change.kind.rawValue) \(TerminalText.quoted(shown(change.path)))") }
            if json { console.outText(String(decoding: result.manifest.jsonData(), as: UTF8.self)) }
            if !quiet { console.err(result.isUpToDate ? "\(shownOut) is up to date" : checkSummary(result)) }
            return result.isUpToDate ? .success : .checkFoundChanges
        }
        var status: TabIconCommand.ExitStatus = result.manifest.errors.isEmpty ? .success : .someInputsFailed
        if let error = result.manifestError {
            console.err("tabicon: cannot write the manifest \(TerminalText.quoted(manifestName)): \(error.message)")
            status = .someInputsFailed
        }
        if let preview,
            !PreviewCommand.writePage(
                for: result.manifest, render: options.render, outputRoot: outputRoot,
                inputs: batchInputs, run: batch.previewRun, to: preview, console: console)
        {
            status = .someInputsFailed
        }
        if json { console.outText(String(decoding: result.manifest.jsonData(), as: UTF8.self)) }
        if !quiet {
            console.err(summary(result))
            if let next = nextStep(result) { console.err(next) }
        }
        return status
    }

    /// The line after the summary when the run left something to look at: icons too small for
    /// some scales (`--allow-upscale`), lints or failed inputs, and no page made (`tabicon preview`).
    func nextStep(_ result: BatchResult) -> String? {
        var steps: [String] = []
        let lints = result.manifest.icons.contains { !$0.lints.isEmpty }
        if preview == nil, lints || result.counts.undersized > 0 || !result.manifest.errors.isEmpty {
            let shown = inputs.map(TerminalText.quoted).joined(separator: " ")
            let words = shown.count <= 60 ? shown : "INPUTS"
            steps.append("see the icons in tab bars, with their lints: tabicon preview -o preview.html \(words)")
        }
        if result.counts.undersized > 0 {
            steps.append("--allow-upscale renders the scales skipped as too small")
        }
        return steps.isEmpty ? nil : "next: " + steps.joined(separator: "; ")
    }

    /// A change's path as the user finds it: below `--out`, or the manifest's path as given.
    private func shown(_ path: String) -> String {
        path == manifestURL.relativePath ? manifestName : (outputName as NSString).appendingPathComponent(path)
    }

    /// `--out` as the summary names it: `out/`, `res/` (written `res` or `res/`).
    private var shownOut: String { outputName.hasSuffix("/") ? outputName : outputName + "/" }

    private func checkSummary(_ result: BatchResult) -> String {
        var text = "\(shownOut) is not up to date: \(Self.count(result.changes.count, "file")) would change"
        if !result.manifest.errors.isEmpty { text += "; \(Self.count(result.manifest.errors.count, "input")) failed" }
        return text
    }

    /// `normalized 5 icons (2 reused) into out/: 9 files written, 6 unchanged, 2 removed; ...`
    func summary(_ result: BatchResult) -> String {
        let manifest = result.manifest
        let counts = result.counts
        let skipped = counts.undersized
        var text =
            "normalized \(Self.count(counts.normalized + counts.reused, "icon"))"
            + " (\(counts.reused) reused) into \(shownOut): \(Self.count(counts.written, "file")) written,"
            + " \(counts.unchanged) unchanged, \(counts.removed) removed"
        if skipped > 0 { text += "; \(skipped) too small for some scales (undersized)" }
        if !manifest.errors.isEmpty { text += "; \(manifest.errors.count) failed" }
        // A manifest that could not be written is not named as if it were there.
        text += result.manifestError == nil ? "; manifest: \(manifestName)" : "; no manifest written"
        if let preview { text += "; preview: \(TerminalText.quoted(preview.relativePath))" }
        return text + (config.map { "; config: \(TerminalText.quoted($0.path))" } ?? "")
    }

    /// The collected inputs as the batch takes them, each with the settings of the config's
    /// `icons` entries that match it (SPEC §6: applied in file order over the run's). A pattern
    /// that matches no input is a warning; settings that cannot work together for an input are a
    /// usage error, before any work.
    func batchInputs(_ items: [InputItem], console: Console) throws(ParsedArguments.UsageError) -> [BatchInput] {
        let limit = options.limits.maxInputBytes
        let run = IconSettings(options: options, format: format)
        var made: [[Int]: IconSettings] = [:]  // by the entries that match, made once
        var matched: Set<Int> = []
        var inputs: [BatchInput] = []
        inputs.reserveCapacity(items.count)  // held for the whole run: no room left over from growing
        for item in items {
            var input = BatchInput(item, limit: limit)
            input.set = config?.set(of: item.displayName)
            let entries = config?.entries(matching: item.displayName).map(\.index) ?? []
            matched.formUnion(entries)
            if !entries.isEmpty {
                if made[entries] == nil {
                    let words = entries.reduce(runWords) { $0.overlaid(by: entryWords[$1]) }
                    do throws(ParsedArguments.UsageError) {
                        made[entries] = try Self.settings(
                            words, layout: layout, scales: options.scales, limits: options.limits,
                            centreThreshold: config?.thresholds.offCentre ?? SetLints.Thresholds().offCentre)
                    } catch {
                        let places = entries.map { "icons[\($0)]" }.joined(separator: ", ")
                        throw .init("\(error.description) (for \(TerminalText.quoted(item.displayName)), which \(places) match)")
                    }
                }
                input.settings = made[entries] == run ? nil : made[entries]
            }
            inputs.append(input)
        }
        if let config, warnsUnmatchedEntries {
            for entry in config.icons where !matched.contains(entry.index) {
                console.warn(
                    "--config \(TerminalText.quoted(config.path)): \(entry.place) "
                        + "(match \(TerminalText.quoted(entry.glob.pattern))) matches no input")
            }
        }
        return inputs
    }

    /// What icons are made with, read from `words` by each option's one parser; the layout,
    /// scales and limits are the run's. `together` false reads each value without checking that
    /// they can work together (`NormalizeOptions.problem`, a quality for a PNG).
    static func settings(
        _ words: OptionWords, layout: OutputLayout, scales: [Double], limits: DecodeOptions.Limits,
        together: Bool = true, centreThreshold: Double = SetLints.Thresholds().offCentre
    ) throws(ParsedArguments.UsageError) -> IconSettings {
        let box = words.gave(.box) ? try CommonOptions.box(words.value(.box), name: words.name(.box)) : layout.defaultBox
        let read = NormalizeOptions(
            box: box, scales: scales,
            shape: try choice(words, .shape),
            trim: words.flag(.trim),
            render: try choice(words, .render),
            filter: try choice(words, .filter),
            allowUpscale: words.flag(.allowUpscale),
            limits: limits,
            padding: try CommonOptions.padding(words.value(.padding), name: words.name(.padding)),
            strokeWidth: try CommonOptions.strokeWidth(words.value(.strokeWidth), name: words.name(.strokeWidth)),
            opticalFit: try CommonOptions.fit(words.value(.fit), name: words.name(.fit)),
            opticalCentre: try CommonOptions.centre(words.value(.centre), name: words.name(.centre), threshold: centreThreshold))
        let options = together ? try CommonOptions.validated(read, name: words.name) : read

        let quality = try words.value(.quality).map { (text: String) throws(ParsedArguments.UsageError) -> Float in
            guard let q = NumberText.parseDecimal(text), (0...100).contains(q) else {
                throw .init("\(words.name(.quality)) must be a number from 0 to 100, not '\(text)'")
            }
            return Float(q)
        }
        switch words.value(.format).flatMap(OutputFormatName.init(rawValue:)) {
        case .png:
            if quality != nil, together {
                throw .init("\(words.name(.quality)) applies to --format webp only (PNG is always lossless)")
            }
            return IconSettings(options: options, format: .png)
        case .webp: return IconSettings(options: options, format: .webp(quality: quality))
        case nil: throw .init("\(words.name(.format)) must be png or webp, not '\(words.value(.format) ?? "")'")
        }
    }

    /// What `--layout android`'s default manifest adds to OUT's name: `res` gives `res.manifest.json`.
    static let androidManifestSuffix = "." + BatchNormalizer.defaultManifestName

    /// The manifest's path when `--manifest` is not given: `OUT/manifest.json`; with `--layout
    /// android`, `OUT.manifest.json` beside OUT, since an Android `res/` may hold only resource
    /// folders (its stat cache and journal, named after it, go beside it too). An OUT with no
    /// name of its own to put beside it (`.`, `..`, `/`) is a usage error naming `--manifest`.
    static func defaultManifest(out: String, layout: OutputLayout) throws(ParsedArguments.UsageError) -> String {
        guard layout == .android else { return (out as NSString).appendingPathComponent(BatchNormalizer.defaultManifestName) }
        var trimmed = Substring(out)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let name = (String(trimmed) as NSString).lastPathComponent
        guard !["", ".", "..", "/"].contains(name) else {
            throw .init(
                "--layout android writes only resource folders into -o \(TerminalText.quoted(out)), so its manifest goes "
                    + "beside it, and \(TerminalText.quoted(out)) has no name to give it: name it with --manifest FILE")
        }
        return String(trimmed) + androidManifestSuffix
    }

    /// `1 file`, `2 files`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// The most workers `--jobs` may ask for: past this, a number is a typo, not a machine.
    static let maxJobs = 1024

    /// What one icon became: `96×96 → 25, 50, 75 px  lints: padding`; a vector: `16×16 → 25×25 pt vector`
    /// (or `symbol`).
    static func describe(_ icon: Manifest.Icon) -> String {
        var sides = (icon.renditions ?? []).map { "\($0.pixelWidth)×\($0.pixelHeight)" }
        if icon.vectorFile != nil || icon.symbolFile != nil {
            let kind = icon.symbolFile != nil ? "symbol" : "vector"
            sides.append("\(NumberText.decimal(icon.pointWidth))×\(NumberText.decimal(icon.pointHeight)) pt \(kind)")
        }
        var text = "\(icon.pixelWidth)×\(icon.pixelHeight) → " + (sides.isEmpty ? "nothing" : sides.joined(separator: ", "))
        if !icon.lints.isEmpty { text += "  lints: " + icon.lints.map(\.code.rawValue).joined(separator: ", ") }
        return text
    }

    /// A word option's value (given, or its declared default) as `T`.
    private static func choice<T: RawRepresentable>(_ words: OptionWords, _ option: CommandOption)
        throws(ParsedArguments.UsageError) -> T where T.RawValue == String
    {
        let text = words.value(option) ?? ""
        guard let value = T(rawValue: text) else { throw .init("\(words.name(option)): unknown value '\(text)'") }
        return value
    }

    static func scales(_ text: String, name: String) throws(ParsedArguments.UsageError) -> [Double] {
        let values = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { NumberText.parseDecimal($0.trimmingCharacters(in: .whitespaces)) }
        guard values.allSatisfy({ $0.map { $0 > 0 } ?? false }) else {
            throw .init("\(name) must be positive decimal numbers separated by commas (1,2,3 or 1,1.5,2), not '\(text)'")
        }
        var unique: [Double] = []
        for value in values.compactMap({ $0 }) where !unique.contains(value) { unique.append(value) }
        return unique
    }
}
