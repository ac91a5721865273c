import Foundation
import TabIcons

/// `tabicon preview`'s work: the same normalization and encoding as a batch, with nothing written.
///
/// The inputs are named by the batch's own naming step (`OutputPlan.naming`: colliding stems
/// renamed, or failed, as `normalize` would), each is normalized by the batch's `Normalizer`, and
/// `IconFiles` turns it into the very bytes and manifest row `normalize` would write. Parallel
/// over `jobs` workers; results are kept in input order, so the page is the same for any `jobs`.
/// A bad input becomes an error entry, never a stop.
///
/// Public: it is also the way for a library user to run inputs through the worker jail and keep
/// the results in memory (`jail`), as the fuzzers' jail mode does.
public struct PreviewRun: Sendable {
    public var normalizer: Normalizer
    public var layout: OutputLayout
    public var format: OutputFormat
    public var jobs: Int
    /// `--vector`: an SVG input kept as a vector, shown by its SVG (`PreviewDocument.Icon.svgRenditions`).
    public var vector = false
    /// Where each input is rendered, as for `BatchNormalizer.jail`: a jailed worker, or in process when nil.
    public var jail: WorkerJail?
    /// Answers a signal number once the run should stop (0 to go on): no new input is started,
    /// an input in a worker is abandoned, and the document leaves out what did not finish.
    public var shouldStop: @Sendable () -> Int32 = { 0 }

    public init(
        normalizer: Normalizer, layout: OutputLayout = .flat, format: OutputFormat = .png,
        jobs: Int = JobCount.allCores
    ) {
        self.normalizer = normalizer
        self.layout = layout
        self.format = format
        self.jobs = max(1, jobs)
    }

    public func run(_ inputs: [BatchInput], onEvent: @escaping @Sendable (BatchNormalizer.Event) -> Void = { _ in })
        -> PreviewDocument
    {
        let options = normalizer.options
        let plans = OutputPlan.naming(
            inputs, layout: layout, fileExtension: format.fileExtension, scales: options.scales, vector: vector)
        let results = LockedState<[Result<PreviewDocument.Icon, TabIconsError>?]>(Array(repeating: nil, count: inputs.count))
        let next = LockedState(0)
        let engine = IconEngine(jail: jail)
        defer { engine.finish() }
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, inputs.count))) { _ in
            while shouldStop() == 0 {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }; return value
                }
                guard index < inputs.count else { return }
                let input = inputs[index]
                let result = Result { () throws(TabIconsError) -> PreviewDocument.Icon in
                    try process(input, plan: plans[index].get(), engine: engine)
                }
                .mapError { $0.naming(input.name) }
                if shouldStop() != 0 { return }  // what did not finish is left out
                results.withLock { $0[index] = result }
                switch result {
                case .success(let icon): onEvent(.done(index: index, name: input.name, icon: icon.entry))
                case .failure(let error): onEvent(.failed(index: index, name: input.name, error: error))
                }
            }
        }
        var icons: [PreviewDocument.Icon] = []
        var errors: [Manifest.ErrorEntry] = []
        for (index, result) in results.withLock({ $0 }).enumerated() {
            switch result {
            case .success(let icon): icons.append(icon)
            case .failure(let error): errors.append(.init(input: inputs[index].name, error: error))
            case nil: break
            }
        }
        // Twins linked, and `twin-mismatch` raised, as `normalize` does over the run's rows.
        var rows = icons.map(\.entry)
        IconTwins.link(&rows)
        for index in icons.indices { icons[index].entry = rows[index] }
        return PreviewDocument(
            box: options.box.points, scales: options.scales, render: options.render,
            icons: icons, errors: errors)
    }

    /// An input abandoned because the run was asked to stop: left out, not an error entry.
    private static let stopped = TabIconsError(.io, "stopped by a signal")

    private func process(_ input: BatchInput, plan: OutputPlan.Icon, engine: IconEngine) throws(TabIconsError)
        -> PreviewDocument.Icon
    {
        let data = try input.load()
        // An input's own settings (`--config`), as `normalize` would make it.
        let settings = IconSettings.of(input, run: normalizer.options, format: format)
        guard
            let icon = try engine.render(
                IconEngine.RenderJob(
                    data: data, input: input.name, plan: plan, normalizer: Normalizer(options: settings.options),
                    format: settings.format, contentHash: ContentHash(of: data)),
                shouldStop: shouldStop)
        else {
            throw Self.stopped
        }
        // The first files are the renditions, in `renditions`' order (`RenderedIcon.files`).
        let renditions = zip(icon.row.renditions ?? [], icon.files).map { entry, file in
            PreviewDocument.Rendition(
                scale: entry.scale, pixelWidth: entry.pixelWidth, pixelHeight: entry.pixelHeight,
                bytes: file.bytes)
        }
        // A vector is the first file (`IconFiles`); an SVG is shown at each scale's size.
        if let vector = icon.row.vectorFile, vector.path.hasSuffix(".svg"), renditions.isEmpty, let file = icon.files.first {
            return PreviewDocument.Icon(
                entry: icon.row,
                renditions: PreviewDocument.Icon.svgRenditions(file.bytes, entry: icon.row, scales: settings.options.scales))
        }
        return PreviewDocument.Icon(entry: icon.row, renditions: renditions)
    }
}

extension BatchNormalizer {
    /// The preview's run for this batch's icons: the same normalizer, layout, format, `--vector`,
    /// jobs and jail, so what the page makes again in memory (`PreviewDocument.showingVectorDrawables`)
    /// is made exactly as the batch made its files.
    public var previewRun: PreviewRun {
        var run = PreviewRun(normalizer: normalizer, layout: layout, format: format, jobs: jobs)
        run.vector = vector
        run.jail = jail
        run.shouldStop = shouldStop
        return run
    }
}
