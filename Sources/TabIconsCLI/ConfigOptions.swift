#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import TabIcons
import TabIconsBatch

/// `--config FILE` for `normalize` and `preview` (SPEC §6): the keys a `tabicons.json` may set and
/// how its JSON values become the words each option's own parser reads (`NormalizeCommand`), so
/// a value means in the file what it means on the command line.
///
/// Values: a flag (`trim`, `allow-upscale`) is `true` or `false` (an entry may turn off what the
/// command line turned on); `box`, `padding` and `quality` a number or a string (`25`, `"compact"`,
/// `"10%"`); `scales` a list of numbers or a string (`[1, 2, 3]`, `"1,2,3"`); the rest a string.
enum ConfigOptions {
    /// Read from the current folder when `--config` is not given and the file is there.
    static let defaultFile = "tabicons.json"

    /// What an `icons` entry may set (`options` too): what one icon is made with.
    static let perIcon: [CommandOption] = [
        .box, .shape, .trim, .render, .filter, .padding, .allowUpscale, .format, .quality, .strokeWidth, .fit, .centre
    ]
    /// What only `options` may set: the run's plan lays every icon's files out by them.
    static let runWide: [CommandOption] = [.layout, .scales, .vector, .symbols, .symbolWeights]
    /// Keys whose value may be a JSON number.
    private static let numeric: [CommandOption] = [.box, .padding, .quality, .strokeWidth, .fit]

    /// The config of this command: `--config FILE`'s (which must exist), else `./tabicons.json`
    /// when present, else none.
    static func load(_ parsed: ParsedArguments) throws(ParsedArguments.UsageError) -> IconConfig? {
        let given = parsed.value(.config)
        if given?.isEmpty == true { throw .init("--config needs a path, not an empty word") }
        // `./tabicons.json` only for a command whose `--config` says so (`render` reads only what it is handed).
        guard let path = given ?? (parsed.command.options.contains(.config) ? defaultFile : nil) else { return nil }
        do throws(IconConfig.Failure) {
            return try IconConfig.load(path, required: given != nil)
        } catch {
            // A manifest where the config is looked for (the recipes of 0.3 named theirs
            // tabicons.json): said as such, not as a config with a stray key.
            guard error.place == nil, isManifest(path) else { throw .init(message(error)) }
            throw .init(
                given == nil
                    ? "./\(defaultFile) is a tabicon manifest, not a config: tabicon reads ./\(defaultFile) as its "
                        + "--config when there is one. Move the manifest elsewhere (--manifest FILE; the default is "
                        + "OUT/\(BatchNormalizer.defaultManifestName)), or name the config with --config FILE"
                    : "--config \(TerminalText.quoted(path)) is a tabicon manifest (what --manifest writes), not a config")
        }
    }

    /// Whether the file at `path` begins as a tabicon manifest does (`{"version": 1, "tool":
    /// "tabicon …"`): only its first bytes are read, and only from a regular file (no link, FIFO
    /// or device: the config reader has refused those already, and this must not block on one).
    static func isManifest(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        var head = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &head, head.count)
        guard count > 0 else { return false }
        let text = String(decoding: head[..<count], as: UTF8.self)
        return text.range(of: #"^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"tool"\s*:\s*"tabicon "#, options: .regularExpression) != nil
    }

    /// `--config tabicons.json: icons[2].box must be …`: the file and the place named, escaped.
    static func message(_ failure: IconConfig.Failure) -> String {
        let place = failure.place.map { ": " + TerminalText.quoted($0) } ?? ""
        return "--config \(TerminalText.quoted(failure.file))\(place) \(failure.reason)"
    }

    /// The words of `options` (all keys allowed) or of an `icons` entry (the per-icon keys), each
    /// tagged with its place for the parsers' messages.
    static func words(_ settings: [IconConfig.Setting], file: String, perIconOnly: Bool) throws(ParsedArguments.UsageError)
        -> OptionWords
    {
        var words = OptionWords()
        for setting in settings {
            func fail(_ reason: String) -> ParsedArguments.UsageError {
                .init(message(IconConfig.Failure(file: file, place: setting.place, reason: reason)))
            }
            let keys = perIcon + runWide
            guard let option = keys.first(where: { $0.long == setting.key }) else {
                let hint =
                    Suggestion.closest(to: "--" + setting.key, among: keys.map(\.longName))
                    .map { " (did you mean \($0.dropFirst(2))?)" } ?? ""
                throw fail("is not a setting\(hint); the keys are " + keys.map(\.long).joined(separator: ", "))
            }
            if perIconOnly, !perIcon.contains(option) {
                throw fail("is the same for every icon of a run; set it in \"options\"")
            }
            let text: String
            switch setting.value {
            case .bool(let on) where !option.takesValue: text = on ? "true" : "false"
            case _ where !option.takesValue: throw fail("must be true or false")
            case .string(let word): text = word
            case .int(let number) where numeric.contains(option): text = String(number)
            case .double(let number) where numeric.contains(option): text = String(number)
            case .array(let items) where option == .scales:
                let numbers = items.compactMap { item -> String? in
                    switch item {
                    case .int(let number): String(number)
                    case .double(let number): String(number)
                    default: nil
                    }
                }
                guard numbers.count == items.count, !numbers.isEmpty else {
                    throw fail("must be a list of numbers, such as [1, 2, 3]")
                }
                text = numbers.joined(separator: ",")
            default:
                throw fail(
                    option == .scales
                        ? "must be a list of numbers or a string, such as [1, 2, 3] or \"1,2,3\""
                        : numeric.contains(option) ? "must be a number or a string" : "must be a string")
            }
            words.set(option, text, origin: "--config \(TerminalText.quoted(file)): \(TerminalText.quoted(setting.place))")
        }
        return words
    }
}

/// The words that decide how icons are made, by option, each with where it came from: the
/// command line, or a place in `--config`'s file. Layers overlay one another in the order of
/// SPEC §6's precedence, and messages name the option by where its word came from.
struct OptionWords {
    private struct Word {
        var text: String
        /// `--config tabicons.json: icons[2].box`; nil for the command line.
        var origin: String?
    }

    private var words: [String: Word] = [:]

    init() {}

    /// The words `parsed` gave for `options` (a flag given is `true`).
    init(commandLine parsed: ParsedArguments, _ options: [CommandOption]) {
        for option in options where parsed.gave(option) {
            words[option.long] = Word(text: option.takesValue ? parsed.value(option) ?? "" : "true")
        }
    }

    mutating func set(_ option: CommandOption, _ text: String, origin: String?) {
        words[option.long] = Word(text: text, origin: origin)
    }

    /// These words with `other`'s in place of any they both hold.
    func overlaid(by other: OptionWords) -> OptionWords {
        var result = self
        result.words.merge(other.words) { _, new in new }
        return result
    }

    /// Whether some layer gave the option.
    func gave(_ option: CommandOption) -> Bool { words[option.long] != nil }

    /// The option's word, else its declared default (`OptionDefault.value`), else nil.
    func value(_ option: CommandOption) -> String? {
        if let word = words[option.long] { return word.text }
        if case .value(let text) = option.defaultValue { return text }
        return nil
    }

    /// Whether a flag is on.
    func flag(_ option: CommandOption) -> Bool { words[option.long]?.text == "true" }

    /// How messages name the option: `--box`, or the place in the config that set it.
    func name(_ option: CommandOption) -> String { words[option.long]?.origin ?? option.longName }
}
