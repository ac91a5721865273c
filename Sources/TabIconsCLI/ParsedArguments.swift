/// A small command-line parser: long and short options, `--name=value`, `--` to end options, and
/// `-` as a positional (stdin). The toolchain ships no argument parser and no package can be
/// fetched, so this is ours. It knows options only through a command's declarations
/// (`CommandDeclaration`), which also give its defaults; each command gives the words meaning.
struct ParsedArguments {
    /// A mistake in the command line: reported with the usage, exit status 2.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Given values, by long name.
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    /// The refused options that were given, in the order given (`refusal`).
    private var refusedGiven: [CommandOption] = []
    private(set) var positionals: [String] = []
    let command: CommandDeclaration

    init(_ arguments: [String], command: CommandDeclaration) throws(UsageError) {
        self.command = command
        var lookup: [String: (option: CommandOption, refused: Bool)] = [:]
        for option in command.options { for name in option.names { lookup[name] = (option, false) } }
        for option in command.refused { for name in option.names { lookup[name] = (option, true) } }
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
            guard let (option, refused) = lookup[name] else {
                let known = command.options.flatMap(\.names) + CommandOption.help.names
                let hint = Suggestion.closest(to: name, among: known).map { " (did you mean \($0)?)" } ?? ""
                throw UsageError(description: "unknown option \(name)\(hint)")
            }
            if refused { refusedGiven.append(option) }
            if option.takesValue {
                if let inlineValue {
                    values[option.long] = inlineValue
                } else if index < arguments.count {
                    values[option.long] = arguments[index]
                    index += 1
                } else {
                    throw UsageError(description: "\(name) needs a value")
                }
            } else {
                if inlineValue != nil { throw UsageError(description: "\(name) takes no value") }
                flags.insert(option.long)
            }
        }
    }

    /// Whether a command's arguments ask for its help: `-h` or `--help` before any `--`, so a
    /// file that happens to be named `--help` can still be given after `--`.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        for word in arguments {
            if word == "--" { return false }
            if CommandOption.help.names.contains(word) { return true }
        }
        return false
    }

    /// Whether a flag was given.
    func has(_ option: CommandOption) -> Bool { flags.contains(option.long) }

    /// Whether an option was given, with or without a value.
    func gave(_ option: CommandOption) -> Bool { flags.contains(option.long) || values[option.long] != nil }

    /// The option's value as given, else its declared default (`OptionDefault.value`), else nil.
    func value(_ option: CommandOption) -> String? {
        if let given = values[option.long] { return given }
        if case .value(let text) = option.defaultValue { return text }
        return nil
    }

    /// The first refused option given, as a usage error: `--json does not apply to preview, which
    /// writes only the page`. Commands call it after their own first checks, so a missing input is
    /// still named first.
    func checkRefused() throws(UsageError) {
        guard let option = refusedGiven.first else { return }
        throw UsageError(description: "\(option.longName) does not apply to \(command.name), \(command.refusedReason)")
    }
}

extension ParsedArguments.UsageError {
    init(_ description: String) { self.init(description: description) }
}
