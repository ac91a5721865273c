import Foundation
import Testing
@testable import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize

@Suite("IconTable: the shared cache of decoded icons")
struct IconTableCacheTests {
    let home = Bytes.make(1), homeFilled = Bytes.make(2), search = Bytes.make(3)

    @Test("publishing never decodes; the first lookup does, once per content")
    func decodesLazilyOnce() throws {
        let processor = FakeProcessor()
        let table = IconTable.forTesting(processor: processor)
        _ = try table.publish(slot: 1, items: [ItemIcons(icon: home, selectedIcon: homeFilled)])
        #expect(processor.decodes == 0)
        let icon = try table.iconResult(slot: 1, item: 0)?.get()
        #expect(icon == FakeProcessor.icon(for: home))
        #expect(try table.iconResult(slot: 1, item: 0, selected: true)?.get() == FakeProcessor.icon(for: homeFilled))
        _ = table.iconResult(slot: 1, item: 0)
        #expect(processor.decodes == 2)
        #expect(table.statistics.decodeHits == 1)
        #expect(table.statistics.decodedBytes == 2 * 64)
        #expect(table.iconResult(slot: 1, item: 1) == nil)
        #expect(table.iconResult(slot: 2, item: 0) == nil)
    }

    @Test("16 bars showing the same 5 icons hold and decode 5 contents, not 80")
    func sharedAcrossSlots() throws {
        let processor = FakeProcessor()
        let table = IconTable.forTesting(processor: processor)
        let icons = (10..<15).map { Bytes.make(UInt8($0), count: 100) }
        for slot in 0..<16 {
            // Half the bars use the app's shared buffers, half their own copies.
            let items = icons.map { ItemIcons(icon: slot.isMultiple(of: 2) ? $0 : Bytes.copy($0)) }
            _ = try table.publish(slot: slot, items: items)
            for item in 0..<5 { _ = table.iconResult(slot: slot, item: item) }
        }
        let stats = table.statistics
        #expect(processor.decodes == 5)
        #expect(stats.liveContents == 5)
        #expect(stats.liveBytes == 500)
        #expect(stats.cacheHits == 75)
        #expect(stats.contentsInserted == 5)
        #expect(stats.decodeHits == 75)
    }

    @Test("a content is released when the last slot referencing it retires or moves on")
    func releasedWithLastReference() throws {
        let table = IconTable.forTesting()
        _ = try table.publish(slot: 1, items: [ItemIcons(icon: home, selectedIcon: homeFilled)])
        _ = try table.publish(slot: 2, items: [ItemIcons(icon: Bytes.copy(home))])
        let shared = try #require(table.content(slot: 1, item: 0, selected: false))
        #expect(table.references(to: shared) == 2)
        #expect(table.statistics.liveBytes == 128)

        _ = try table.publish(slot: 1, items: [ItemIcons(icon: search)])  // slot 1 moves on
        #expect(table.references(to: shared) == 1)
        #expect(table.statistics.liveContents == 2, "home (slot 2) and search (slot 1); homeFilled released")
        #expect(table.statistics.liveBytes == 128)

        table.retire(slot: 2)
        #expect(table.references(to: shared) == 0)
        #expect(table.statistics.liveContents == 1)
        #expect(table.statistics.liveBytes == 64)
    }

    @Test("the same bytes in two positions of one bar are one content with two references")
    func duplicatesWithinOnePublish() throws {
        let processor = FakeProcessor()
        let table = IconTable.forTesting(processor: processor)
        _ = try table.publish(
            slot: 1,
            items: [
                ItemIcons(icon: home, selectedIcon: Bytes.copy(home)),
                ItemIcons(icon: Bytes.copy(home))
            ])
        let content = try #require(table.content(slot: 1, item: 0, selected: false))
        #expect(table.content(slot: 1, item: 0, selected: true) === content)
        #expect(table.content(slot: 1, item: 1, selected: false) === content)
        #expect(table.references(to: content) == 3)
        #expect(table.statistics.liveContents == 1)
        _ = table.iconResult(slot: 1, item: 0)
        _ = table.iconResult(slot: 1, item: 1)
        #expect(processor.decodes == 1)
        table.retire(slot: 1)
        #expect(table.statistics.liveContents == 0)
    }

    @Test("a partial change keeps the unchanged icons' contents and their decodes")
    func partialChangeKeepsContents() throws {
        let processor = FakeProcessor()
        let table = IconTable.forTesting(processor: processor)
        _ = try table.publish(slot: 1, items: [ItemIcons(icon: home), ItemIcons(icon: homeFilled)])
        _ = table.iconResult(slot: 1, item: 1)
        let kept = try #require(table.content(slot: 1, item: 1, selected: false))
        _ = try table.publish(slot: 1, items: [ItemIcons(icon: search), ItemIcons(icon: Bytes.copy(homeFilled))])
        #expect(table.content(slot: 1, item: 1, selected: false) === kept)
        _ = table.iconResult(slot: 1, item: 1)
        #expect(processor.decodes == 1)
        #expect(table.statistics.liveContents == 2)
    }

