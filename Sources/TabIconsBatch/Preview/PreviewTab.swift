import Foundation

/// One tab of the preview: an icon, and the icon its app shows when the tab is selected.
///
/// Icons pair by name (`IconTwins`), as icon sets are drawn: `home` with `home-filled`,
/// `home-selected`, `home-fill` or `home.fill` (SF Symbols' spelling), in the same folder. An icon with no twin
/// is its own selected state (UIKit and Material both use the one image for both states), and a
/// `-filled` icon with no plain sibling is a tab of its own.
package struct PreviewTab: Sendable, Equatable {
    /// Index into the document's icons: the unselected image.
    package var icon: Int
    /// Index of the selected twin, nil when the tab uses `icon` for both states.
    package var selected: Int?

    /// Tabs in the order their first icon appears in `icons` (the manifest's input order); the
    /// selected twins by `IconTwins`' rule.
    package static func pair(_ icons: [PreviewDocument.Icon]) -> [PreviewTab] {
        let links = IconTwins.links(icons.map { ($0.entry.input, $0.entry.name) })
        let isTwin = Set(links.compactMap(\.selected))
        return icons.indices.filter { !isTwin.contains($0) }.map { PreviewTab(icon: $0, selected: links[$0].selected) }
    }

    /// `home` for `home-filled` and the other selected spellings; nil for a plain name.
    package static func baseName(_ name: String) -> String? {
        guard let base = IconTwins.base(of: name), base.kind == .selected else { return nil }
        return base.name
    }
}
