import Foundation
import Testing
@testable import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize

/// A one-shot action run between a publish's unlocked work and its commit — exactly where a
/// racing operation must land to make the publish's plan stale. It stages, deterministically, the
/// races the concurrency tests can only hope to hit.
private final class Interleaving: @unchecked Sendable {
    var action: (() -> Void)?

    func fire() {
        guard let action else { return }
        self.action = nil
        action()
    }
}

@Suite("IconTable: a publish that raced another commit redoes its work")
struct IconTableRaceTests {
    let home = Bytes.make(1), search = Bytes.make(3), bell = Bytes.make(5)

    private func table(_ interleaving: Interleaving, processor: FakeProcessor = FakeProcessor()) -> IconTable {
        IconTable(
            processor: processor, revisions: RevisionCounter(), hasher: .xxh3,
            beforeCommit: { interleaving.fire() })
    }

    @Test("another publish to the same slot commits meanwhile: the later commit wins, with its own revision")
    func slotChangedMeanwhile() throws {
        let interleaving = Interleaving()
        let table = table(interleaving)
        _ = try table.publish(slot: 1, items: [ItemIcons(icon: home)])  // revision 1
        var racing: UInt64 = 0
        interleaving.action = { racing = (try? table.publish(slot: 1, items: [ItemIcons(icon: search)])) ?? 0 }
        let revision = try table.publish(slot: 1, items: [ItemIcons(icon: bell)])
        #expect(racing == 2)
        #expect(revision == 3)
        #expect(table.icons(slot: 1) == [ItemIcons(icon: bell)])
        #expect(table.statistics.liveContents == 1, "home and search were released on the way")
        #expect(table.statistics.liveBytes == bell.count)
    }

    @Test("the racing publish put the same content in the slot: the redo answers its revision")
    func sameContentMeanwhile() throws {
        let interleaving = Interleaving()
        let table = table(interleaving)
        _ = try table.publish(slot: 1, items: [ItemIcons(icon: home)])
        var racing: UInt64 = 0
        interleaving.action = {
            racing = (try? table.publish(slot: 1, items: [ItemIcons(icon: Bytes.copy(search))])) ?? 0
        }
        let revision = try table.publish(slot: 1, items: [ItemIcons(icon: search)])
        #expect(racing == 2)
        #expect(revision == 2, "the content is what the slot already shows: no third revision")
        #expect(table.statistics.revisionsIssued == 2)
    }

    @Test("another slot inserts the same new bytes meanwhile: they become one content, not two")
    func sameBytesInsertedMeanwhile() throws {
        let interleaving = Interleaving(), processor = FakeProcessor()
        let table = table(interleaving, processor: processor)
        interleaving.action = { _ = try? table.publish(slot: 2, items: [ItemIcons(icon: Bytes.copy(home))]) }
        _ = try table.publish(slot: 1, items: [ItemIcons(icon: home)])
        let stats = table.statistics
        #expect(stats.liveContents == 1)
        #expect(stats.contentsInserted == 1)
        #expect(stats.cacheHits == 1)
        #expect(table.content(slot: 1, item: 0, selected: false) === table.content(slot: 2, item: 0, selected: false))
        _ = table.iconResult(slot: 1, item: 0)
        _ = table.iconResult(slot: 2, item: 0)
        #expect(processor.decodes == 1)
    }

    @Test("the content a publish found in the cache is evicted meanwhile: it is brought back as new")
    func foundContentEvictedMeanwhile() throws {
        let interleaving = Interleaving()
        let table = table(interleaving)
        _ = try table.publish(slot: 2, items: [ItemIcons(icon: home)])
        let evicted = try #require(table.content(slot: 2, item: 0, selected: false))
        interleaving.action = { table.retire(slot: 2) }
        _ = try table.publish(slot: 1, items: [ItemIcons(icon: Bytes.copy(home))])
        let content = try #require(table.content(slot: 1, item: 0, selected: false))
        #expect(content !== evicted, "an evicted content is never resurrected")
        #expect(table.references(to: content) == 1)
        #expect(table.statistics.liveContents == 1)
        #expect(table.statistics.liveBytes == home.count)
    }

    @Test("the slot is retired meanwhile: the publish still lands, as a new entry")
    func retiredMeanwhile() throws {
        let interleaving = Interleaving()
        let table = table(interleaving)
        _ = try table.publish(slot: 1, items: [ItemIcons(icon: home)])
        interleaving.action = { table.retire(slot: 1) }
        let revision = try table.publish(slot: 1, items: [ItemIcons(icon: search)])
        #expect(revision == 2)
        #expect(table.icons(slot: 1) == [ItemIcons(icon: search)])
        #expect(table.statistics.liveBytes == search.count)
    }
}
