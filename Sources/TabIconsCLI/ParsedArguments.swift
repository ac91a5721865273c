/// A small command-line parser: long and short options, `--name=value`, `--` to end options, and
/// `-` as a positional (stdin). The toolchain ships no argument parser and no package can be
/// fetched, so this is ours; it only splits words; each command gives them meaning.
struct ParsedArguments {
    /// An option a command accepts: its spellings, and whether it takes a value.
    struct Option {
        let names: [String]
        let takesValue: Bool

        static func flag(_ names: String...) -> Option { Option(names: names, takesValue: false) }
        static func value(_ names: String...) -> Option { Option(names: names, takesValue: true) }

        /// The canonical name: the first spelling, without dashes.
        var key: String { String(names[0].drop { $0 == "-" }) }
    }

    /// A mistake in the command line: reported with the usage, exit status 2.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    init(_ arguments: [String], options: [Option]) throws(UsageError) {
        var lookup: [String: Option] = [:]
        for option in options { for name in option.names { lookup[name] = option } }
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            var inlineValue: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = lookup[name] else { throw UsageError(description: "unknown option \(name)") }
            if option.takesValue {
                if let inlineValue {
                    values[option.key] = inlineValue
                } else if index < arguments.count {
                    values[option.key] = arguments[index]
                    index += 1
                } else {
                    throw UsageError(description: "\(name) needs a value")
                }
            } else {
                if inlineValue != nil { throw UsageError(description: "\(name) takes no value") }
                flags.insert(option.key)
            }
        }
    }

    /// Whether a command's arguments ask for its help: `-h` or `--help` before any `--`, so a
    /// file that happens to be named `--help` can still be given after `--`.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        for word in arguments {
            if word == "--" { return false }
            if word == "-h" || word == "--help" { return true }
        }
        return false
    }

    func has(_ key: String) -> Bool { flags.contains(key) }
    func value(_ key: String) -> String? { values[key] }
}
