import Foundation
import Synchronization

/// One input of a batch: its name, the stem its outputs mirror, and how to get its bytes.
/// Bytes are loaded by the worker that processes the input, so a batch holds at most `jobs`
/// inputs in memory at once, however many it has.
public struct BatchInput: Sendable {
    public let name: String
    public let outputStem: String
    public let load: @Sendable () throws(TabIconsError) -> Data

    public init(name: String, outputStem: String, load: @escaping @Sendable () throws(TabIconsError) -> Data) {
        self.name = name
        self.outputStem = outputStem
        self.load = load
    }
}

/// Normalizes many inputs into an output tree and answers the manifest (SPEC §6 batch rules).
///
/// - Parallel over `jobs` workers that each take the next input, so memory is bounded by
///   `jobs` icons in flight; results are reported in input order whatever finishes first, so
///   the manifest and every output byte are the same for any `jobs`.
/// - A bad input becomes one entry in `errors` and never stops the batch.
/// - An icon's renditions are all encoded before any is written; each file is written atomically
///   (`AtomicFileWriter`), and if one write fails the files already written for that icon in this
///   run are removed, so an icon is either complete or absent, never partial.
/// - Nothing is written outside `outputRoot` (paths come from `OutputLayout` over mirrored stems).
public struct BatchNormalizer: Sendable {
    public var normalizer: Normalizer
    public var layout: OutputLayout
    public var format: OutputFormat
    public var outputRoot: URL
    public var jobs: Int
    /// Bytes of estimated decode memory the workers may hold at once (`DecodeMemoryEstimate`);
    /// an input larger than this runs alone. 48 MiB lets icons use every core while two large
    /// progressive photos are never decoded side by side.
    public var memoryBudget: Int

    public init(normalizer: Normalizer, layout: OutputLayout = .flat, format: OutputFormat = .png,
                outputRoot: URL, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                memoryBudget: Int = 48 << 20) {
        self.normalizer = normalizer
        self.layout = layout
        self.format = format
        self.outputRoot = outputRoot
        self.jobs = max(1, jobs)
        self.memoryBudget = memoryBudget
    }

    /// What happened to one input, delivered as each finishes (from any worker thread).
    public enum Event: Sendable {
        case done(index: Int, name: String, icon: Manifest.Icon)
        case failed(index: Int, name: String, error: TabIconsError)
    }

    public func run(_ inputs: [BatchInput], onEvent: @escaping @Sendable (Event) -> Void = { _ in }) -> Manifest {
        let results = Mutex<[Result<Manifest.Icon, TabIconsError>?]>(Array(repeating: nil, count: inputs.count))
        let next = Atomic<Int>(0)
        let budget = MemoryBudget(capacity: memoryBudget)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, inputs.count))) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < inputs.count else { return }
                let input = inputs[index]
                let result = Result { () throws(TabIconsError) -> Manifest.Icon in try process(input, budget: budget) }
                    .mapError { $0.naming(input.name) }
                results.withLock { $0[index] = result }
                switch result {
                case .success(let icon): onEvent(.done(index: index, name: input.name, icon: icon))
                case .failure(let error): onEvent(.failed(index: index, name: input.name, error: error))
                }
            }
        }
        var manifest = Manifest(box: normalizer.options.box, scales: normalizer.options.scales)
        for (index, result) in results.withLock({ $0 }).enumerated() {
            switch result {
            case .success(let icon): manifest.icons.append(icon)
            case .failure(let error): manifest.errors.append(.init(input: inputs[index].name, error: error))
            case nil: break
            }
        }
        return manifest
    }

    /// One input, start to finish: load, normalize, encode every rendition, then write them.
    func process(_ input: BatchInput, budget: MemoryBudget? = nil) throws(TabIconsError) -> Manifest.Icon {
        let data = try input.load()
        let cost = budget == nil ? 0 : DecodeMemoryEstimate.bytes(data, longestSideNeeded: normalizer.longestSideNeeded)
        budget?.acquire(cost)
        let normalized = Result { () throws(TabIconsError) -> NormalizedIcon in try normalizer.normalize(data) }
        budget?.release(cost)
        let icon = try normalized.get()
        var files: [(path: String, bytes: [UInt8], rendition: Rendition)] = []
        for rendition in icon.renditions {
            guard let path = layout.path(stem: input.outputStem, scale: rendition.scale,
                                         fileExtension: format.fileExtension) else { continue }
            files.append((path, try format.encode(rendition.bitmap), rendition))
        }
        var extra: [(path: String, bytes: [UInt8])] = []
        if let contentsPath = layout.contentsPath(stem: input.outputStem) {
            let names = files.map { (scale: $0.rendition.scale, filename: ($0.path as NSString).lastPathComponent) }
            extra.append((contentsPath, Array(AssetCatalogContents.json(files: names, render: normalizer.options.render).utf8)))
        }
        try writeAll(files.map { ($0.path, $0.bytes) } + extra)
        let entries = files.map { file in
            Manifest.RenditionEntry(scale: file.rendition.scale, path: file.path,
                                    pixelWidth: file.rendition.bitmap.width, pixelHeight: file.rendition.bitmap.height,
                                    bytes: file.bytes.count, hash: ContentHash(of: file.bytes))
        }
        return Manifest.Icon(input: input.name, name: (input.outputStem as NSString).lastPathComponent,
                             info: icon.source, contentHash: ContentHash(of: data), box: normalizer.options.box,
                             renditions: entries, lints: icon.lints)
    }

    /// Writes every file or, on the first failure, removes the ones this call already wrote.
    /// Paths are joined as strings: `URL.appendingPathComponent` cost more than a rendition's
    /// resampling on a batch of small icons.
    private func writeAll(_ files: [(path: String, bytes: [UInt8])]) throws(TabIconsError) {
        var root = outputRoot.path
        if !root.hasSuffix("/") { root += "/" }
        var written: [String] = []
        for file in files {
            let path = root + file.path
            do throws(TabIconsError) {
                try AtomicFileWriter.write(file.bytes, toPath: path)
                written.append(path)
            } catch {
                for path in written { unlink(path) }
                throw error
            }
        }
    }
}
