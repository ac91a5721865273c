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

    static let options: [ParsedArguments.Option] = [
        .value("--out", "-o"), .value("--box"), .value("--scales"), .value("--layout"), .value("--format"),
        .value("--quality"), .value("--shape"), .flag("--trim"), .value("--render"), .value("--filter"),
        .flag("--allow-upscale"), .value("--jobs"), .value("--max-pixels"), .value("--manifest"),
        .flag("--json"), .flag("--quiet", "-q"), .value("--preview"), .flag("--check"), .flag("--force"),
    ]

    init(arguments: [String]) throws(ParsedArguments.UsageError) {
        let parsed = try ParsedArguments(arguments, options: Self.options)
        guard !parsed.positionals.isEmpty else { throw .init("normalize needs at least one input") }
        inputs = parsed.positionals

        layout = try Self.choice(parsed.value("layout"), default: .flat, flag: "--layout")
        let box = parsed.value("box") == nil ? layout.defaultBox : try CommonOptions.box(parsed.value("box"))
        let scales = try parsed.value("scales").map(Self.scales) ?? layout.defaultScales
        if layout == .android, let odd = scales.first(where: { s in !OutputLayout.androidDensities.contains { $0.scale == s } }) {
            throw .init("--layout android has no density folder for scale \(NumberText.decimal(odd)) (use 0.75, 1, 1.5, 2, 3, 4)")
        }
        options = try CommonOptions.validated(NormalizeOptions(
            box: box, scales: scales,
            shape: try Self.choice(parsed.value("shape"), default: .fit, flag: "--shape"),
            trim: parsed.has("trim"),
            render: try Self.choice(parsed.value("render"), default: .original, flag: "--render"),
            filter: try Self.choice(parsed.value("filter"), default: .lanczos3, flag: "--filter"),
            allowUpscale: parsed.has("allow-upscale"),
            limits: try CommonOptions.limits(maxPixels: parsed.value("max-pixels"))))

        let quality = try parsed.value("quality").map { (text: String) throws(ParsedArguments.UsageError) -> Float in
            guard let q = Float(text), (0...100).contains(q) else { throw .init("--quality must be a number from 0 to 100, not '\(text)'") }
            return q
        }
        switch parsed.value("format") ?? "png" {
        case "png":
            if quality != nil { throw .init("--quality applies to --format webp only (PNG is always lossless)") }
            format = .png
        case "webp": format = .webp(quality: quality)
        case let other: throw .init("--format must be png or webp, not '\(other)'")
        }

        if let text = parsed.value("jobs") {
            guard let n = Int(text), n > 0 else { throw .init("--jobs must be a positive integer, not '\(text)'") }
            jobs = n
        } else {
            jobs = ProcessInfo.processInfo.activeProcessorCount
        }
        outputName = parsed.value("out") ?? "out"
        outputRoot = URL(fileURLWithPath: outputName)
        manifestName = parsed.value("manifest") ?? (outputName as NSString).appendingPathComponent("manifest.json")
        manifestURL = URL(fileURLWithPath: manifestName)
        json = parsed.has("json")
        quiet = parsed.has("quiet")
        preview = parsed.value("preview").map { URL(fileURLWithPath: $0) }
        check = parsed.has("check")
        force = parsed.has("force")
    }

    func run(console: Console, jail: WorkerJail?) -> TabIconCommand.ExitStatus {
        let collected = InputCollector.collect(inputs, excluding: outputRoot)
        let limit = options.limits.maxInputBytes
        let batchInputs = collected.inputs.map { item in
            BatchInput(name: item.displayName, outputStem: item.outputStem, load: { () throws(TabIconsError) -> Data in
                try item.read(limit: limit)
            }, expectedByteCount: { item.byteCount }, sourcePath: item.path)
        }
        var batch = BatchNormalizer(normalizer: Normalizer(options: options), layout: layout, format: format,
                                    outputRoot: outputRoot, manifestURL: manifestURL, jobs: jobs)
        batch.force = force
        batch.checkOnly = check
        batch.inputFolders = collected.folders
        batch.shouldStop = { StopSignals.received }
        batch.jail = jail

        let progress = Progress(total: batchInputs.count, console: console, enabled: !quiet)
        let result: BatchResult
        do throws(BatchUsageError) {
            result = try batch.run(batchInputs, priorErrors: collected.failures.map { .init(input: $0.0, error: $0.1) }) { event in
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
        for (input, error) in collected.failures { console.reportFailure(input: input, error) }
        if let signal = result.stoppedBy {
            console.err("tabicon: stopped by signal \(signal); finished icons are in place, the manifest is the previous one")
            return signal == SIGTERM ? .terminated : .interrupted
        }
        if check {
            for change in result.changes { console.out("\(change.kind.rawValue) \(shown(change.path))") }
            if !quiet { console.err(result.isUpToDate ? "\(outputName)/ is up to date" : checkSummary(result)) }
            return result.isUpToDate ? .success : .someInputsFailed
        }
        var status: TabIconCommand.ExitStatus = result.manifest.errors.isEmpty ? .success : .someInputsFailed
        if let error = result.manifestError {
            console.err("tabicon: cannot write the manifest: \(error.message)")
            status = .someInputsFailed
        }
        if let preview, !PreviewCommand.writePage(for: result.manifest, render: options.render, outputRoot: outputRoot,
                                                  to: preview, console: console) { status = .someInputsFailed }
        if json { console.out(String(decoding: result.manifest.jsonData(), as: UTF8.self)) }
        if !quiet { console.err(summary(result)) }
        return status
    }

    /// A change's path as the user finds it: below `--out`, or the manifest's path as given.
    private func shown(_ path: String) -> String {
        path == manifestURL.relativePath ? manifestName : (outputName as NSString).appendingPathComponent(path)
    }

    private func checkSummary(_ result: BatchResult) -> String {
        var text = "\(outputName)/ is not up to date: \(result.changes.count) file\(result.changes.count == 1 ? "" : "s") would change"
        if !result.manifest.errors.isEmpty { text += "; \(result.manifest.errors.count) input\(result.manifest.errors.count == 1 ? "" : "s") failed" }
        return text
    }

    /// `normalized 5 icons (2 reused) into out/: 9 files written, 6 unchanged, 2 removed; ...`
    private func summary(_ result: BatchResult) -> String {
        let manifest = result.manifest
        let counts = result.counts
        let skipped = manifest.icons.filter { $0.lints.contains { $0.code == .undersized } }.count
        var text = "normalized \(manifest.icons.count) icon\(manifest.icons.count == 1 ? "" : "s")"
            + " (\(counts.reused) reused) into \(outputName)/: \(counts.written) files written,"
            + " \(counts.unchanged) unchanged, \(counts.removed) removed"
        if skipped > 0 { text += "; \(skipped) too small for some scales (undersized)" }
        if !manifest.errors.isEmpty { text += "; \(manifest.errors.count) failed" }
        return text + "; manifest: \(manifestName)"
    }

    /// What one icon became: `96×96 → 25, 50, 75 px  lints: padding`.
    static func describe(_ icon: Manifest.Icon) -> String {
        let sides = (icon.renditions ?? []).map { "\($0.pixelWidth)×\($0.pixelHeight)" }
        var text = "\(icon.pixelWidth)×\(icon.pixelHeight) → " + (sides.isEmpty ? "nothing" : sides.joined(separator: ", "))
        if !icon.lints.isEmpty { text += "  lints: " + icon.lints.map(\.code.rawValue).joined(separator: ", ") }
        return text
    }

    private static func choice<T: RawRepresentable>(_ text: String?, default value: T, flag: String)
        throws(ParsedArguments.UsageError) -> T where T.RawValue == String
    {
        guard let text else { return value }
        guard let parsed = T(rawValue: text) else { throw .init("\(flag): unknown value '\(text)'") }
        return parsed
    }

    private static func scales(_ text: String) throws(ParsedArguments.UsageError) -> [Double] {
        let values = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0.map { $0.isFinite && $0 > 0 } ?? false }) else {
            throw .init("--scales must be positive numbers separated by commas, not '\(text)'")
        }
        var unique: [Double] = []
        for value in values.compactMap({ $0 }) where !unique.contains(value) { unique.append(value) }
        return unique
    }
}
