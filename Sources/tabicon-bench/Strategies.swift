import Foundation
import Synchronization
import TabIcons
import TabIconsBatch

/// How a runtime keeps a bar's icons across rebuilds. Each strategy is driven the same way, as a
/// runtime would: publish a bar's items every frame; when the answered revision differs from the
/// one the bar last saw, the platform bar is rebuilt and every icon's pixels are fetched
/// (`realize`). All the table strategies are thread-safe the obvious way (one `Mutex`), as the
/// `IconTable` is, so the comparison is of algorithms, not of locking.
protocol RebuildStrategy: AnyObject {
    /// Publishes a bar's items as one rebuild does; answers the revision the bar's props carry.
    func publish(bar: Int, items: [ItemIcons]) -> UInt64
    /// The platform bar is rebuilt: get the pixels of every icon of `items`.
    func realize(bar: Int, items: [ItemIcons])
    /// The bar is torn down.
    func retire(bar: Int)
    /// Entries the strategy holds.
    var liveEntries: Int { get }
    /// Encoded icon bytes the strategy keeps alive.
    var liveBytes: Int { get }
}

enum StrategyKind: String, CaseIterable {
    case iconTable = "IconTable"
    case identity
    case byteCompare
    case decodeEveryFrame

    func make(processor: CountingProcessor) -> RebuildStrategy {
        switch self {
        case .iconTable: IconTableStrategy(processor: processor)
        case .identity: IdentityStrategy(processor: processor)
        case .byteCompare: ByteCompareStrategy(processor: processor)
        case .decodeEveryFrame: DecodeEveryFrameStrategy(processor: processor)
        }
    }
}

/// The processor every strategy decodes with (the library's `Normalizer`), counted.
final class CountingProcessor: IconProcessor {
    private let base: any IconProcessor
    private let runs = Atomic<Int>(0)

    init(_ base: any IconProcessor) { self.base = base }

    var decodes: Int { runs.load(ordering: .relaxed) }

    func process(_ bytes: Data) throws(TabIconsError) -> NormalizedIcon {
        runs.add(1, ordering: .relaxed)
        return try base.process(bytes)
    }
}

/// Decodes every icon of `items`, as a runtime without a shared cache does on each rebuild.
private func decodeAll(_ items: [ItemIcons], with processor: CountingProcessor) {
    for item in items {
        if let icon = item.icon { _ = try? processor.process(icon) }
        if let selected = item.selectedIcon { _ = try? processor.process(selected) }
    }
}

/// The library's table: revisions by content, one decode per content shared by all bars.
final class IconTableStrategy: RebuildStrategy {
    let table: IconTable

    init(processor: CountingProcessor) { table = IconTable(processor: processor) }

    func publish(bar: Int, items: [ItemIcons]) -> UInt64 {
        (try? table.publish(slot: bar, items: items)) ?? 0
    }

    func realize(bar: Int, items: [ItemIcons]) {
        for (index, item) in items.enumerated() {
            if item.icon != nil { _ = try? table.icon(slot: bar, item: index, selected: false) }
            if item.selectedIcon != nil { _ = try? table.icon(slot: bar, item: index, selected: true) }
        }
    }

    func retire(bar: Int) { table.retire(slot: bar) }
    var liveEntries: Int { table.count }
    var liveBytes: Int { table.statistics.liveBytes }
}

/// A table keyed by buffer identity: a bar keeps its revision while every icon is at the same
/// address with the same length. It holds no bytes — so it can neither see fresh copies of the
/// same bytes as equal, nor notice that a freed buffer's address was reused for other bytes.
final class IdentityStrategy: RebuildStrategy {
    private struct Key: Equatable {
        var address: UInt
        var count: Int
    }

    private struct State {
        var entries: [Int: (revision: UInt64, keys: [Key])] = [:]
        var next: UInt64 = 1
    }

    private let state = Mutex(State())
    private let processor: CountingProcessor

    init(processor: CountingProcessor) { self.processor = processor }

    private static func key(_ data: Data?) -> Key {
        guard let data else { return Key(address: 0, count: -1) }
        return data.withUnsafeBytes { Key(address: UInt(bitPattern: $0.baseAddress), count: $0.count) }
    }

    func publish(bar: Int, items: [ItemIcons]) -> UInt64 {
        let keys = items.flatMap { [Self.key($0.icon), Self.key($0.selectedIcon)] }
        return state.withLock { state in
            if let entry = state.entries[bar], entry.keys == keys { return entry.revision }
            defer { state.next += 1 }
            state.entries[bar] = (state.next, keys)
            return state.next
        }
    }

    func realize(bar: Int, items: [ItemIcons]) { decodeAll(items, with: processor) }
    func retire(bar: Int) { _ = state.withLock { $0.entries.removeValue(forKey: bar) } }
    var liveEntries: Int { state.withLock { $0.entries.count } }
    var liveBytes: Int { 0 }
}

/// The reference's way: each bar keeps its own items and a republish is compared with them byte
/// for byte, every byte every time (no same-buffer shortcut), under the table's lock. No shared
/// cache: each bar decodes its own icons when its revision changes.
final class ByteCompareStrategy: RebuildStrategy {
    private struct State {
        var entries: [Int: (revision: UInt64, items: [ItemIcons])] = [:]
        var next: UInt64 = 1
    }

    private let state = Mutex(State())
    private let processor: CountingProcessor

    init(processor: CountingProcessor) { self.processor = processor }

    private static func bytesEqual(_ a: Data?, _ b: Data?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                guard let baseA = pa.baseAddress, let baseB = pb.baseAddress else { return true }
                return memcmp(baseA, baseB, pa.count) == 0
            }
        }
    }

    private static func itemsEqual(_ a: [ItemIcons], _ b: [ItemIcons]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            guard bytesEqual(x.icon, y.icon), bytesEqual(x.selectedIcon, y.selectedIcon) else { return false }
        }
        return true
    }

    func publish(bar: Int, items: [ItemIcons]) -> UInt64 {
        state.withLock { state in
            if let entry = state.entries[bar], Self.itemsEqual(entry.items, items) { return entry.revision }
            defer { state.next += 1 }
            state.entries[bar] = (state.next, items)
            return state.next
        }
    }

    func realize(bar: Int, items: [ItemIcons]) { decodeAll(items, with: processor) }
    func retire(bar: Int) { _ = state.withLock { $0.entries.removeValue(forKey: bar) } }
    var liveEntries: Int { state.withLock { $0.entries.count } }
    var liveBytes: Int {
        state.withLock { state in
            state.entries.values.reduce(0) { total, entry in
                entry.items.reduce(total) { $0 + ($1.icon?.count ?? 0) + ($1.selectedIcon?.count ?? 0) }
            }
        }
    }
}

/// No table: every rebuild is new to the runtime, which decodes every icon every frame.
final class DecodeEveryFrameStrategy: RebuildStrategy {
    private var frame: UInt64 = 0
    private let processor: CountingProcessor

    init(processor: CountingProcessor) { self.processor = processor }

    func publish(bar: Int, items: [ItemIcons]) -> UInt64 {
        frame += 1
        return frame
    }

    func realize(bar: Int, items: [ItemIcons]) { decodeAll(items, with: processor) }
    func retire(bar: Int) {}
    var liveEntries: Int { 0 }
    var liveBytes: Int { 0 }
}
