import Foundation
import TabIcons

/// `tabicon preview`'s work: the same normalization and encoding as a batch, with nothing written.
///
/// Each input is loaded, normalized by the batch's `Normalizer` and every rendition encoded with
/// the run's `OutputFormat` (so the page shows the very bytes `normalize` would write), then the
/// manifest entry is made by `Manifest.Icon`'s own initializer, exactly as the batch makes it.
/// Parallel over `jobs` workers; results are kept in input order, so the page is the same for any
/// `jobs`. A bad input becomes an error entry, never a stop.
public struct PreviewRun: Sendable {
    public var normalizer: Normalizer
    public var layout: OutputLayout
    public var format: OutputFormat
    public var jobs: Int

    public init(normalizer: Normalizer, layout: OutputLayout = .flat, format: OutputFormat = .png,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.normalizer = normalizer
        self.layout = layout
        self.format = format
        self.jobs = max(1, jobs)
    }

    public func run(_ inputs: [BatchInput], onEvent: @escaping @Sendable (BatchNormalizer.Event) -> Void = { _ in })
        -> PreviewDocument {
        let results = LockedState<[Result<PreviewDocument.Icon, TabIconsError>?]>(Array(repeating: nil, count: inputs.count))
        let next = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, inputs.count))) { _ in
            while true {
                let index = next.withLock { value -> Int in defer { value += 1 }; return value }
                guard index < inputs.count else { return }
                let input = inputs[index]
                let result = Result { () throws(TabIconsError) -> PreviewDocument.Icon in try process(input) }
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
        let options = normalizer.options
        return PreviewDocument(box: options.box.points, scales: options.scales, render: options.render,
                               icons: icons, errors: errors)
    }

    private func process(_ input: BatchInput) throws(TabIconsError) -> PreviewDocument.Icon {
        let data = try input.load()
        let icon = try normalizer.normalize(data)
        var renditions: [PreviewDocument.Rendition] = []
        var entries: [Manifest.RenditionEntry] = []
        for rendition in icon.renditions {
            // The path `normalize` would write it at, so the page can say where each file goes.
            guard let path = layout.path(stem: input.outputStem, scale: rendition.scale,
                                         fileExtension: format.fileExtension) else { continue }
            let bytes = try format.encode(rendition.bitmap)
            renditions.append(.init(scale: rendition.scale, pixelWidth: rendition.bitmap.width,
                                    pixelHeight: rendition.bitmap.height, bytes: bytes))
            entries.append(.init(scale: rendition.scale, path: path, pixelWidth: rendition.bitmap.width,
                                 pixelHeight: rendition.bitmap.height, bytes: bytes.count, hash: ContentHash(of: bytes)))
        }
        let entry = Manifest.Icon(input: input.name, name: OutputLayout.iconName(stem: input.outputStem), icon: icon,
                                  contentHash: ContentHash(of: data), renditions: entries)
        return PreviewDocument.Icon(entry: entry, renditions: renditions)
    }
}
