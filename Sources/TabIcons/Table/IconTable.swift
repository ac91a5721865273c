import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import Foundation
import Synchronization

/// The side table a UI runtime keeps tab-bar icon bytes in (SPEC §5): per UI slot, the items' icon
/// bytes and a revision that changes exactly when their content does.
///
/// A bar republishes its items every time the app rebuilds them, which can be every frame, so a
/// republish of unchanged content is the hot path: one short lock to read the slot's entry, then
/// a comparison outside the lock — no hashing, no allocation, no decode. The very same buffers
/// pass without reading a byte; fresh copies of the same bytes cost one `memcmp` per icon
/// (`ContentEquality` says why the shortcut is sound). Different bytes always get a new revision.
///
/// ## How a runtime uses it
///
/// ```swift
/// // Every rebuild: publish, and carry the revision in the bar's props so the differ sees a
/// // change only when the icons changed.
/// let revision = try table.publish(slot: slot, items: items)     // 0: no byte icons at all
///
/// // When the platform bar (re)builds its items — the revision changed, or a replayed create —
/// // ask for each item's normalized icon and pick the rendition for the screen's scale:
/// do {
///     if let icon = try table.icon(slot: slot, item: index, selected: false) {
///         // decoded once per content, shared by all slots
///         let rendition = icon.renditions.first { $0.scale == screenScale } ?? icon.renditions.last
///     } else {
///         // no byte icon here (a system symbol, or none)
///     }
/// } catch {
///     // the bytes do not decode: show the title alone
/// }
///
/// // On teardown, exactly once: this is what bounds the table.
/// table.retire(slot: slot)
/// ```
///
/// ## The shared cache
///
/// Each distinct content (by XXH3-128, confirmed byte for byte) is held once, by every slot and
/// item that shows it, and decoded at most once while it is live — lazily, on the first
/// `icon(slot:item:selected:)`, outside the table's lock (see `IconContent`). Publishing never
/// decodes: a revision is about bytes, so bytes that do not decode publish like any others and
/// their lookups answer the decode error. A content is released when the last slot referencing it
/// retires or publishes other content, so after churn the live entries are the mounted bars and
/// the live bytes are the bytes those bars reference.
///
/// Memory: the cache holds one private copy of each distinct content (what `liveBytes` counts)
/// and its decoded renditions once asked for; each entry also keeps the `Data` values of the
/// publish that created it, which is what lets the very same buffers pass unread (for an app
/// that keeps its buffers these are its own; for one that makes fresh copies every frame, one set
/// per mounted bar).
///
/// ## Locking
///
/// One `Mutex` (from Synchronization, made visible to ThreadSanitizer by `LockedState`) guards the
/// entries and the cache's bookkeeping; under it the table only copies references, looks up
/// dictionaries and counts. Hashing, comparing, decoding, and freeing evicted contents all happen
/// outside it. A publish of changed content reads, works unlocked,
/// then commits only if the slot's revision and the cache are as it saw them (`PublishPlan`),
/// otherwise it redoes the unlocked part against the newer state. Concurrent publishes to one
/// slot are ordered by their commits: the last one to commit is the slot's content.
public final class IconTable: Sendable {
    /// The most items a slot holds — far above what a tab bar shows (the reference's limit).
    public static let maxItems = 16

    private let state = LockedState(TableState())
    private let processor: any IconProcessor
    private let revisions: RevisionCounter
    private let hasher: ContentHasher
    private let decodeCounters = DecodeCounters()
    /// For tests: runs on the slow path after the unlocked work and before the commit, where a
    /// racing operation would have to land to make the plan stale.
    private let beforeCommit: (@Sendable () -> Void)?

    /// A table whose contents are decoded and normalized by `processor` (by default a
    /// `Normalizer` with default options: the regular 25-point box at 1×, 2×, 3×).
    public convenience init(processor: any IconProcessor = Normalizer()) {
        self.init(processor: processor, revisions: .process, hasher: .xxh3)
    }

