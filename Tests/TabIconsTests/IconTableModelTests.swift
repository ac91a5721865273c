import Foundation
import Testing
@testable import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize

/// SPEC §5 written as plainly as possible: a dictionary of slot → (revision, items), content
/// equality by `==`, a counter. The table must answer exactly what this answers, step by step.
private struct TableModel {
    var entries: [Int: (revision: UInt64, items: [ItemIcons])] = [:]
    var next: UInt64 = 1

    mutating func publish(slot: Int, items: [ItemIcons]) -> UInt64? {
        guard items.count <= 16 else { return nil }
        guard items.contains(where: { !$0.isEmpty }) else {
            entries[slot] = nil
            return 0
        }
        if let entry = entries[slot], entry.items == items { return entry.revision }
        defer { next += 1 }
        entries[slot] = (next, items)
        return next
    }

    /// The distinct contents the live entries reference.
    var liveContents: Set<Data> {
        Set(entries.values.flatMap { $0.items.flatMap { [$0.icon, $0.selectedIcon].compactMap { $0 } } })
    }
}

/// A small, seeded generator (SplitMix64), so a failure can be replayed.
@Suite("IconTable against a plain model of SPEC §5")
struct IconTableModelTests {
    /// A small pool: heap buffers, tiny inline ones, an empty one, two that differ in one byte,
    /// one of another length with the same prefix, and one that fails to decode.
    static let pool: [Data] = {
        var pool = (0..<4).map { Bytes.make(UInt8($0), count: 64) }
        pool.append(Data([1, 2, 3]))
        pool.append(Data([1, 2, 4]))
        pool.append(Data())
        var oneOff = pool[0]
        oneOff[oneOff.startIndex + 63] ^= 0x80
        pool.append(oneOff)
        pool.append(pool[0].prefix(40))
        var bad = Bytes.make(9, count: 30)
        bad[bad.startIndex] = 0xEE
        pool.append(bad)
        return pool
    }()

    /// One of the pool's contents in a form an app might pass: the pool's own buffer, a fresh
    /// copy, or a slice of a larger buffer.
    private static func buffer(_ index: Int, using rng: inout SeededGenerator) -> Data {
        let bytes = pool[index]
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return bytes
        case 1: return Bytes.copy(bytes)
        default:
            let padded = Data([0xAB, 0xCD]) + bytes + Data([0xEF])
            return padded.dropFirst(2).dropLast()
        }
    }

    private static func items(using rng: inout SeededGenerator) -> [ItemIcons] {
        let count: Int
        switch Int.random(in: 0..<20, using: &rng) {
        case 0: count = 0
        case 1: count = 17
        case 2: count = 16
        default: count = Int.random(in: 1...5, using: &rng)
        }
        func icon(_ rng: inout SeededGenerator) -> Data? {
            Int.random(in: 0..<10, using: &rng) < 3 ? nil : buffer(Int.random(in: 0..<pool.count, using: &rng), using: &rng)
        }
        return (0..<count).map { _ in ItemIcons(icon: icon(&rng), selectedIcon: icon(&rng)) }
    }

    @Test("thousands of random publish/retire/icons/icon steps agree with the model", arguments: [1, 2, 3, 4])
    func agreesWithModel(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let processor = FakeProcessor()
        let table = IconTable.forTesting(processor: processor)
        var model = TableModel()
        let slots = 0..<36

        for step in 0..<4_000 {
            let slot = Int.random(in: slots, using: &rng)
            let context = Comment(rawValue: "seed \(seed), step \(step), slot \(slot)")
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<6:
                let items = Self.items(using: &rng)
                let expected = model.publish(slot: slot, items: items)
                let actual = try? table.publish(slot: slot, items: items)
                #expect(actual == expected, context)
            case 6..<8:
                model.entries[slot] = nil
                table.retire(slot: slot)
            case 8:
                #expect(table.icons(slot: slot) == model.entries[slot]?.items, context)
            default:
                let item = Int.random(in: -1...5, using: &rng), selected = Bool.random(using: &rng)
                let modelItems = model.entries[slot]?.items ?? []
                let expected = modelItems.indices.contains(item) ? modelItems[item].bytes(selected: selected) : nil
                switch table.iconResult(slot: slot, item: item, selected: selected) {
                case nil:
                    #expect(expected == nil, context)
                case .success(let icon)?:
                    #expect(expected.map(FakeProcessor.icon(for:)) == icon, context)
                case .failure(let error)?:
                    #expect(expected?.first == 0xEE && error.code == .corrupt, context)
                }
            }
            #expect(table.revision(slot: slot) == model.entries[slot]?.revision ?? 0, context)
            #expect(table.count == model.entries.count, context)
            let stats = table.statistics
            let live = model.liveContents
            #expect(stats.liveContents == live.count, context)
            #expect(stats.liveBytes == live.reduce(0) { $0 + $1.count }, context)
            #expect(processor.decodes <= stats.contentsInserted, "never more than one decode per content")
            if step % 500 == 0 {
                for slot in slots { #expect(table.icons(slot: slot) == model.entries[slot]?.items, context) }
            }
        }
        for slot in slots { table.retire(slot: slot) }
        #expect(table.statistics.liveBytes == 0)
        #expect(table.statistics.decodedBytes == 0)
    }
}
