import Foundation
import Testing
@testable import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsTestSupport

@Suite("IconTable: revisions by content (the reference's behaviour, SPEC §5)")
struct IconTableTests {
    let home = Bytes.make(1), homeFilled = Bytes.make(2), search = Bytes.make(3)

    @Test("the same content republished keeps its revision, also from different buffers")
    func sameContentSameRevision() throws {
        let table = IconTable.forTesting()
        let first = try table.publish(slot: 7, items: [ItemIcons(icon: home, selectedIcon: homeFilled)])
        let sameBuffers = try table.publish(slot: 7, items: [ItemIcons(icon: home, selectedIcon: homeFilled)])
        let freshCopies = try table.publish(
            slot: 7,
            items: [
                ItemIcons(
                    icon: Bytes.copy(home),
                    selectedIcon: Bytes.copy(homeFilled))
            ])
        #expect(first == 1)
        #expect(sameBuffers == first)
        #expect(freshCopies == first)
        #expect(table.statistics.revisionsIssued == 1)
    }

    @Test("changed content gets a fresh revision, and A, B, A gives three revisions from 1")
    func changedContentNewRevision() throws {
        let table = IconTable.forTesting()
        let a = try table.publish(slot: 1, items: [ItemIcons(icon: home)])
        let b = try table.publish(slot: 1, items: [ItemIcons(icon: search)])
        let aAgain = try table.publish(slot: 1, items: [ItemIcons(icon: Bytes.copy(home))])
        #expect([a, b, aAgain] == [1, 2, 3])
    }

    @Test("every kind of change is a change: one byte, length, selected icon, presence, item count")
    func everyChangeIsSeen() throws {
        let table = IconTable.forTesting()
        var revisions: [UInt64] = []
        var oneByteOff = home
        oneByteOff[oneByteOff.startIndex + 40] ^= 1
        let publications: [[ItemIcons]] = [
            [ItemIcons(icon: home, selectedIcon: homeFilled)],
            [ItemIcons(icon: oneByteOff, selectedIcon: homeFilled)],
            [ItemIcons(icon: home.prefix(63), selectedIcon: homeFilled)],
            [ItemIcons(icon: home, selectedIcon: search)],
            [ItemIcons(icon: home, selectedIcon: nil)],
            [ItemIcons(icon: nil, selectedIcon: home)],
            [ItemIcons(icon: nil, selectedIcon: home), ItemIcons()],
            [ItemIcons(), ItemIcons(icon: nil, selectedIcon: home)]
        ]
        for items in publications {
            revisions.append(try table.publish(slot: 3, items: items))
            #expect(table.icons(slot: 3) == items)
        }
        #expect(revisions == Array(1...UInt64(publications.count)))
    }