    /// For tests: a revision counter of their own (to see revisions start at 1), a hash of their
    /// own (to force collisions), a hook to stage races.
    init(
        processor: any IconProcessor, revisions: RevisionCounter, hasher: ContentHasher,
        beforeCommit: (@Sendable () -> Void)? = nil
    ) {
        self.processor = processor
        self.revisions = revisions
        self.hasher = hasher
        self.beforeCommit = beforeCommit
    }

    /// Publishes `items` for `slot` and answers the slot's revision: the current one when the
    /// content equals the slot's entry (whatever buffers carry it), a fresh one otherwise. Items
    /// with no icons at all remove the slot's entry and answer 0.
    ///
    /// - Throws: `invalidArgument` for more than `maxItems` items; the entry is then unchanged.
    public func publish(slot: Int, items: [ItemIcons]) throws(TabIconsError) -> UInt64 {
        guard items.count <= Self.maxItems else {
            throw TabIconsError(
                .invalidArgument,
                "a tab bar slot holds at most \(Self.maxItems) items, but \(items.count) were "
                    + "published to slot \(slot); its entry is unchanged")
        }
        let current = state.withLock { $0.entries[slot] }
        // The hot path: the content the slot already shows (entries never hold all-empty items,
        // so a match also settles that these have icons).
        var difference = 0
        if let current {
            guard let first = current.icons.firstDifference(from: items) else { return current.revision }
            difference = first
        }
        guard items.contains(where: { !$0.isEmpty }) else {
            retire(slot: slot)
            return 0
        }
        return publishChanged(slot: slot, items: items, over: current, unchangedPrefix: difference)
    }

    /// The slow path: the content differs from the slot's entry (or there is none).
    private func publishChanged(
        slot: Int, items: [ItemIcons], over observed: SlotEntry?,
        unchangedPrefix difference: Int
    ) -> UInt64 {
        var plan = PublishPlan(items: items)
        var current = observed
        var unchangedPrefix = difference
        while true {
            plan.match(current: current?.icons, unchangedPrefix: unchangedPrefix, hasher: hasher)
            if !plan.lookups.isEmpty {
                let hashes = plan.lookupHashes
                let candidates = state.withLock { state in hashes.map { state.cache.candidates(for: $0) } }
                plan.resolve(candidates: candidates, decodeCounters: decodeCounters)
            }
            let icons = plan.entryIcons()
            beforeCommit?()
            let outcome = state.withLock { state in
                state.commit(plan, icons: icons, slot: slot, over: current, revisions: revisions)
            }
            switch outcome {
            case .committed(let revision, let evicted):
                for content in evicted { content.evict() }
                return revision
            case .stale(let latest):
                current = latest
                if let latest {
                    guard let difference = latest.icons.firstDifference(from: items) else { return latest.revision }
                    unchangedPrefix = difference
                } else {
                    unchangedPrefix = 0
                }
            }
        }
    }

    /// The items of the slot's current entry, or nil when it has none. The table is the
    /// authority: a replayed create reads the current icons here. The buffers are those of the
    /// publish that created the entry — equal in content to the latest publish, not necessarily
    /// the same `Data`.
    public func icons(slot: Int) -> [ItemIcons]? {
        state.withLock { $0.entries[slot]?.icons.items }
    }

    /// The slot's current revision; 0 when it has no entry.
    public func revision(slot: Int) -> UInt64 {
        state.withLock { $0.entries[slot]?.revision ?? 0 }
    }

    /// The normalized icon of one item of the slot's current entry: decoded on the first request
    /// for its content (by any slot), answered from the cache after that. Nil when the slot has no
    /// entry, the item does not exist, or it has no icon for that state (the table never
    /// substitutes the unselected icon for a missing selected one: that is the runtime's call).
    ///
    /// - Throws: the decode error of bytes that do not decode, every time they are asked for
    ///   (the failure is cached like a success: the bytes are not decoded again).
    public func icon(slot: Int, item: Int, selected: Bool = false) throws(TabIconsError) -> NormalizedIcon? {
        let content = state.withLock { $0.entries[slot]?.icons.content(item: item, selected: selected) }
        return try content?.normalized(by: processor).get()
    }

