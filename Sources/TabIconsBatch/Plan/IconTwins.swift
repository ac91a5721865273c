import Foundation
import TabIcons

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
    /// A twin is linked to one icon only, and a dark twin has no twins.
    package static func links(_ entries: [(input: String, name: String)]) -> [(selected: Int?, dark: Int?)] {
        // Folder, then the name: twins pair only within one folder (a name has no `/`).
        let folders = entries.map { folder(of: $0.input) }
        func key(_ index: Int, _ name: String) -> String { folders[index] + "/" + name }
        var indexByKey: [String: Int] = [:]
        for index in entries.indices.reversed() { indexByKey[key(index, entries[index].name)] = index }  // the first wins
        var links = [(selected: Int?, dark: Int?)](repeating: (nil, nil), count: entries.count)
        for index in entries.indices {
            guard let base = base(of: entries[index].name), let plain = indexByKey[key(index, base.name)], plain != index
            else { continue }
            switch base.kind {
            case .selected where links[plain].selected == nil: links[plain].selected = index
            case .dark where links[plain].dark == nil: links[plain].dark = index
            default: break
            }
        }
        // A dark twin has no twins of its own: its files are its icon's at night (in the icon's
        // image set, under the icon's resource name), where nothing could list or name them.
        // `home-dark-filled` is then an icon of its own; the dark selected icon is `home-filled-dark`.
        for dark in links.compactMap(\.dark) { links[dark] = (nil, nil) }
        return links
    }

    /// An input's folder as `NSString.deletingLastPathComponent` spells it (`a//b/` is `a`, `/x`
    /// is `/`), asked of Foundation only for a path with `//` or a final `/`: a plan asks this of
    /// every input. An input without a `/` (`-`) is in no folder, and not asked of Foundation,
    /// which traps on `-`.
    package static func folder(of input: String) -> String {
        var (lastSlash, previous): (String.Index?, UInt8) = (nil, 0)
        for index in input.utf8.indices {
            let byte = input.utf8[index]
            if byte == UInt8(ascii: "/") {
                if previous == byte { return (input as NSString).deletingLastPathComponent }
                lastSlash = index
            }
            previous = byte
        }
        guard let lastSlash else { return "" }
        if previous == UInt8(ascii: "/") { return (input as NSString).deletingLastPathComponent }
        return lastSlash == input.startIndex ? "/" : String(input[..<lastSlash])
    }
}

extension IconTwins {
    /// Sets every row's `selectedTwin` / `darkTwin` from `twinsOf` (input → the twins' inputs),
    /// where the twin has a row among `icons`, and raises `twin-mismatch` on both rows of a pair
    /// that differs (`Lints.twinMismatch`). Run over the whole run's rows (a carried-over row's
    /// links and twin lints are this run's, not its previous run's).
    package static func link(
        _ icons: inout [Manifest.Icon],
        twinsOf: (String) -> (selected: String?, dark: String?)
    ) {
        var indexOf: [String: Int] = [:]
        for (index, icon) in icons.enumerated() where indexOf[icon.input] == nil { indexOf[icon.input] = index }
        for index in icons.indices { icons[index].lints.removeAll { $0.code == .twinMismatch } }
        var found: [(icon: Int, twin: Int, kind: Kind)] = []
        for index in icons.indices {
            let twins = twinsOf(icons[index].input)
            let selected = twins.selected.flatMap { indexOf[$0] }
            let dark = twins.dark.flatMap { indexOf[$0] }
            icons[index].selectedTwin = selected.map { icons[$0].input }
            icons[index].darkTwin = dark.map { icons[$0].input }
            if let selected { found.append((index, selected, .selected)) }
            if let dark { found.append((index, dark, .dark)) }
        }
        func facts(_ icon: Manifest.Icon) -> Lints.TwinFacts {
            Lints.TwinFacts(pointWidth: icon.pointWidth, pointHeight: icon.pointHeight, intent: icon.intent)
        }
        for (icon, twin, kind) in found {
            let word = kind == .dark ? "dark" : "selected"
            if let lint = Lints.twinMismatch(
                facts(icons[icon]), facts(icons[twin]), about: "its \(word) twin \(icons[twin].input)")
            {
                icons[icon].lints.append(lint)
            }
            if let lint = Lints.twinMismatch(
                facts(icons[twin]), facts(icons[icon]), about: "the icon it is the \(word) twin of, \(icons[icon].input),")
            {
                icons[twin].lints.append(lint)
            }
        }
    }

    /// The same for rows paired by the rule among themselves (`links`): the preview's run.
    package static func link(_ icons: inout [Manifest.Icon]) {
        let links = links(icons.map { (input: $0.input, name: $0.name) })
        var twins: [String: (selected: String?, dark: String?)] = [:]
        for (index, link) in links.enumerated() {
            twins[icons[index].input] = (link.selected.map { icons[$0].input }, link.dark.map { icons[$0].input })
        }
        link(&icons) { twins[$0] ?? (nil, nil) }
    }
}
