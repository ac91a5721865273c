import Foundation
import TabIcons

/// `tabicon preview`'s work: the batch's engine (`UnitRunner`) with nothing written, the inputs
/// placed as `normalize` would, so the page holds the bytes and rows `normalize` would write.
/// Public: a library user's way to run inputs through the jail into memory (as the fuzzers do).
public struct PreviewRun: Sendable {
    public var normalizer: Normalizer
    public var layout: OutputLayout
    public var format: OutputFormat
    public var jobs: Int
    /// As `BatchNormalizer.memoryBudget`.
    public var memoryBudget = BatchNormalizer.defaultMemoryBudget
    /// `--vector`: an SVG input kept as a vector, shown by its SVG (`PreviewDocument.Icon.svgRenditions`).
    public var vector = false
    /// As `BatchNormalizer.setThresholds`.
    package var setThresholds = SetLints.Thresholds()
    /// As `BatchNormalizer.jail`.
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
        let plan = OutputPlan.unwritten(
            inputs, layout: layout, fileExtension: format.fileExtension, scales: options.scales, vector: vector)
        let settings = EngineSettings(
            normalizer: normalizer, layout: layout, format: format, vector: vector, shouldStop: shouldStop)
        let fitted = SetOpticalFit.resolved(
            inputs, twins: plan.twins, settings: settings, memoryBudget: memoryBudget, jail: jail, jobs: jobs)
        let outcomes = UnitRunner(settings: settings, previous: nil, memoryBudget: memoryBudget, jail: jail).run(
            fitted, plan: plan, directory: nil, jobs: jobs, onEvent: onEvent)
        var made: [(row: Manifest.Icon, files: [IconFile])] = []
        var errors: [Manifest.ErrorEntry] = []
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .made(let row, let files)?: made.append((row, files))
            case .failed(let error)?: errors.append(.init(input: inputs[index].name, error: error))
            default: break  // stopped: left out
            }
        }
        // The set's lints, as normalize's manifest has them.
        var rows = made.map(\.row)
        SetLints.apply(&rows, thresholds: setThresholds)
        let icons = zip(rows, made).map { row, made in Self.icon(row, files: made.files, scales: options.scales) }
        return PreviewDocument(
            box: options.box.points, scales: options.scales, render: options.render,
            icons: icons, errors: errors)
    }

    /// An icon's card from its row and files: its renditions, or its SVG at each scale's size.
    private static func icon(_ row: Manifest.Icon, files: [IconFile], scales: [Double]) -> PreviewDocument.Icon {
        let bytes = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        if let vector = row.vectorFile, vector.path.hasSuffix(".svg"), let svg = bytes[vector.path] {
            return PreviewDocument.Icon(
                entry: row, renditions: PreviewDocument.Icon.svgRenditions(svg, entry: row, scales: scales))
        }
        let renditions = (row.renditions ?? []).compactMap { entry in
            bytes[entry.path].map {
                PreviewDocument.Rendition(
                    scale: entry.scale, pixelWidth: entry.pixelWidth, pixelHeight: entry.pixelHeight, bytes: $0)
            }
        }
        return PreviewDocument.Icon(entry: row, renditions: renditions)
    }
}

extension BatchNormalizer {
    /// The preview's run for this batch's icons, so what the page makes again in memory
    /// (`PreviewDocument.showingVectorDrawables`) is made exactly as the batch made its files.
    public var previewRun: PreviewRun {
        var run = PreviewRun(normalizer: normalizer, layout: layout, format: format, jobs: jobs)
        run.memoryBudget = memoryBudget
        run.vector = vector
        run.setThresholds = setThresholds
        run.jail = jail
        run.shouldStop = shouldStop
        return run
    }
}
