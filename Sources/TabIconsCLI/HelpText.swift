import TabIcons
import TabIconsBatch

/// `tabicon --help` and each command's `--help`, generated from the declarations
/// (`CommandDeclaration`, `CommandOption`).
enum HelpText {
    /// Lines are wrapped to this width, as a terminal of 100 columns shows them.
    static let width = 100

    static var usage: String {
        var lines = [
            "\(TabIconsVersion.tool): fit icons into the tab-bar icon box (PNG, JPEG, WebP, SVG)", "",
            "usage:"
        ]
        let rows =
            CommandDeclaration.visible.map { ("tabicon \($0.name) \($0.synopsis)", $0.summary) }
            + [("tabicon --help | --version", ""), ("tabicon COMMAND --help", "one command's options")]
        for (synopsis, summary) in rows { lines += table(synopsis, summary, indent: 2, column: 48) }
        lines.append("")
        let extensions = InputCollector.imageExtensions.sorted().map { "." + $0 }.joined(separator: " ")
        lines += wrap(
            "Directories are walked for \(extensions); '-' reads stdin. Exit status: 0 all inputs done, "
                + "1 some inputs failed (every good one still done) or --check found changes, 2 usage.")
        return lines.joined(separator: "\n")
    }

    static func usage(of command: CommandDeclaration) -> String {
        var lines = ["usage: tabicon \(command.name) \(command.synopsis)", ""]
        lines += wrap(command.about)
        lines += ["", "options:"]
        for option in command.helpOptions { lines += table(option.label, option.helpWithDefault, indent: 2, column: 29) }
        if !command.refused.isEmpty {
            lines.append("")
            lines += wrap(
                "Not for \(command.name), \(command.refusedReason): "
                    + command.refused.map(\.longName).joined(separator: ", ") + ".")
        }
        lines.append("")
        lines += wrap("Exit status: " + command.exitStatus)
        return lines.joined(separator: "\n")
    }

    /// `left` in a column, `right` wrapped beside it from `column` on (below it when `left` is too
    /// wide to leave two spaces).
    static func table(_ left: String, _ right: String, indent: Int, column: Int) -> [String] {
        let head = String(repeating: " ", count: indent) + left
        guard !right.isEmpty else { return [head] }
        let body = wrap(right, width: width - column)
        let pad = String(repeating: " ", count: column)
        if head.count + 2 <= column {
            return [head + String(repeating: " ", count: column - head.count) + body[0]] + body.dropFirst().map { pad + $0 }
        }
        return [head] + body.map { pad + $0 }
    }

    /// `text` in lines of at most `width` characters, broken between words.
    static func wrap(_ text: String, width: Int = HelpText.width) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }
}
