import Foundation

/// One tab of the preview: an icon, and the icon its app shows when the tab is selected.
///
/// Icons pair by name, as icon sets are drawn: `home` with `home-filled`, `home-selected`,
/// `home-fill` or `home.fill` (SF Symbols' spelling), in the same folder. An icon with no twin
/// is its own selected state (UIKit and Material both use the one image for both states), and a
/// `-filled` icon with no plain sibling is a tab of its own.
package struct PreviewTab: Sendable, Equatable {
    /// Index into the document's icons: the unselected image.
    package var icon: Int
    /// Index of the selected twin, nil when the tab uses `icon` for both states.
    package var selected: Int?

    /// The suffixes that mark a selected twin, longest first so `-filled` is not read as `-fill`.
    package static let selectedSuffixes = ["-selected", "-filled", "-fill", ".fill"]

    /// Tabs in the order their first icon appears in `icons` (the manifest's input order).
    package static func pair(_ icons: [PreviewDocument.Icon]) -> [PreviewTab] {
        var indexByKey: [String: Int] = [:]
        for (index, icon) in icons.enumerated() where indexByKey[key(icon.entry.input, icon.entry.name)] == nil {
            indexByKey[key(icon.entry.input, icon.entry.name)] = index
        }
        var twinOf: [Int: Int] = [:]
        var isTwin = Set<Int>()
        for (index, icon) in icons.enumerated() {
            guard let base = baseName(icon.entry.name),
                  let plain = indexByKey[key(icon.entry.input, base)], plain != index, twinOf[plain] == nil else { continue }
            twinOf[plain] = index
            isTwin.insert(index)
        }
        return icons.indices.filter { !isTwin.contains($0) }.map { PreviewTab(icon: $0, selected: twinOf[$0]) }
    }

    /// `home` for `home-filled` and the other selected spellings; nil for a plain name.
    package static func baseName(_ name: String) -> String? {
        for suffix in selectedSuffixes where name.count > suffix.count && name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count))
        }
        return nil
    }

    /// Folder of the input plus a name: twins pair only within one folder.
    private static func key(_ input: String, _ name: String) -> String {
        (input as NSString).deletingLastPathComponent + "\u{0}" + name
    }
}
