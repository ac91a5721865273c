import Foundation

/// One tab of the preview: an icon, and the icon its app shows when the tab is selected.
///
/// Icons pair by name (`IconTwins`): `home` with `home-filled` in the same folder. An icon with no
/// twin is its own selected state, and a `-filled` icon with no plain sibling is a tab of its own.
package struct PreviewTab: Sendable, Equatable {
    /// Index into the document's icons: the unselected image.
    package var icon: Int
    /// Index of the selected twin, nil when the tab uses `icon` for both states.
    package var selected: Int?
    /// Index of the icon's dark twin (`home-dark`, `home.dark`), nil when it has none: what the
    /// dark bars show unselected.
    package var dark: Int? = nil
    /// Index of the selected twin's dark twin (`home-filled-dark`): what the dark bars show selected.
    package var selectedDark: Int? = nil

    /// What a bar in the given appearance shows for each state: a dark twin where there is one,
    /// else the light image (an icon with no dark twin is drawn the same in both appearances).
    package func image(selected isSelected: Bool, dark isDark: Bool) -> Int {
        switch (isSelected, isDark) {
        case (false, false): icon
        case (true, false): selected ?? icon
        case (false, true): dark ?? icon
        case (true, true): selected.map { selectedDark ?? $0 } ?? dark ?? icon
        }
    }

    /// Every icon the tab shows, each once: the icon, its selected twin, their dark twins.
    package var members: [Int] { [icon] + [selected, dark, selectedDark].compactMap { $0 } }

    /// Tabs in the order their first icon appears in `icons` (the manifest's input order); the
    /// selected and dark twins by `IconTwins`' rule are shown in their icon's tab, not as tabs
    /// (a twin of a twin the tab does not show, `home-dark-filled`, is a tab of its own).
    package static func pair(_ icons: [PreviewDocument.Icon]) -> [PreviewTab] {
        let links = IconTwins.links(icons.map { ($0.entry.input, $0.entry.name) })
        let isTwin = Set(links.compactMap(\.selected) + links.compactMap(\.dark))
        func tab(_ index: Int) -> PreviewTab {
            let selected = links[index].selected
            return PreviewTab(
                icon: index, selected: selected, dark: links[index].dark,
                selectedDark: selected.flatMap { links[$0].dark })
        }
        let shown = Set(icons.indices.filter { !isTwin.contains($0) }.flatMap { tab($0).members })
        return icons.indices.filter { !isTwin.contains($0) || !shown.contains($0) }.map(tab)
    }

    /// `home` for `home-filled` and the other selected spellings; nil for a plain name.
    package static func baseName(_ name: String) -> String? {
        guard let base = IconTwins.base(of: name), base.kind == .selected else { return nil }
        return base.name
    }
}
