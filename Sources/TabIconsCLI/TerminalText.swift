/// Text from outside (file names, messages that quote them) made safe for a terminal or a log
/// (SPEC §6a: names are printed escaped, no raw control characters, in every line the CLI
/// writes). A name holding a newline could otherwise forge a `write …` line of `--check`, and an
/// escape sequence could rewrite the terminal.
enum TerminalText {
    /// `text` with every control character (C0, DEL, C1) written as a C escape (`\n`, `\t`, `\r`)
    /// or octal bytes (`\033`), as git writes them.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return escape(text, quoting: false)
    }

    /// A name as git quotes a path: unchanged when it holds nothing special, otherwise in double
    /// quotes with control characters, `"` and `\` escaped (`"new\nline.png"`).
    static func quoted(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: { isControl($0) || $0 == "\"" || $0 == "\\" }) else { return name }
        return "\"" + escape(name, quoting: true) + "\""
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func escape(_ text: String, quoting: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\"" where quoting: out += "\\\""
            case "\\" where quoting: out += "\\\\"
            case _ where isControl(scalar):
                for byte in String(scalar).utf8 {
                    let octal = String(byte, radix: 8)
                    out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
