import Foundation

/// The Swift name an icon gets in the generated `TabIconAssets` (SPEC §8): from any file name, a
/// valid identifier a person would have written, or nothing when nothing of the name survives.
///
/// The rule (docs/plugin.md):
/// - the name is taken in Unicode NFC (macOS writes NFD), split into words at every character
///   that cannot be part of an identifier (spaces, `-`, `.`, `_`, symbols, emoji, invisible
///   format characters), and the words joined in lower camel case: `tab bar-home_2` → `tabBarHome2`,
///   `URLBar` → `urlBar`, `Home` → `home`; letters of other scripts are kept (`café` → `café`);
/// - a name that starts with a digit gets a leading `_` (`24px` → `_24px`);
/// - a Swift keyword, and `Type`, `Protocol`, `self`, `Self` (which mean something after a dot),
///   gets a trailing `_` (`default` → `default_`);
/// - a name with no letter or digit left (`🏠.svg`, `---.png`) is not a name: nil.
/// Two icons that give one identifier are an error naming both (`IconAssetsSource`).
enum SwiftIdentifier {
    static func make(from name: String) -> String? {
        let words = Self.words(name.precomposedStringWithCanonicalMapping)
        guard !words.isEmpty else { return nil }
        var identifier = lowerFirstWord(words[0]) + words.dropFirst().map(upperFirst).joined()
        if let first = identifier.unicodeScalars.first, !isHead(first) { identifier = "_" + identifier }
        if reserved.contains(identifier) { identifier += "_" }
        return identifier
    }

    /// Runs of characters that may continue an identifier, letters and digits only (`_` splits:
    /// `tab_home` is `tabHome`, as `tab-home` is).
    private static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            // A word starts with a letter or digit: a combining mark after a separator is dropped.
            if scalar != "_", isContinuation(scalar), !current.isEmpty || isHead(scalar) || isDigit(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// `Home` → `home`, `URLBar` → `urlBar`, `URL` → `url`: the leading capitals lowered, except
    /// the last one when a lower-case letter follows it (it starts the next word). ASCII only.
    private static func lowerFirstWord(_ word: String) -> String {
        let scalars = Array(word.unicodeScalars)
        var upperRun = 0
        while upperRun < scalars.count, isASCIIUpper(scalars[upperRun]) { upperRun += 1 }
        if upperRun > 1, upperRun < scalars.count, isASCIILower(scalars[upperRun]) { upperRun -= 1 }
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            result.append(index < upperRun ? Unicode.Scalar(scalar.value + 32)! : scalar)
        }
        return String(result)
    }

    private static func upperFirst(_ word: String) -> String {
        guard let first = word.unicodeScalars.first, isASCIILower(first) else { return word }
        return String(Unicode.Scalar(first.value - 32)!) + String(word.unicodeScalars.dropFirst())
    }

    private static func isASCIIUpper(_ s: Unicode.Scalar) -> Bool { ("A"..."Z").contains(s) }
    private static func isASCIILower(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) }
    private static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }

    /// A scalar that may start an identifier: an ASCII letter, or a letter (general category L)
    /// inside the identifier-head ranges of The Swift Programming Language's grammar. Symbols,
    /// emoji and invisible format characters, which the grammar also admits, are left out: a
    /// name should be one a person can read and type, and bidirectional controls are how source
    /// text lies to its reader.
    static func isHead(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII { return isASCIIUpper(s) || isASCIILower(s) }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            return headRanges.contains { $0.contains(s.value) }
        default:
            return false
        }
    }

    /// A scalar that may follow the first: a head, an ASCII digit, or a combining mark or digit
    /// inside the grammar's ranges.
    static func isContinuation(_ s: Unicode.Scalar) -> Bool {
        if isHead(s) || isDigit(s) { return true }
        if s.isASCII { return false }
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return (headRanges + markRanges).contains { $0.contains(s.value) }
        default:
            return false
        }
    }

    /// identifier-head's non-ASCII ranges (The Swift Programming Language, Lexical Structure).
    private static let headRanges: [ClosedRange<UInt32>] = [
        0xA8...0xA8, 0xAA...0xAA, 0xAD...0xAD, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE,
        0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF, 0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D,
        0x180F...0x1DBF, 0x1E00...0x1FFF, 0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040,
        0x2054...0x2054, 0x2060...0x206F, 0x2070...0x20CF, 0x2100...0x218F, 0x2460...0x24FF,
        0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007, 0x3021...0x302F,
        0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F,
        0xFE30...0xFE44, 0xFE47...0xFFFD, 0x10000...0x1FFFD, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
        0x40000...0x4FFFD, 0x50000...0x5FFFD, 0x60000...0x6FFFD, 0x70000...0x7FFFD,
        0x80000...0x8FFFD, 0x90000...0x9FFFD, 0xA0000...0xAFFFD, 0xB0000...0xBFFFD,
        0xC0000...0xCFFFD, 0xD0000...0xDFFFD, 0xE0000...0xEFFFD
    ]

    /// identifier-character's combining-mark ranges.
    private static let markRanges: [ClosedRange<UInt32>] = [
        0x300...0x36F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F
    ]

    /// Words that cannot be a member's plain name: Swift's keywords (declarations, statements,
    /// expressions and types, patterns) and what means something after a dot.
    static let reserved: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol"
    ]
}
