import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
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
/// the lock and compare outside it.
///
/// `items` are the `Data` values of the publish that created the entry, kept as they were: a bar
/// that republishes those very buffers passes by representation, without reading a byte
/// (`ContentEquality`), whichever bar first brought the content to the cache. Holding them is
/// also what makes that shortcut sound. It costs nothing when the app keeps its buffers (they are
/// the app's own); when the app makes fresh copies every frame, each entry keeps the one set it
/// was created from — bounded by the mounted bars, released on retire.
final class EntryIcons: Sendable {
    /// The items as published (what `icons(slot:)` answers).
    let items: [ItemIcons]
    /// Two positions per item — icon, then selected icon — `nil` where the item has none.
    let contents: [IconContent?]

    init(items: [ItemIcons], contents: [IconContent?]) {
        self.items = items
        self.contents = contents
    }

    /// The position of an item's icon in `contents`.
    static func position(item: Int, selected: Bool) -> Int { item * 2 + (selected ? 1 : 0) }

    func content(item: Int, selected: Bool) -> IconContent? {
        guard item >= 0, item < items.count else { return nil }
        return contents[Self.position(item: item, selected: selected)]
    }

    /// The first position at which `candidate` differs from these items, or nil when it holds
    /// the same content (the same number of items, each icon present or absent alike and equal
    /// in bytes). This is the whole cost of a republish of unchanged content: for the very same
    /// buffers one `memcmp` over the item arrays; otherwise, per icon, its representation, then
    /// its bytes against the content's copy.
    func firstDifference(from candidate: [ItemIcons]) -> Int? {
        if ContentEquality.sameRepresentations(items, candidate) { return nil }
        let common = min(items.count, candidate.count)
        for position in 0..<(common * 2) where !holds(candidate, at: position) {
            return position
        }
        return items.count == candidate.count ? nil : common * 2
    }

    /// Whether `candidate`'s icon at `position` (< 2 × both counts) is the content held there.
    @inline(__always)
    private func holds(_ candidate: [ItemIcons], at position: Int) -> Bool {
        let selected = position & 1 == 1
        let theirs = candidate[position >> 1].bytes(selected: selected)
        if ContentEquality.sameRepresentation(items[position >> 1].bytes(selected: selected), theirs) { return true }
        guard let content = contents[position], let theirs else { return false }
        return ContentEquality.sameBytes(content.bytes, theirs)
    }
}
