import Foundation
import Testing
@testable import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize

/// Many tasks at once on one table. These make sense under ThreadSanitizer
/// (`swift test --sanitize=thread --filter IconTableConcurrency`), which CI runs; without it they
/// still check every answer and the table's accounting after the dust settles.
@Suite("IconTable from many tasks at once")
struct IconTableConcurrencyTests {
    static let pool: [Data] = (0..<6).map { Bytes.make(UInt8(50 + $0), count: 48 + $0) }

    static func items(_ pick: Int) -> [ItemIcons] {
        (0..<3).map { item in
            ItemIcons(
                icon: Bytes.copy(pool[(pick + item) % pool.count]),
                selectedIcon: item == 0 ? nil : pool[(pick * 7 + item) % pool.count])
        }
    }

    @Test("tasks on their own slots, sharing contents: every answer as if alone, nothing left after")
    func disjointSlotsSharedContents() async throws {
        let processor = FakeProcessor()
        let table = IconTable.forTesting(processor: processor)
        let revisions = await withTaskGroup(of: [UInt64].self) { group in
            for task in 0..<12 {
                group.addTask {
                    var issued: [UInt64] = []
                    var current: [Int: (UInt64, Int)] = [:]
                    for step in 0..<1_500 {
                        let slot = task * 100 + step % 4
                        let pick = (step * 31 + task) % 5
                        switch step % 7 {
                        case 6:
                            table.retire(slot: slot)
                            current[slot] = nil
                        case 5:
                            if let (_, shown) = current[slot] {
                                #expect(table.icons(slot: slot) == Self.items(shown))
                                let icon = table.iconResult(slot: slot, item: 1, selected: true)
                                let expected = Self.items(shown)[1].selectedIcon.map(FakeProcessor.icon(for:))
                                #expect(icon == expected.map { .success($0) })
                            }
                        default:
                            guard let revision = try? table.publish(slot: slot, items: Self.items(pick)) else {
                                Issue.record("publish failed")
                                continue
                            }
                            if let (previous, shown) = current[slot] {
                                #expect(shown == pick ? revision == previous : revision > previous)
                            }
                            if current[slot]?.0 != revision { issued.append(revision) }
                            current[slot] = (revision, pick)
                        }
                    }
                    for slot in current.keys { table.retire(slot: slot) }
                    return issued
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(revisions).count == revisions.count, "no revision issued twice")
        let stats = table.statistics
        #expect(table.count == 0)
        #expect(stats.liveContents == 0)
        #expect(stats.liveBytes == 0)
        #expect(stats.decodedBytes == 0)
    }

    @Test("tasks racing on the same slots: the last commit wins and the table stays consistent")
    func sharedSlots() async throws {
        let table = IconTable.forTesting()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<12 {
                group.addTask {
                    for step in 0..<1_500 {
                        let slot = step % 3
                        if (step + task) % 11 == 0 {
                            table.retire(slot: slot)
                        } else {
                            let revision = try? table.publish(slot: slot, items: Self.items((step + task) % 5))
                            #expect((revision ?? 0) > 0)
                            _ = table.iconResult(slot: slot, item: task % 3, selected: true)
                        }
                    }
                }
            }
        }
        var referenced = Set<Data>()
        for slot in 0..<3 {
            guard let shown = table.icons(slot: slot) else { continue }
            let pick = (0..<5).first { Self.items($0) == shown }
            #expect(pick != nil, "slot \(slot) shows one of the published item sets")
            if let pick {
                #expect(try table.publish(slot: slot, items: Self.items(pick)) == table.revision(slot: slot))
            }
            for item in shown { referenced.formUnion([item.icon, item.selectedIcon].compactMap { $0 }) }
        }
        #expect(table.statistics.liveContents == referenced.count)
        #expect(table.statistics.liveBytes == referenced.reduce(0) { $0 + $1.count })
        for slot in 0..<3 { table.retire(slot: slot) }
        #expect(table.statistics.liveBytes == 0)
        #expect(table.statistics.decodedBytes == 0)
    }

    @Test("many tasks asking for the same icons at once decode each content exactly once")
    func concurrentLookupsDecodeOnce() async throws {
        let processor = FakeProcessor(delay: 2_000)
        let table = IconTable.forTesting(processor: processor)
        for slot in 0..<16 {
            _ = try table.publish(slot: slot, items: (0..<5).map { ItemIcons(icon: Bytes.copy(Self.pool[$0])) })
        }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for item in 0..<5 {
                        let icon = table.iconResult(slot: task, item: (item + task) % 5)
                        #expect(icon == .success(FakeProcessor.icon(for: Self.pool[(item + task) % 5])))
                    }
                }
            }
        }
        #expect(processor.decodes == 5)
        #expect(table.statistics.decodeHits == 75)
    }
}
