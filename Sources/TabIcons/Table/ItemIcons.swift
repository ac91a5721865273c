import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import Foundation

/// One tab item's icon bytes, as a bar publishes them to an `IconTable` (SPEC §5): the icon shown
/// always, and the icon shown while the item is selected. Either may be absent — the item then uses
/// a system symbol, a tint of the other icon, or its title alone; the table does not care which.
///
/// From a `tabicon normalize` run: `ItemIcons(entry:in:outputRoot:)` (TabIconsBatch, which owns
/// the manifest) reads an icon's rendition and its selected twin's, or their dark twins'.
///
/// Equality is by content (`Data`'s own `==`): two values built from different buffers holding the
/// same bytes are equal, which is what the table's revisions promise too.
public struct ItemIcons: Sendable, Hashable {
    /// The always-shown (unselected) icon's encoded bytes: PNG, JPEG or WebP, or base64 / a
    /// `data:` URL of one of them.
    public var icon: Data?
    /// The selected-state icon's encoded bytes.
    public var selectedIcon: Data?

    public init(icon: Data? = nil, selectedIcon: Data? = nil) {
        self.icon = icon
        self.selectedIcon = selectedIcon
    }

    /// No byte icon at all. A bar whose items are all empty holds no table entry (it publishes
    /// revision 0). An empty `Data` is *not* "no icon": it is published like any bytes (and fails
    /// to decode), exactly as the reference treats `Some` of an empty buffer.
    public var isEmpty: Bool { icon == nil && selectedIcon == nil }

    /// The icon for one state: `selected ? selectedIcon : icon`.
    public func bytes(selected: Bool) -> Data? { selected ? selectedIcon : icon }
}
