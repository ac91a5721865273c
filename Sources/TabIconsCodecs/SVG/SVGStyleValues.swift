import TabIconsCore
import Foundation

/// The few property values `SVGScreening` weighs, read from an attribute, a `style` attribute or a
/// style sheet's declarations: font sizes, dash arrays, transforms' scale. Lenient: what does not
/// parse is left to librsvg, which ignores or refuses it.
enum SVGStyleValues {
    /// A font size: in user units, or relative to the parent's (`em`, `ex`, `%`, `larger`).
    enum FontSize: Equatable {
        case absolute(Double)
        case relative(Double)
    }

    /// `name: value` pairs of a declaration block (`style="…"`, or the inside of a rule's braces).
    static func declarations(_ css: Substring) -> [(name: Substring, value: Substring)] {
        css.split(separator: ";").compactMap { declaration in
            guard let colon = declaration.firstIndex(of: ":") else { return nil }
            return (trimmed(declaration[..<colon]), trimmed(declaration[declaration.index(after: colon)...]))
        }
    }

    /// Every declaration inside the braces of a style sheet (selectors and at-rules' preludes skipped).
    static func styleSheetDeclarations(_ css: String) -> [(name: Substring, value: Substring)] {
        var result: [(name: Substring, value: Substring)] = []
        var rest = Substring(css)
        while let open = rest.firstIndex(of: "{") {
            let body = rest[rest.index(after: open)...]
            let close = body.firstIndex(where: { $0 == "}" || $0 == "{" }) ?? body.endIndex
            result += declarations(body[..<close])
            rest = body[close...].dropFirst()
        }
        return result
    }

    /// A `font-size` value, or the size in a `font` shorthand ("bold 12px serif", "1e9px/2 a").
    static func fontSize(_ value: Substring, shorthand: Bool = false) -> FontSize? {
        let words = shorthand ? value.split(whereSeparator: { $0 == " " || $0 == "/" }) : [value]
        for word in words {
            switch word.lowercased() {
            case "larger": return .relative(1.2)
            case "xx-large", "xxx-large": return .absolute(48)
            case "x-large", "large", "medium", "small", "x-small", "xx-small", "smaller": return .absolute(32)
            default: break
            }
            guard let (number, unit) = numberAndUnit(word) else { continue }
            if shorthand && unit.isEmpty && words.count > 1 { continue }  // a weight (700), not a size
            switch unit.lowercased() {
            case "em", "rem": return .relative(number)
            case "ex": return .relative(number / 2)
            case "%": return .relative(number / 100)
            default: return .absolute(number * (absoluteUnits[unit.lowercased()] ?? 1))
            }
        }
        return nil
    }

    /// CSS px in one of each absolute unit (96 dpi).
    static let absoluteUnits: [String: Double] = ["px": 1, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96.0 / 72, "pc": 16]

    /// The numbers of a list (`stroke-dasharray`, `kernelUnitLength`…), units dropped.
    static func numbers(_ value: Substring) -> [Double] {
        value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            .compactMap { numberAndUnit($0)?.number }
    }

    /// The most a `transform` can enlarge lengths (at least 1): the largest scale, matrix column or
    /// skew's tangent of its functions, multiplied.
    static func transformScale(_ value: Substring) -> Double {
        var product = 1.0
        var rest = value
        while let open = rest.firstIndex(of: "(") {
            let name = rest[..<open].split(whereSeparator: { $0 == " " || $0 == "," || $0 == ")" }).last?.lowercased() ?? ""
            let inside = rest[rest.index(after: open)...]
            let close = inside.firstIndex(of: ")") ?? inside.endIndex
            let n = numbers(inside[..<close])
            var factor = 1.0
            switch name {
            case "scale": factor = n.map(abs).max() ?? 1
            case "matrix" where n.count >= 4:
                factor = max((n[0] * n[0] + n[1] * n[1]).squareRoot(), (n[2] * n[2] + n[3] * n[3]).squareRoot())
            case "skewx", "skewy": factor = 1 + abs(tan((n.first ?? 0) * .pi / 180))
            default: break
            }
            product *= max(1, factor.isFinite ? factor : .greatestFiniteMagnitude)
            rest = inside[close...].dropFirst()
        }
        return min(product, .greatestFiniteMagnitude)
    }

    /// A leading number and what follows it ("12px" → 12, "px"), nil when there is no number.
    static func numberAndUnit(_ word: Substring) -> (number: Double, unit: String)? {
        let text = trimmed(word)
        var end = text.startIndex
        var previous: Character = " "
        while end < text.endIndex {
            let c = text[end]
            let numeric =
                c.isASCII
                && (c.isNumber || c == "." || c == "-" || c == "+"
                    || ((c == "e" || c == "E") && previous.isNumber && text.index(after: end) < text.endIndex
                        && (text[text.index(after: end)].isNumber || text[text.index(after: end)] == "-"
                            || text[text.index(after: end)] == "+")))
            guard numeric else { break }
            previous = c
            end = text.index(after: end)
        }
        guard let number = Double(text[..<end]) else { return nil }
        return (number, String(text[end...]))
    }

    static func trimmed(_ text: Substring) -> Substring {
        let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\n" || c == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return Substring() }
        return text[first...last]
    }
}
