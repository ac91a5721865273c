import TabIcons

/// A `--config` icons entry's `match` (SPEC §6): a glob over an input's path as the manifest
/// records it (`icons/home.png`).
///
/// - `*` any run of characters inside one folder name (no `/`), `?` one such character;
/// - `**` any run of characters across folders; `**/` as a whole folder name any number of whole
///   folders, none too (`**/home.png` matches `home.png` and `a/b/home.png`);
/// - `[abc]`, `[a-z]`, `[!a-z]` (or `[^a-z]`) one character of the set, never `/`; a `]` first in
///   the set is itself;
/// - `\x` the character `x` itself (for names holding `*`, `?` or `[`);
/// - anything else itself, case-sensitively. A leading `./` of the pattern or the path is not part
///   of the name.
///
/// Matched by simulating every position of the pattern at once over the path (no backtracking):
/// the cost is the pattern's length times the path's, whatever `*` and `**` it holds.
public struct IconGlob: Sendable, Equatable {
    /// The pattern as written.
    public let pattern: String
    private let tokens: [Token]

    /// The longest pattern taken: longer is not a path pattern, and the match costs its length.
    public static let maxLength = 4096

    private enum Token: Sendable, Equatable {
        case character(Character)
        /// `?`
        case one
        /// `*`
        case star
        /// `**`
        case globstar
        /// Before the `**` and `/` of a `**/`: matches nothing itself, and lets the pattern go on
        /// either into them or past both (no folder at all). Only here, where the `**` has read
        /// nothing yet, may the `/` be skipped.
        case folders
        /// `[...]`
        case set(negated: Bool, items: [SetItem])
    }

    private enum SetItem: Sendable, Equatable {
        case character(Character)
        case range(Character, Character)
    }

    /// Why a pattern is not one.
    public struct Invalid: Error, Sendable, Equatable {
        public let reason: String
    }

    public init(_ pattern: String) throws(Invalid) {
        self.pattern = pattern
        guard !pattern.isEmpty else { throw Invalid(reason: "an empty pattern matches nothing") }
        guard pattern.count <= Self.maxLength else { throw Invalid(reason: "longer than \(Self.maxLength) characters") }
        let characters = Array(Self.withoutDotSlash(pattern))
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            let c = characters[index]
            index += 1
            switch c {
            case "\\":
                guard index < characters.count else { throw Invalid(reason: "it ends with a lone \\") }
                tokens.append(.character(characters[index]))
                index += 1
            case "?": tokens.append(.one)
            case "*":
                guard index < characters.count, characters[index] == "*" else {
                    tokens.append(.star)
                    continue
                }
                while index < characters.count, characters[index] == "*" { index += 1 }   // `***` is `**`
                // `**/` as a whole folder name (at the start, or after a `/`) may be no folder.
                let wholeName = tokens.isEmpty || tokens.last == .character("/")
                if wholeName, index < characters.count, characters[index] == "/" {
                    tokens += [.folders, .globstar, .character("/")]
                    index += 1
                } else {
                    tokens.append(.globstar)
                }
            case "[":
                let (token, next) = try Self.set(characters, from: index)
                tokens.append(token)
                index = next
            default: tokens.append(.character(c))
            }
        }
        self.tokens = tokens
    }

    /// Whether `path` matches the whole pattern.
    public func matches(_ path: String) -> Bool {
        let text = Array(Self.withoutDotSlash(path))
        // live[i]: the pattern's first i tokens can match the text read so far.
        var live = [Bool](repeating: false, count: tokens.count + 1)
        var next = live
        live[0] = true
        close(&live)
        for c in text {
            for i in next.indices { next[i] = false }
            var any = false
            for i in tokens.indices where live[i] {
                switch tokens[i] {
                case .character(let expected): if c == expected { next[i + 1] = true; any = true }
                case .one: if c != "/" { next[i + 1] = true; any = true }
                case .star: if c != "/" { next[i] = true; any = true }
                case .globstar: next[i] = true; any = true
                case .folders: break
                case .set(let negated, let items):
                    if c != "/", Self.contains(items, c) != negated { next[i + 1] = true; any = true }
                }
            }
            guard any else { return false }
            swap(&live, &next)
            close(&live)
        }
        return live[tokens.count]
    }

    /// Adds the positions reachable without reading a character (in one pass: they only lead
    /// forward): past a `*` or `**` that matches nothing, and past a whole `**/` that matches no
    /// folder.
    private func close(_ live: inout [Bool]) {
        for i in tokens.indices where live[i] {
            switch tokens[i] {
            case .star, .globstar: live[i + 1] = true
            case .folders:
                live[i + 1] = true
                live[i + 3] = true   // past its `**` and `/`
            default: break
            }
        }
    }

    private static func contains(_ items: [SetItem], _ c: Character) -> Bool {
        items.contains { item in
            switch item {
            case .character(let member): c == member
            case .range(let low, let high): low <= c && c <= high
            }
        }
    }

    /// `[...]` from just after its `[`: the token and the index after its `]`.
    private static func set(_ characters: [Character], from start: Int) throws(Invalid) -> (Token, Int) {
        var index = start
        var negated = false
        if index < characters.count, characters[index] == "!" || characters[index] == "^" {
            negated = true
            index += 1
        }
        var items: [SetItem] = []
        var first = true
        while index < characters.count {
            var c = characters[index]
            if c == "]" && !first { return (.set(negated: negated, items: items), index + 1) }
            first = false
            index += 1
            if c == "\\", index < characters.count {
                c = characters[index]
                index += 1
            }
            if index + 1 < characters.count, characters[index] == "-", characters[index + 1] != "]" {
                var high = characters[index + 1]
                index += 2
                if high == "\\", index < characters.count {
                    high = characters[index]
                    index += 1
                }
                guard c <= high else { throw Invalid(reason: "the range \(c)-\(high) runs backwards") }
                items.append(.range(c, high))
            } else {
                items.append(.character(c))
            }
        }
        throw Invalid(reason: "a [ without its ]")
    }

    private static func withoutDotSlash(_ text: String) -> Substring {
        var rest = Substring(text)
        while rest.hasPrefix("./") { rest = rest.dropFirst(2) }
        return rest
    }
}
