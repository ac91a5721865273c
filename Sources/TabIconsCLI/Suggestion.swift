/// "Did you mean …?" for a mistyped option or command: the known word nearest to what was typed,
/// when it is near enough to be a typo rather than another word.
enum Suggestion {
    /// The candidate of the same kind (a command, or a `--long` option) closest to `word` by edit
    /// distance, if within a typo's reach: 2 edits, or a third of the word for long ones. A word
    /// that is the start of exactly one candidate (`--allow` for `--allow-upscale`) is suggested
    /// too. Ties go to the first candidate, so the answer does not depend on a set's order. A
    /// one-letter option gets none: every other letter is one edit away.
    static func closest(to word: String, among all: [String]) -> String? {
        let typed = Array(undashed(word))
        let dashes = word.count - typed.count
        guard !typed.isEmpty, dashes != 1 else { return nil }
        let candidates = all.filter { $0.count - undashed($0).count == dashes }
        let prefixed = candidates.filter { undashed($0).hasPrefix(String(typed)) }
        if prefixed.count == 1 { return prefixed[0] }
        let reach = max(2, typed.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(undashed(candidate)))
            if distance <= reach, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Levenshtein distance: the fewest insertions, deletions and substitutions from `a` to `b`
    /// (one row of the table at a time).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    private static func undashed(_ word: String) -> Substring { word.drop { $0 == "-" } }
}
