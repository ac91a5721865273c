import TabIcons
import Foundation

/// `tabicon render` (SPEC §9): the batch's engine with no previous state, for one action of a
/// build graph. It reads only its inputs, writes every output of each into an empty folder as
/// that input alone would have them (no twin pairing: twins are paired by `FragmentAssembly`,
/// so an icon and its twin may be rendered by separate actions), and a `ManifestFragment` per
/// input. No manifest, stat cache, journal or lock: nothing that records a time, a path outside
/// the folder or a file's identity. An input that fails writes nothing.
public struct HermeticRender: Sendable {
    public var normalizer: Normalizer
    public var layout: OutputLayout
    public var format: OutputFormat
    public var outputRoot: URL
    public var jobs: Int
    public var memoryBudget = BatchNormalizer.defaultMemoryBudget
    /// As `BatchNormalizer.vector`.
    public var vector = false
    /// As `BatchNormalizer.symbols`.
    package var symbols: SymbolWeights?
    /// As `BatchNormalizer.setThresholds`: not applied here (an icon alone is no set), recorded
    /// in each fragment for `FragmentAssembly`.
    package var setThresholds = SetLints.Thresholds()
    /// As `BatchNormalizer.jail`.
    public var jail: WorkerJail?
    /// As `BatchNormalizer.shouldStop`.
    public var shouldStop: @Sendable () -> Int32 = { 0 }

    public init(
        normalizer: Normalizer, layout: OutputLayout = .flat, format: OutputFormat = .png, outputRoot: URL,
        jobs: Int = JobCount.allCores
    ) {
        self.normalizer = normalizer
        self.layout = layout
        self.format = format
        self.outputRoot = outputRoot
        self.jobs = max(1, jobs)
    }

    /// What was rendered, in input order, and what failed.
    public struct Result: Sendable {
        public var icons: [Manifest.Icon] = []
        public var errors: [Manifest.ErrorEntry] = []
        /// The signal that stopped the render (its finished inputs are whole), else nil.
        public var stoppedBy: Int32?
    }

    public func run(_ inputs: [BatchInput], onEvent: @escaping @Sendable (BatchNormalizer.Event) -> Void = { _ in })
        throws(BatchUsageError) -> Result
    {
        let root = outputRoot.relativePath
        try EmptyFolder.check(root, flag: "--out")
        let options = normalizer.options
        // Each input named by its own stem: two that meet (`home.png` and `home.webp`) would be
        // named by each other, which a render of one of them alone cannot know.
        let named = OutputPlan.naming(
            inputs, layout: layout, fileExtension: format.fileExtension, scales: options.scales, vector: vector,
            symbols: symbols != nil)
        for (input, icon) in zip(inputs, named) {
            switch icon {
            case .success(let icon) where icon.stem == input.outputStem: continue
            case .success: throw BatchUsageError(Self.meeting(input))
            case .failure(let error): throw BatchUsageError("\(error.message); \(Self.apart)")
            }
        }
        let plan = OutputPlan(icons: named, folders: [], spared: [], twins: Array(repeating: (nil, nil), count: inputs.count))
        let directory: OutputDirectory
        do throws(TabIconsError) {
            directory = try OutputDirectory(root: root, create: true)
        } catch {
            throw BatchUsageError("--out \(root): \(error.message)")
        }
        let settings = EngineSettings(
            normalizer: normalizer, layout: layout, format: format, vector: vector, symbols: symbols, force: true,
            shouldStop: shouldStop)
        let outcomes = UnitRunner(settings: settings, previous: nil, memoryBudget: memoryBudget, jail: jail)
            .run(inputs, plan: plan, directory: .success(directory), jobs: jobs, onEvent: onEvent)
        var result = Result()
        let signal = shouldStop()
        if signal != 0 { result.stoppedBy = signal }
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .normalized(let icon, _, _) where icon.lints.contains { $0.code == .svgText }:
                // Drawn with this machine's fonts: no action's output may depend on the machine.
                for file in icon.ownedFiles { _ = directory.remove(.file(file)) }
                let error = TabIconsError(
                    .unsupported,
                    "an SVG with text is drawn with each machine's fonts, so a render could not give the same "
                        + "pixels everywhere; convert the text to outlines (normalize draws it, with the svg-text lint)",
                    input: inputs[index].name)
                onEvent(.failed(index: index, name: inputs[index].name, error: error))
                result.errors.append(.init(input: inputs[index].name, error: error))
            case .normalized(let icon, _, _):
                let fragment = ManifestFragment.path(stem: inputs[index].outputStem)
                let bytes = ManifestFragment.document(
                    icon, box: options.box, scales: options.scales, options: settings.fingerprint, thresholds: setThresholds)
                do throws(TabIconsError) {
                    let staged = try directory.stage([(fragment, bytes)])
                    try directory.commit(staged.staged)
                    result.icons.append(icon)
                } catch {
                    // No fragment, no files: an input is whole or absent.
                    for file in icon.ownedFiles { _ = directory.remove(.file(file)) }
                    result.errors.append(.init(input: inputs[index].name, error: error))
                }
            case .failed(let error):
                result.errors.append(.init(input: inputs[index].name, error: error))
            case .reused, .made, .stopped, nil:  // nothing is carried over; a stop leaves it out
                break
            }
        }
        return result
    }

    static let apart = "render such inputs in separate actions, into folders of their own"

    static func meeting(_ input: BatchInput) -> String {
        "\(input.name)'s outputs meet another input's at \(input.outputStem): \(apart)"
    }
}
