import Foundation
import TabIcons

/// `tabicon preview`'s work: the same normalization and encoding as a batch, with nothing written.
///
/// The inputs are named by the batch's own naming step (`OutputPlan.naming`: colliding stems
/// renamed, or failed, as `normalize` would), each is normalized by the batch's `Normalizer`, and
/// `IconFiles` turns it into the very bytes and manifest row `normalize` would write. Parallel
/// over `jobs` workers; results are kept in input order, so the page is the same for any `jobs`.
/// A bad input becomes an error entry, never a stop.
public struct PreviewRun: Sendable {
    public var normalizer: Normalizer
    public var layout: OutputLayout
    public var format: OutputFormat
    public var jobs: Int

    public init(normalizer: Normalizer, layout: OutputLayout = .flat, format: OutputFormat = .png,
                jobs: Int = JobCount.allCores) {
        self.normalizer = normalizer
        self.layout = layout
        self.format = format
        self.jobs = max(1, jobs)
    }

    public func run(_ inputs: [BatchInput], onEvent: @escaping @Sendable (BatchNormalizer.Event) -> Void = { _ in })
        -> PreviewDocument {
        let options = normalizer.options
        let plans = OutputPlan.naming(inputs, layout: layout, fileExtension: format.fileExtension, scales: options.scales)
        let results = LockedState<[Result<PreviewDocument.Icon, TabIconsError>?]>(Array(repeating: nil, count: inputs.count))
        let next = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, inputs.count))) { _ in
            while true {
                let index = next.withLock { value -> Int in defer { value += 1 }; return value }
                guard index < inputs.count else { return }
                let input = inputs[index]
                let result = Result { () throws(TabIconsError) -> PreviewDocument.Icon in try process(input, plan: plans[index].get()) }
                    .mapError { $0.naming(input.name) }
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
        return PreviewDocument(box: options.box.points, scales: options.scales, render: options.render,
                               icons: icons, errors: errors)
    }

    private func process(_ input: BatchInput, plan: OutputPlan.Icon) throws(TabIconsError) -> PreviewDocument.Icon {
        let data = try input.load()
        let icon = try normalizer.normalize(data)
        let files = try IconFiles(icon, plan: plan, format: format, render: normalizer.options.render)
        // The first files are the renditions, in `renditions`' order (`IconFiles.files`).
        let renditions = zip(files.renditions, files.files).map { entry, file in
            PreviewDocument.Rendition(scale: entry.scale, pixelWidth: entry.pixelWidth, pixelHeight: entry.pixelHeight,
                                      bytes: file.bytes)
        }
        let entry = files.manifestIcon(input: input, plan: plan, icon: icon, contentHash: ContentHash(of: data))
        return PreviewDocument.Icon(entry: entry, renditions: renditions)
    }
}
