import Foundation

/// What one slot currently shows: the revision it was published at and its icons.
///
/// The revision doubles as the entry's generation: it is unique to one commit, so a publish that
/// read an entry, worked outside the lock and comes back to commit can tell whether anyone
/// committed to the slot in between by comparing revisions.
struct SlotEntry: Sendable {
    let revision: UInt64
    let icons: EntryIcons
}

/// A slot's items, each icon resolved to its shared `IconContent`.
///
/// Built outside the table's lock and immutable after that, so readers copy one reference under
/// the lock and compare outside it. The `items` carry the contents' canonical buffers, not
/// necessarily the publisher's own `Data`: the table holds each distinct content once.
final class EntryIcons: Sendable {
    /// The items as `icons(slot:)` answers them, with canonical buffers.
    let items: [ItemIcons]
    /// Two positions per item — icon, then selected icon — `nil` where the item has none.
    let contents: [IconContent?]

    init(contents: [IconContent?]) {
        self.contents = contents
        self.items = stride(from: 0, to: contents.count, by: 2).map { position in
            ItemIcons(icon: contents[position]?.bytes, selectedIcon: contents[position + 1]?.bytes)
        }
    }

    /// The position of an item's icon in `contents`.
    static func position(item: Int, selected: Bool) -> Int { item * 2 + (selected ? 1 : 0) }

    func content(item: Int, selected: Bool) -> IconContent? {
        guard item >= 0, item < items.count else { return nil }
        return contents[Self.position(item: item, selected: selected)]
    }

    /// The first position at which `candidate` differs from these items, or nil when it holds
    /// the same content (the same number of items, each icon present or absent alike and equal
    /// by `ContentEquality`). This is the whole cost of a republish of unchanged content.
    func firstDifference(from candidate: [ItemIcons]) -> Int? {
        let common = min(items.count, candidate.count)
        for index in 0..<common {
            let mine = items[index], theirs = candidate[index]
            if !ContentEquality.same(mine.icon, theirs.icon) { return index * 2 }
            if !ContentEquality.same(mine.selectedIcon, theirs.selectedIcon) { return index * 2 + 1 }
        }
        return items.count == candidate.count ? nil : common * 2
    }
}