    @Test("bytes that do not decode still publish; their lookup answers the error, decoded once")
    func failedDecode() throws {
        let processor = FakeProcessor()
        let table = IconTable.forTesting(processor: processor)
        var bad = Bytes.make(4)
        bad[bad.startIndex] = 0xEE
        let revision = try table.publish(slot: 1, items: [ItemIcons(icon: bad, selectedIcon: home)])
        #expect(revision == 1)
        #expect(try table.publish(slot: 1, items: [ItemIcons(icon: Bytes.copy(bad), selectedIcon: home)]) == revision)
        for _ in 0..<3 {
            guard case .failure(let error)? = table.iconResult(slot: 1, item: 0) else {
                Issue.record("expected the decode error")
                return
            }
            #expect(error.code == .corrupt)
        }
        let thrown = #expect(throws: TabIconsError.self) { try table.icon(slot: 1, item: 0) }
        #expect(thrown?.code == .corrupt)
        #expect(try table.iconResult(slot: 1, item: 0, selected: true)?.get() == FakeProcessor.icon(for: home))
        #expect(processor.decodes == 2)
        #expect(table.statistics.decodedBytes == 64, "only the successful decode holds pixels")
    }

    @Test("colliding hashes never conflate different bytes", arguments: [ContentHasher.constant, .byLength])
    func collisions(hasher: ContentHasher) throws {
        let processor = FakeProcessor()
        let table = IconTable.forTesting(processor: processor, hasher: hasher)
        let contents = (0..<6).map { Bytes.make(UInt8(40 + $0)) }
        for (slot, bytes) in contents.enumerated() {
            _ = try table.publish(slot: slot, items: [ItemIcons(icon: bytes)])
            _ = try table.publish(slot: slot + 100, items: [ItemIcons(icon: Bytes.copy(bytes))])
        }
        #expect(table.statistics.liveContents == 6)
        for (slot, bytes) in contents.enumerated() {
            #expect(table.icons(slot: slot + 100) == [ItemIcons(icon: bytes)])
            #expect(try table.iconResult(slot: slot + 100, item: 0)?.get() == FakeProcessor.icon(for: bytes))
            #expect(
                table.content(slot: slot, item: 0, selected: false)
                    === table.content(slot: slot + 100, item: 0, selected: false))
        }
        #expect(processor.decodes == 6)
        for slot in 0..<6 { table.retire(slot: slot) }
        #expect(table.statistics.liveContents == 6)
        for slot in 100..<106 { table.retire(slot: slot) }
        #expect(table.statistics.liveContents == 0)
    }

    @Test("after everything retires the table holds nothing: no entries, no bytes, no pixels, no contents")
    func noLeaks() throws {
        let processor = FakeProcessor()
        let table = IconTable.forTesting(processor: processor)
        weak var weakContent: IconContent?
        do {
            for slot in 0..<20 {
                let items = (0..<5).map {
                    ItemIcons(
                        icon: Bytes.make(UInt8(($0 + slot) % 7)),
                        selectedIcon: Bytes.make(UInt8(100 + $0)))
                }
                _ = try table.publish(slot: slot, items: items)
                for item in 0..<5 { _ = table.iconResult(slot: slot, item: item, selected: slot.isMultiple(of: 3)) }
            }
            _ = try table.publish(slot: 3, items: [ItemIcons(icon: search)])
            weakContent = table.content(slot: 0, item: 0, selected: false)
            #expect(weakContent != nil)
            #expect(table.statistics.decodedBytes > 0)
        }
        for slot in 0..<20 { table.retire(slot: slot) }
        let stats = table.statistics
        #expect(table.count == 0)
        #expect(stats.liveContents == 0)
        #expect(stats.liveBytes == 0)
        #expect(stats.decodedBytes == 0)
        #expect(weakContent == nil, "the cache keeps no content alive after its last slot retired")
    }

    @Test("a lookup racing a retire gets its icon, and the evicted content keeps no pixels")
    func lookupAfterEviction() throws {
        let processor = FakeProcessor()
        let table = IconTable.forTesting(processor: processor)
        _ = try table.publish(slot: 1, items: [ItemIcons(icon: home)])
        let straggler = try #require(table.content(slot: 1, item: 0, selected: false))
        table.retire(slot: 1)
        #expect(try straggler.normalized(by: processor).get() == FakeProcessor.icon(for: home))
        #expect(!straggler.isDecoded)
        #expect(table.statistics.decodedBytes == 0)
    }
}