    @Test("tiny buffers stored inside the Data value are compared by bytes")
    func inlineData() throws {
        let table = IconTable.forTesting()
        let tiny = Data([1, 2, 3]), otherTiny = Data([1, 2, 4])
        let first = try table.publish(slot: 2, items: [ItemIcons(icon: tiny)])
        #expect(try table.publish(slot: 2, items: [ItemIcons(icon: Data([1, 2, 3]))]) == first)
        #expect(try table.publish(slot: 2, items: [ItemIcons(icon: otherTiny)]) != first)
        #expect(try table.publish(slot: 2, items: [ItemIcons(icon: Data())]) > first)
        #expect(
            try table.publish(slot: 2, items: [ItemIcons(icon: Data())]) == first + 2,
            "an empty buffer is an icon (that does not decode), and equal to another empty one")
    }

    @Test("a slice republished as a copy, and a copy republished as a slice, keep the revision")
    func slices() throws {
        let table = IconTable.forTesting()
        let big = Bytes.make(9, count: 300)
        let slice = big[100..<200]
        let first = try table.publish(slot: 4, items: [ItemIcons(icon: slice)])
        #expect(try table.publish(slot: 4, items: [ItemIcons(icon: Data(slice))]) == first)
        #expect(try table.publish(slot: 4, items: [ItemIcons(icon: big[100..<200])]) == first)
        #expect(try table.publish(slot: 4, items: [ItemIcons(icon: big[101..<201])]) != first)
    }

    @Test("an app that mutates its published buffer in place gets a new revision, and back again another")
    func mutationInPlace() throws {
        let table = IconTable.forTesting()
        var icon = Bytes.make(20, count: 200)
        let first = try table.publish(slot: 1, items: [ItemIcons(icon: icon)])
        icon[icon.startIndex + 100] ^= 0xFF  // copy-on-write: the table's bytes stay
        let second = try table.publish(slot: 1, items: [ItemIcons(icon: icon)])
        #expect(second == first + 1)
        #expect(table.icons(slot: 1) == [ItemIcons(icon: icon)])
        icon[icon.startIndex + 100] ^= 0xFF
        #expect(try table.publish(slot: 1, items: [ItemIcons(icon: icon)]) == first + 2)
        #expect(try table.publish(slot: 1, items: [ItemIcons(icon: Bytes.make(20, count: 200))]) == first + 2)
    }

    @Test("the identity shortcut: the same Data value passes by representation, copies by bytes")
    func identityShortcut() {
        let data = Bytes.make(30, count: 500), tiny = Data([9, 8, 7])
        #expect(ContentEquality.sameRepresentation(data, data))
        #expect(ContentEquality.sameRepresentation(data, data[data.startIndex..<data.endIndex]))
        #expect(ContentEquality.sameRepresentation(tiny, Data([9, 8, 7])), "inline bytes are the representation")
        #expect(ContentEquality.sameRepresentation(nil, nil))
        #expect(!ContentEquality.sameRepresentation(data, nil))
        #expect(!ContentEquality.sameRepresentation(data, Bytes.copy(data)))
        #expect(!ContentEquality.sameRepresentation(data, data.prefix(499)))
        #expect(
            ContentEquality.sameRepresentations(
                [ItemIcons(icon: data), ItemIcons()],
                [ItemIcons(icon: data), ItemIcons()]))
        #expect(!ContentEquality.sameRepresentations([ItemIcons(icon: data)], [ItemIcons(icon: data), ItemIcons()]))
        #expect(!ContentEquality.sameRepresentations([ItemIcons(icon: data)], [ItemIcons(selectedIcon: data)]))
        #expect(ContentEquality.sameBytes([UInt8](data), Bytes.copy(data)))
        #expect(ContentEquality.sameBytes([UInt8](data.dropFirst()), data.dropFirst()))
        #expect(!ContentEquality.sameBytes([UInt8](data), data.prefix(499)))
        #expect(!ContentEquality.sameBytes([UInt8](data.dropFirst()), data.dropLast()))
        #expect(ContentEquality.sameBytes([], Data()))
    }

    @Test("a bar with no byte icons publishes nothing, answers 0 and holds no entry")
    func noByteIcons() throws {
        let table = IconTable.forTesting()
        _ = try table.publish(slot: 5, items: [ItemIcons(icon: home)])
        #expect(table.count == 1)
        #expect(try table.publish(slot: 5, items: Array(repeating: ItemIcons(), count: 3)) == 0)
        #expect(table.icons(slot: 5) == nil, "a symbol-only bar holds no table entry")
        #expect(table.revision(slot: 5) == 0)
        #expect(try table.publish(slot: 6, items: []) == 0)
        #expect(table.count == 0)
        #expect(table.statistics.liveBytes == 0)
    }

    @Test("more than 16 items is an invalidArgument error and leaves the entry as it was")
    func tooManyItems() throws {
        let table = IconTable.forTesting()
        let items = [ItemIcons(icon: home)]
        let revision = try table.publish(slot: 8, items: items)
        let seventeen = Array(repeating: ItemIcons(icon: search), count: 17)
        let error = #expect(throws: TabIconsError.self) { try table.publish(slot: 8, items: seventeen) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("at most 16 items") == true)
        #expect(table.icons(slot: 8) == items)
        #expect(table.revision(slot: 8) == revision)
        #expect(throws: TabIconsError.self) { try table.publish(slot: 8, items: Array(repeating: ItemIcons(), count: 17)) }
        #expect(table.revision(slot: 8) == revision, "even 17 empty items are refused, not taken as a retire")
        let sixteen = Array(repeating: ItemIcons(icon: search), count: 16)
        #expect(try table.publish(slot: 8, items: sixteen) == revision + 1)
    }

    @Test("retire removes the entry and is idempotent")
    func retireIsIdempotent() throws {
        let table = IconTable.forTesting()
        _ = try table.publish(slot: 9, items: [ItemIcons(icon: home)])
        _ = try table.publish(slot: 10, items: [ItemIcons(icon: search)])
        table.retire(slot: 9)
        table.retire(slot: 9)
        table.retire(slot: 11)
        #expect(table.icons(slot: 9) == nil)
        #expect(table.count == 1)
        #expect(table.icons(slot: 10) == [ItemIcons(icon: search)])
        #expect(
            try table.publish(slot: 9, items: [ItemIcons(icon: home)]) == 3,
            "a slot published again after retiring gets a fresh revision")
    }

    @Test("byte icons read back from the table, item by item, with absent icons absent")
    func iconsReadBack() throws {
        let table = IconTable.forTesting()
        let items = [
            ItemIcons(icon: home, selectedIcon: homeFilled), ItemIcons(),
            ItemIcons(icon: search, selectedIcon: nil)
        ]
        _ = try table.publish(slot: 12, items: items)
        #expect(table.icons(slot: 12) == items)
        #expect(table.icons(slot: 13) == nil)
        #expect(table.content(slot: 12, item: 1, selected: false) == nil)
        #expect(table.content(slot: 12, item: 2, selected: true) == nil)
        #expect(table.content(slot: 12, item: 3, selected: false) == nil)
        #expect(table.content(slot: 12, item: -1, selected: false) == nil)
        #expect(table.content(slot: 12, item: 2, selected: false)?.bytes == [UInt8](search))
    }

    @Test("slots are independent: the same content in two slots, each with its own revision")
    func slotsAreIndependent() throws {
        let table = IconTable.forTesting()
        let a = try table.publish(slot: 1, items: [ItemIcons(icon: home)])
        let b = try table.publish(slot: 2, items: [ItemIcons(icon: home)])
        #expect(a != b)
        #expect(try table.publish(slot: 1, items: [ItemIcons(icon: Bytes.copy(home))]) == a)
        #expect(try table.publish(slot: 2, items: [ItemIcons(icon: home)]) == b)
    }

    @Test("revisions are unique across tables that share the process counter")
    func processCounter() throws {
        let one = IconTable(processor: FakeProcessor()), two = IconTable(processor: FakeProcessor())
        let a = try one.publish(slot: 1, items: [ItemIcons(icon: home)])
        let b = try two.publish(slot: 1, items: [ItemIcons(icon: home)])
        let c = try one.publish(slot: 1, items: [ItemIcons(icon: search)])
        #expect(a >= 1)
        #expect(b > a)
        #expect(c > b)
    }

    @Test("IconTable takes SVG contents like any other")
    func svgContents() throws {
        let house = try Fixtures.data(Fixtures.testImage("house-fill.svg"))
        let square = SVGTestSupport.square
        let table = IconTable()
        let revision = try table.publish(slot: 1, items: [ItemIcons(icon: house, selectedIcon: square)])
        #expect(revision > 0)
        #expect(try table.publish(slot: 1, items: [ItemIcons(icon: Data(house), selectedIcon: Data(square))]) == revision)
        #expect(table.icons(slot: 1)?.first?.icon == house)
        table.retire(slot: 1)
    }
}
