import Foundation

/// Twins (SPEC §3): an icon's selected twin (`home-filled`, `-selected`, `-fill`, `.fill`) and its
/// dark twin (`home-dark`, `.dark`), found by name in the same folder. The one pairing rule: the
/// manifest's `selectedTwin` / `darkTwin` links and the preview's tabs both come from it.
package enum IconTwins {
    package enum Kind: Sendable, Equatable {
        case selected
        case dark
    }

    /// The suffixes that mark a selected twin, longest first so `-filled` is not read as `-fill`.
    package static let selectedSuffixes = ["-selected", "-filled", "-fill", ".fill"]
    /// The suffixes that mark a dark twin.
    package static let darkSuffixes = ["-dark", ".dark"]

    /// `home` and the kind for `home-filled`, `home.dark` and the other spellings; nil for a plain
    /// name (a bare `-dark` is a name, not a twin of nothing).
    package static func base(of name: String) -> (name: String, kind: Kind)? {
        for (suffixes, kind) in [(darkSuffixes, Kind.dark), (selectedSuffixes, Kind.selected)] {
            for suffix in suffixes where name.count > suffix.count && name.hasSuffix(suffix) {
                return (String(name.dropLast(suffix.count)), kind)
            }
        }
        return nil
    }

    /// For each entry (input path and name), the index of its selected and dark twin among them:
    /// the first entry of that folder whose name is the entry's name plus a suffix of the kind.
    /// A twin is linked to one icon only.
    package static func links(_ entries: [(input: String, name: String)]) -> [(selected: Int?, dark: Int?)] {
        var indexByKey: [String: Int] = [:]
        for (index, entry) in entries.enumerated() where indexByKey[key(entry.input, entry.name)] == nil {
            indexByKey[key(entry.input, entry.name)] = index
        }
        var links = [(selected: Int?, dark: Int?)](repeating: (nil, nil), count: entries.count)
        for (index, entry) in entries.enumerated() {
            guard let base = base(of: entry.name), let plain = indexByKey[key(entry.input, base.name)], plain != index
            else { continue }
            switch base.kind {
            case .selected where links[plain].selected == nil: links[plain].selected = index
            case .dark where links[plain].dark == nil: links[plain].dark = index
            default: break
            }
        }
        return links
    }

    /// Folder of the input plus a name: twins pair only within one folder.
    private static func key(_ input: String, _ name: String) -> String {
        (input as NSString).deletingLastPathComponent + "\u{0}" + name
    }
}
