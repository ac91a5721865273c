import Foundation
import Testing
import TabIconsCore
@testable import TabIconsBatch

/// `--config`'s `match` (SPEC §6): `*` stays inside a folder, `**` crosses folders, and no pattern
/// costs more than its length times the path's.
@Suite("IconGlob")
struct IconGlobTests {
    static let cases: [(String, String, Bool)] = [
        ("icons/home.png", "icons/home.png", true),
        ("icons/home.png", "icons/Home.png", false),  // case-sensitive
        ("icons/*.png", "icons/home.png", true),
        ("icons/*.png", "icons/tabs/home.png", false),  // * stays inside a folder
        ("*.png", "home.png", true),
        ("*.png", "icons/home.png", false),
        ("icons/*", "icons/.hidden", true),
        ("icons/*/home.png", "icons/tabs/home.png", true),
        ("icons/*/home.png", "icons/home.png", false),
        ("icons/**", "icons/a/b/c.png", true),
        ("icons/**", "other/icons/a.png", false),
        ("**/home.png", "home.png", true),  // **/ matches no folder too
        ("**/home.png", "icons/a/b/home.png", true),
        ("**/home.png", "icons/myhome.png", false),  // **/ is whole folders
        ("icons/**/home.png", "icons/home.png", true),
        ("icons/**/home.png", "icons/a/b/home.png", true),
        ("icons/**/home.png", "iconsx/home.png", false),
        ("icons/**.png", "icons/a/b.png", true),  // ** inside a name crosses folders
        ("icons/x**/y.png", "icons/xy.png", false),  // ...but only a whole **/ may be no folder
        ("icons/x**/y.png", "icons/x/y.png", true),
        ("icons/x**/y.png", "icons/xa/b/y.png", true),
        ("icons/h?me.png", "icons/home.png", true),
        ("icons/h?me.png", "icons/hme.png", false),
        ("icons?home.png", "icons/home.png", false),  // ? is never /
        ("icons/[a-h]*.png", "icons/home.png", true),
        ("icons/[a-h]*.png", "icons/star.png", false),
        ("icons/[!a-h]*.png", "icons/star.png", true),
        ("icons/[^a-h]*.png", "icons/home.png", false),
        ("icons[/]home.png", "icons/home.png", false),  // a set is never /
        ("icons/[]x]*.png", "icons/]b.png", true),  // ] first in a set is itself
        ("icons/[a-]*.png", "icons/-b.png", true),  // - last in a set is itself
        ("icons/\\*.png", "icons/*.png", true),  // \* is a literal *
        ("icons/\\*.png", "icons/home.png", false),
        ("icons/\\[a].png", "icons/[a].png", true),
        ("./icons/*.png", "icons/home.png", true),  // a leading ./ is not part of the name
        ("icons/*.png", "./icons/home.png", true),
        ("***/home.png", "a/b/home.png", true),  // *** is **
        ("**", "anything/at/all.svg", true),
        ("*", "a/b", false),
        ("icons/ä*.png", "icons/äpfel.png", true),
        ("icons/?.png", "icons/ä.png", true),  // ? is one character, not one byte
        ("a*b*c", "axxbyyc", true),
        ("a*b*c", "axxbyy", false),
        ("-", "-", true),
        ("icons/**/", "icons/", true),  // the / of a final **/ may be no folder's
        ("icons/**/", "icons/a/", true),
        ("ab*ab", "ab", false),  // a literal start and end never overlap
        ("ab*ab", "abab", true),
        ("a*b", "ab", true),
        ("**/x", "x", true)
    ]

    @Test("each pattern against each path", arguments: cases)
    func matching(pattern: String, path: String, expected: Bool) throws {
        #expect(try IconGlob(pattern).matches(path) == expected, "\(pattern) against \(path)")
    }