    /// Removes the slot's entry, releasing the contents only it referenced. Idempotent. The owner
    /// calls it once on teardown.
    public func retire(slot: Int) {
        let (removed, evicted) = state.withLock { $0.remove(slot: slot) }
        for content in evicted { content.evict() }
        withExtendedLifetime(removed) {}
    }

    /// Live entries: the slots that hold byte icons.
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    /// Sizes and counters, for tests, the benchmark and a runtime's diagnostics.
    public var statistics: IconTableStatistics {
        let (entries, contents, bytes, hits, inserted, issued) = state.withLock { state in
            (
                state.entries.count, state.cache.liveContents, state.cache.liveBytes,
                state.cacheHits, state.contentsInserted, state.revisionsIssued
            )
        }
        return IconTableStatistics(
            entries: entries, liveContents: contents, liveBytes: bytes,
            decodedBytes: decodeCounters.decodedBytes.load(ordering: .relaxed),
            decodes: decodeCounters.decodes.load(ordering: .relaxed),
            decodeHits: decodeCounters.decodeHits.load(ordering: .relaxed),
            cacheHits: hits, contentsInserted: inserted, revisionsIssued: issued)
    }

    /// The shared content behind one item's icon; for tests (leak checks hold it weakly).
    func content(slot: Int, item: Int, selected: Bool) -> IconContent? {
        state.withLock { $0.entries[slot]?.icons.content(item: item, selected: selected) }
    }

    /// References the cache counts for `content`; for tests.
    func references(to content: IconContent) -> Int {
        state.withLock { $0.cache.references(to: content) }
    }
}

/// Everything the table's lock guards.
struct TableState {
    var entries: [Int: SlotEntry] = [:]
    var cache = IconCache()
    var cacheHits = 0
    var contentsInserted = 0
    var revisionsIssued = 0

    enum CommitOutcome {
        /// Published at `revision`; `evicted` lost their last reference and are evicted by the
        /// caller once the lock is released.
        case committed(revision: UInt64, evicted: [IconContent])
        /// The slot or the cache changed since the plan was made; here is the slot's entry now.
        case stale(latest: SlotEntry?)
    }

    /// Installs `plan` as `slot`'s entry if nothing it relied on changed: the slot still holds
    /// `observed` (same revision — revisions are unique to one commit) and the cache still holds
    /// what the plan found. New references are counted before old ones are dropped, so content
    /// shared by the old and the new entry is never evicted on the way.
    mutating func commit(
        _ plan: PublishPlan, icons: EntryIcons, slot: Int, over observed: SlotEntry?,
        revisions: RevisionCounter
    ) -> CommitOutcome {
        let now = entries[slot]
        guard now?.revision == observed?.revision, plan.isValid(in: cache) else { return .stale(latest: now) }
        for content in icons.contents {
            if let content, cache.retain(content) { contentsInserted += 1 }
        }
        cacheHits += plan.foundCount
        var evicted: [IconContent] = []
        if let now { evicted = release(now) }
        let revision = revisions.next()
        revisionsIssued += 1
        entries[slot] = SlotEntry(revision: revision, icons: icons)
        return .committed(revision: revision, evicted: evicted)
    }

    /// Removes `slot`'s entry; answers it (to be freed outside the lock) and the contents it held
    /// the last reference to.
    mutating func remove(slot: Int) -> (SlotEntry?, [IconContent]) {
        guard let removed = entries.removeValue(forKey: slot) else { return (nil, []) }
        return (removed, release(removed))
    }

    private mutating func release(_ entry: SlotEntry) -> [IconContent] {
        entry.icons.contents.compactMap { content in content.flatMap { cache.release($0) } }
    }
}
