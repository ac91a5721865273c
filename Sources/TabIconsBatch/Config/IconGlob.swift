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
/// Characters are Unicode scalars (a precomposed `ä` is one, a decomposed one two). Matched by
/// simulating every position of the pattern at once over the path (no backtracking): the cost is
/// at most the pattern's length times the path's, whatever `*` and `**` it holds.
package struct IconGlob: Sendable, Equatable {
    /// The pattern as written.
    package let pattern: String
    private let tokens: [Token]
    /// The literal characters the pattern starts and ends with: a path without them is refused
    /// before any simulation (most entries do not match most inputs, hostile ones included).
    private let prefix: [Unicode.Scalar]
    private let suffix: [Unicode.Scalar]

    /// The longest pattern taken: longer is not a path pattern, and the match costs its length.
    package static let maxLength = 4096

    private enum Token: Sendable, Equatable {
        case character(Unicode.Scalar)
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
        case character(Unicode.Scalar)
        case range(Unicode.Scalar, Unicode.Scalar)
    }

    /// Why a pattern is not one.
    package struct Invalid: Error, Sendable, Equatable {
        package let reason: String
    }

    package init(_ pattern: String) throws(Invalid) {
        self.pattern = pattern
        guard !pattern.isEmpty else { throw Invalid(reason: "an empty pattern matches nothing") }
        guard pattern.unicodeScalars.count <= Self.maxLength else {
            throw Invalid(reason: "longer than \(Self.maxLength) characters")
        }
        let characters = Self.text(pattern)
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
                while index < characters.count, characters[index] == "*" { index += 1 }  // `***` is `**`
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
        let literals = tokens.map { token -> Unicode.Scalar? in if case .character(let c) = token { c } else { nil } }
        let head = literals.prefix { $0 != nil }.count
        prefix = literals[..<head].compactMap { $0 }
        // From the end, stopping at the `/` of a `**/`, which may match nothing.
        var tail = tokens.count
        while tail > head, literals[tail - 1] != nil, !(tail - 1 >= 2 && tokens[tail - 3] == .folders) { tail -= 1 }
        suffix = literals[tail...].compactMap { $0 }
    }

    /// Whether `path` matches the whole pattern.
    package func matches(_ path: String) -> Bool { matches(text: Self.text(path)) }

    /// A path as the matcher reads it: Unicode scalars, without a leading `./`.
    package static func text(_ path: String) -> [Unicode.Scalar] {
        var rest = Substring(path)
        while rest.hasPrefix("./") { rest = rest.dropFirst(2) }
        return Array(rest.unicodeScalars)
    }

    /// Whether `text` (`IconGlob.text`) matches the whole pattern: the positions of the pattern
    /// the text read so far can have reached, carried over each character.
    package func matches(text: [Unicode.Scalar]) -> Bool {
        guard text.count >= prefix.count + suffix.count, text.starts(with: prefix),
            text.reversed().starts(with: suffix.reversed())
        else { return false }
        var run = Simulation(tokens: tokens)
        run.add(0, step: 0)
        for (offset, c) in text.enumerated() {
            let step = offset + 1
            swap(&run.live, &run.next)
            run.live.removeAll(keepingCapacity: true)
            for i in run.next where i < tokens.count {
                switch tokens[i] {
                case .character(let expected): if c == expected { run.add(i + 1, step: step) }
                case .one: if c != "/" { run.add(i + 1, step: step) }
                case .star: if c != "/" { run.add(i, step: step) }
                case .globstar: run.add(i, step: step)
                case .folders: break
                case .set(let negated, let items):
                    if c != "/", Self.contains(items, c) != negated { run.add(i + 1, step: step) }
                }
            }
            if run.live.isEmpty { return false }
        }
        return run.live.contains(tokens.count)
    }

    /// The live positions of one match, in buffers reused over its steps.
    private struct Simulation {
        let tokens: [Token]
        var live: [Int] = []
        var next: [Int] = []
        /// added[i] == step: position i is already live for this step.
        var added: [Int]
        var pending: [Int] = []

        init(tokens: [Token]) {
            self.tokens = tokens
            added = [Int](repeating: -1, count: tokens.count + 1)
        }

        /// Makes `start` live, and the positions reachable from it without reading a character:
        /// past a `*` or `**` that matches nothing, and past a whole `**/` that matches no folder.
        mutating func add(_ start: Int, step: Int) {
            pending.append(start)
            while let i = pending.popLast() {
                guard added[i] != step else { continue }
                added[i] = step
                live.append(i)
                guard i < tokens.count else { continue }
                switch tokens[i] {
                case .star, .globstar: pending.append(i + 1)
                case .folders:
                    pending.append(i + 1)  // into its `**`
                    pending.append(i + 3)  // or past it and its `/`
                default: break
                }
            }
        }
    }

    private static func contains(_ items: [SetItem], _ c: Unicode.Scalar) -> Bool {
        items.contains { item in
            switch item {
            case .character(let member): c == member
            case .range(let low, let high): low <= c && c <= high
            }
        }
    }

    /// `[...]` from just after its `[`: the token and the index after its `]`.
    private static func set(_ characters: [Unicode.Scalar], from start: Int) throws(Invalid) -> (Token, Int) {
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
}