    @Test("patterns that are not globs say why")
    func invalid() {
        let cases: [(String, String)] = [
            ("", "an empty pattern matches nothing"),
            ("icons/[a-z", "a [ without its ]"),
            ("icons/[", "a [ without its ]"),
            ("icons/x\\", "it ends with a lone \\"),
            ("icons/[z-a].png", "the range z-a runs backwards"),
            (String(repeating: "a", count: IconGlob.maxLength + 1), "longer than 4096 characters")
        ]
        for (pattern, reason) in cases {
            #expect(throws: IconGlob.Invalid(reason: reason), "\(pattern.prefix(20))") { try IconGlob(pattern) }
        }
        #expect((try? IconGlob(String(repeating: "a", count: IconGlob.maxLength))) != nil)
    }

    /// The same rules written as a regular expression (`*` `[^/]*`, `?` `[^/]`, a whole `**/`
    /// `(?:.*/)?`, `**` `.*`, a set without `/`): a second reading of the rules, by another engine.
    static func regex(_ pattern: String) -> NSRegularExpression {
        let c = Array(pattern)
        var out = "^"
        var i = 0
        while i < c.count {
            switch c[i] {
            case "*" where i + 1 < c.count && c[i + 1] == "*":
                var j = i
                while j < c.count, c[j] == "*" { j += 1 }
                if j < c.count, c[j] == "/", i == 0 || c[i - 1] == "/" {
                    out += "(?:.*/)?"
                    j += 1
                } else {
                    out += ".*"
                }
                i = j
                continue
            case "*": out += "[^/]*"
            case "?": out += "[^/]"
            case "[":
                let close = c[(i + 1)...].firstIndex(of: "]")!
                let body = String(c[(i + 1)..<close])
                out += body.hasPrefix("!") ? "[^/" + body.dropFirst() + "]" : "(?!/)[" + body + "]"
                i = close
            default: out += NSRegularExpression.escapedPattern(for: String(c[i]))
            }
            i += 1
        }
        return try! NSRegularExpression(pattern: out + "$")
    }

    @Test("random patterns and paths: the matcher agrees with the rules as a regular expression")
    func againstRegex() throws {
        var random = SeededGenerator(seed: 20)
        let pieces = ["a", "b", "/", "*", "?", "**", "**/", "[ab]", "[!a]", "a/", "/b"]
        var matched = 0
        for _ in 0..<400 {
            let pattern = (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let glob = try IconGlob(pattern)
            let regex = Self.regex(pattern)
            for _ in 0..<25 {
                let path = String((0..<Int.random(in: 0...8, using: &random)).map { _ in "ab/".randomElement(using: &random)! })
                let expected = regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
                #expect(glob.matches(path) == expected, "\(pattern) against \(path)")
                if expected { matched += 1 }
            }
        }
        // Both answers occur often: the comparison is not of two constant answers.
        #expect(matched > 500 && matched < 9500, "\(matched) of 10000 matched")
    }

    /// Backtracking matchers take exponential time on `a*a*a*…b` against `aaaa…` and on nested `**`
    /// (here: longer than the universe); this one simulates every pattern position at once. The
    /// time limit is a hang guard, not a speed check: a debug build matches these in well under a
    /// second, a ThreadSanitizer build on a slow 2-core VM in about 12 s.
    @Test("hostile patterns stay linear: deep ** nesting, many stars, a long path", .timeLimit(.minutes(3)))
    func hostile() throws {
        let deepPath = Array(repeating: "d", count: 1000).joined(separator: "/") + "/x.png"
        let stars = try IconGlob(String(repeating: "a*", count: 500) + "b")
        let globstars = try IconGlob(String(repeating: "**/", count: 500) + "y.png")
        let mixed = try IconGlob(String(repeating: "**/d*", count: 250) + "/z")
        #expect(!stars.matches(String(repeating: "a", count: 2000)))
        #expect(stars.matches(String(repeating: "a", count: 1500) + "b"))
        #expect(!globstars.matches(deepPath))
        #expect(try IconGlob(String(repeating: "**/", count: 500) + "x.png").matches(deepPath))
        #expect(!mixed.matches(deepPath))
    }
}
