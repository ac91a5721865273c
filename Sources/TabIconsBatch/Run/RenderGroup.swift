import TabIcons
import Foundation

/// The inputs one batch thread has loaded and not yet rendered, handed to the `IconEngine`
/// together: up to its `groupSize` inputs and `maximumBytes` of their bytes (a photo goes alone),
/// so small icons share one round trip to a jailed worker. Each input is loaded within the memory
/// budget, which the group holds for all of its inputs until they are rendered.
///
/// The order keeps the budget honest: the thread takes an input's file size from the budget
/// before reading it (so it never holds a large input while another decodes), then its estimated
/// decode memory (`Normalizer.normalizeMemoryEstimate`: what the path it takes holds). A thread
/// waits for the budget only while it holds nothing: what does not fit beside the others is
/// first sent with the group it would join (releasing the group's share), and when it still does
/// not fit, its bytes are let go, the thread waits holding nothing and reads them again. Waiting
/// while holding would deadlock two threads, or raise the peak by one input.
struct RenderGroup {
    static let maximumBytes = 256 << 10

    /// A sent input's result (nil: the batch was asked to stop while it was made) and its bytes' hash.
    typealias Outcome = (result: Result<RenderedIcon, TabIconsError>?, hash: ContentHash)

    private let engine: IconEngine
    private let budget: MemoryBudget
    private let shouldStop: () -> Int32
    private var jobs: [(index: Int, job: IconEngine.Job, hash: ContentHash)] = []
    private var bytes = 0
    /// What this thread holds of the budget: its jobs' share and the input being loaded.
    private var held = 0
    private var jobsHeld = 0
    /// Each sent input's outcome, by its position in the batch, until taken.
    private var outcomes: [Int: Outcome] = [:]

    init(engine: IconEngine, budget: MemoryBudget, shouldStop: @escaping () -> Int32) {
        self.engine = engine
        self.budget = budget
        self.shouldStop = shouldStop
    }

    /// Whether every input added has been sent (and has its outcome).
    var isEmpty: Bool { jobs.isEmpty }

    /// Loads input `index` (of `size` bytes when the plan's stat says so), asks `reuse` whether its
    /// previous entry stands (before any decoding) and returns it if so; otherwise adds the input
    /// to the group (nil), sending the group when it is full. Its bytes are released once sent.
    mutating func add(
        _ index: Int, _ input: BatchInput, size: Int? = nil, normalizer: Normalizer, work: RenderedIcon.Work,
        reuse: (ContentHash) -> Manifest.Icon?
    ) throws(TabIconsError) -> Manifest.Icon? {
        let expected = max(size ?? input.expectedByteCount() ?? 0, 0)
        if !jobs.isEmpty, bytes + expected > Self.maximumBytes { send() }
        if !jobs.isEmpty, !grow(by: expected) { send() }
        if jobs.isEmpty { acquire(expected) }
        var mine = expected
        var data = try load(input, holding: mine)
        var hash = ContentHash(of: data)
        if let entry = reuse(hash) {
            give(mine)
            return entry
        }
        let needed = max(normalizer.normalizeMemoryEstimate(data), mine)
        var fits = grow(by: needed - mine)
        if !fits, !jobs.isEmpty {
            send()
            fits = grow(by: needed - mine)
        }
        if fits {
            mine = needed
        } else {
            data = Data()
            give(mine)
            mine = 0
            acquire(needed)
            mine = needed
            data = try load(input, holding: mine)
            hash = ContentHash(of: data)
        }
        jobs.append((index, IconEngine.Job(data: data, normalizer: normalizer, work: work), hash))
        jobsHeld += mine
        bytes += data.count
        if jobs.count >= engine.groupSize || bytes >= Self.maximumBytes { send() }
        return nil
    }

    /// The input's bytes; when they cannot be read, the share taken for them (`holding`) is given back.
    private mutating func load(_ input: BatchInput, holding share: Int) throws(TabIconsError) -> Data {
        do throws(TabIconsError) {
            return try input.load()
        } catch {
            give(share)
            throw error
        }
    }

    /// Renders what waits, records each outcome and releases the group's share of the budget.
    mutating func send() {
        guard !jobs.isEmpty else { return }
        let results = engine.make(jobs.map(\.job), shouldStop: shouldStop)
        for (position, (index, _, hash)) in jobs.enumerated() { outcomes[index] = (results?[position], hash) }
        give(jobsHeld)
        jobsHeld = 0
        jobs = []
        bytes = 0
    }

    /// Takes the outcome of input `index` (sent).
    mutating func takeOutcome(_ index: Int) -> Outcome? {
        outcomes.removeValue(forKey: index)
    }

    // The budget, as this thread holds it (`held`): waited for only when holding nothing.

    private mutating func acquire(_ bytes: Int) {
        assert(held == 0, "a thread waits for the budget only while it holds none of it")
        budget.acquire(bytes)
        held = bytes
    }

    private mutating func grow(by bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        guard budget.tryGrow(from: held, to: held + bytes) else { return false }
        held += bytes
        return true
    }

    private mutating func give(_ bytes: Int) {
        guard bytes > 0 else { return }
        budget.release(bytes)
        held -= bytes
    }
}
