/// One option, declared once: its spellings, whether it takes a value (and what kind, for the
/// help and for shell completion), its default and its help. The parser (`ParsedArguments`),
/// each command's `--help`, the completion scripts, the man page and the README check are all
/// generated from these declarations (`CommandOption+Declarations.swift`), so they cannot drift
/// apart; swift-argument-parser is the model.
struct CommandOption: Sendable, Hashable {
    /// The long name without dashes (`out`); with `short`, what the user types.
    let long: String
    /// The one-letter spelling (`o` for `-o`), if any.
    let short: Character?
    /// What the option takes; nil for a flag.
    let value: OptionValue?
    let defaultValue: OptionDefault
    /// One sentence or two, for `--help` (wrapped there) and the man page.
    let help: String

    init(
        _ long: String, short: Character? = nil, value: OptionValue? = nil, default defaultValue: OptionDefault = .none,
        help: String
    ) {
        self.long = long
        self.short = short
        self.value = value
        self.defaultValue = defaultValue
        self.help = help
    }

    /// `--out`: the spelling messages name the option by.
    var longName: String { "--" + long }
    /// `-o`, if any.
    var shortName: String? { short.map { "-\($0)" } }
    /// Every spelling: `["-o", "--out"]`.
    var names: [String] { [shortName, longName].compactMap { $0 } }
    var takesValue: Bool { value != nil }

    /// `-o, --out DIR`, as help and the man page show it.
    var label: String { names.joined(separator: ", ") + (value.map { " " + $0.name } ?? "") }

    /// The help sentence with its default, as `--help` and the man page print it.
    var helpWithDefault: String {
        switch defaultValue {
        case .none: help
        case .value(let text), .described(let text): help + " (default: \(text))"
        }
    }
}

/// What an option's value is: the name help shows (`DIR`, `N`, `flat|xcassets|android`) and what a
/// shell may complete it with.
struct OptionValue: Sendable, Hashable {
    enum Completion: Sendable, Hashable {
        /// Free text (a number, a list): nothing to offer.
        case none
        case file
        case directory
        /// One of these words (`--layout`); `--box` also takes a number besides its words.
        case words([String])
    }

    let name: String
    let completion: Completion

    static func text(_ name: String) -> OptionValue { OptionValue(name: name, completion: .none) }
    static func file(_ name: String) -> OptionValue { OptionValue(name: name, completion: .file) }
    static func directory(_ name: String) -> OptionValue { OptionValue(name: name, completion: .directory) }
    /// One of `words`, or (with `other`, e.g. `POINTS`) something else of that kind.
    static func choice(_ words: [String], or other: String? = nil) -> OptionValue {
        OptionValue(name: (words + [other].compactMap { $0 }).joined(separator: "|"), completion: .words(words))
    }
}

/// An option's default, said once.
enum OptionDefault: Sendable, Hashable {
    case none
    /// A word the parser answers when the option is absent, as if it had been given.
    case value(String)
    /// A default the command works out (it depends on other options or on the machine); help
    /// shows this description of it.
    case described(String)
}
