import TabIcons
import Foundation
import Synchronization

/// One input of a batch: its name, the stem its outputs mirror, and how to get its bytes.
/// Bytes are loaded by the worker that processes the input, so a batch holds at most `jobs`
/// inputs in memory at once, however many it has.
public struct BatchInput: Sendable {
    public let name: String
    public let outputStem: String
    public let load: @Sendable () throws(TabIconsError) -> Data
    /// The input's size in bytes before it is loaded (a file's `stat`), when it can be known:
    /// a worker then waits for the memory budget before reading a large input, not after.
    public let expectedByteCount: @Sendable () -> Int?

    public init(name: String, outputStem: String, load: @escaping @Sendable () throws(TabIconsError) -> Data,
                expectedByteCount: @escaping @Sendable () -> Int? = { nil }) {
        self.name = name
        self.outputStem = outputStem
        self.load = load
        self.expectedByteCount = expectedByteCount
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
        let results = LockedState<[Result<Manifest.Icon, TabIconsError>?]>(Array(repeating: nil, count: inputs.count))
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
        let (icon, inputHash) = try normalize(input, budget: budget)
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
                             info: icon.source, contentHash: inputHash, box: normalizer.options.box,
                             renditions: entries, lints: icon.lints)
    }

    /// Loads and normalizes one input within the memory budget, and answers the icon with the
    /// input's hash; the input's bytes are released before this returns.
    ///
    /// The order keeps the budget honest: the worker takes the input's file size from the budget
    /// before reading it (so it never holds a large input while another decodes), then its
    /// estimated decode memory (`DecodeMemoryEstimate`). When that does not fit beside what
    /// others hold, it lets the bytes go, waits holding nothing, and reads them again: waiting
    /// while holding would deadlock two workers, or raise the peak by one input.
    private func normalize(_ input: BatchInput, budget: MemoryBudget?) throws(TabIconsError)
        -> (NormalizedIcon, ContentHash) {
        guard let budget else {
            let data = try input.load()
            return (try normalizer.normalize(data), ContentHash(of: data))
        }
        var held = max(input.expectedByteCount() ?? 0, 0)
        budget.acquire(held)
        defer { budget.release(held) }
        var data = try input.load()
        let needed = max(normalizer.decodeMemoryEstimate(data), held)
        if !budget.tryGrow(from: held, to: needed) {
            data = Data()
            budget.release(held)
            held = 0
            budget.acquire(needed)
            held = needed
            data = try input.load()
        } else {
            held = needed
        }
        return (try normalizer.normalize(data), ContentHash(of: data))
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
