/// The CSS of an SVG's `<style>` elements as real icon themes write it: rules whose selectors are
/// simple (`*`, `path`, `.ColorScheme-Text`, `#id`, `path.a.b`, comma lists), applied by
/// specificity then order. A selector it cannot judge (combinators, attribute selectors,
/// pseudo-classes) or an at-rule makes the drawing unsupported (`VectorFeature.styleSheet`): a
/// rule silently ignored would draw differently from the PNGs.
struct VectorStyleSheet {
    struct Selector {
        var tag: String?
        var id: String?
        var classes: [String]
        var specificity: Int

        func matches(tag elementTag: String, id elementID: String?, classes elementClasses: [Substring]) -> Bool {
            if let tag, tag != elementTag { return false }
            if let id, id != elementID { return false }
            return classes.allSatisfy { wanted in elementClasses.contains { $0 == wanted } }
        }
    }

    struct Rule {
        var selector: Selector
        var order: Int
        var declarations: [(name: String, value: String)]
    }

    private(set) var rules: [Rule] = []

    /// Parses `css`; throws the feature when a rule is beyond the simple subset.
    init(_ css: String) throws(VectorUnsupported) {
        var text = Substring(Self.withoutComments(css))
        var order = 0
        while let open = text.firstIndex(of: "{") {
            let prelude = text[..<open].trimmingCSSSpace
            let body = text[text.index(after: open)...]
            guard let close = body.firstIndex(of: "}") else { break }
            if prelude.hasPrefix("@") || body[..<close].contains("{") {
                throw VectorUnsupported(.styleSheet("the at-rule " + String(prelude.prefix(40))))
            }
            let declarations = Self.declarations(body[..<close])
            for part in prelude.split(separator: ",") {
                let selector = try Self.selector(part.trimmingCSSSpace)
                rules.append(Rule(selector: selector, order: order, declarations: declarations))
                order += 1
            }
            text = body[body.index(after: close)...]
        }
        rules.sort { ($0.selector.specificity, $0.order) < ($1.selector.specificity, $1.order) }
    }

    /// The declarations that apply to an element, lowest precedence first.
    func declarations(tag: String, id: String?, classAttribute: String?) -> [(name: String, value: String)] {
        guard !rules.isEmpty else { return [] }
        let classes = classAttribute?.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) ?? []
        return rules.filter { $0.selector.matches(tag: tag, id: id, classes: classes) }.flatMap(\.declarations)
    }

    /// `name: value` pairs of a declaration block (`!important` dropped: the subset has no
    /// second origin it could win against but the `style` attribute, which still wins here).
    static func declarations(_ block: Substring) -> [(name: String, value: String)] {
        block.split(separator: ";").compactMap { declaration in
            guard let colon = declaration.firstIndex(of: ":") else { return nil }
            var value = declaration[declaration.index(after: colon)...].trimmingCSSSpace
            if let bang = value.range(of: "!important") { value = value[..<bang.lowerBound].trimmingCSSSpace }
            let name = declaration[..<colon].trimmingCSSSpace.lowercased()
            return name.isEmpty ? nil : (name, String(value))
        }
    }

    private static func selector(_ text: Substring) throws(VectorUnsupported) -> Selector {
        guard !text.isEmpty, !text.contains(where: { " >+~[]:()\t\n".contains($0) }) else {
            throw VectorUnsupported(.styleSheet("the selector " + String(text.prefix(40))))
        }
        var tag: String?, id: String?, classes: [String] = []
        var specificity = 0
        var rest = text
        // The type selector, up to the first `.` or `#`.
        let head = rest.prefix { $0 != "." && $0 != "#" }
        if !head.isEmpty, head != "*" { tag = String(head); specificity += 1 }
        rest = rest.dropFirst(head.count)
        while let marker = rest.first {
            rest = rest.dropFirst()
            let name = rest.prefix { $0 != "." && $0 != "#" }
            guard !name.isEmpty else { throw VectorUnsupported(.styleSheet("the selector " + String(text.prefix(40)))) }
            rest = rest.dropFirst(name.count)
            if marker == "#" { id = String(name); specificity += 100 } else { classes.append(String(name)); specificity += 10 }
        }
        return Selector(tag: tag, id: id, classes: classes, specificity: specificity)
    }

    private static func withoutComments(_ css: String) -> String {
        var out = ""
        var rest = Substring(css)
        while let start = rest.range(of: "/*") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: "*/") else { return out }
            rest = rest[end.upperBound...]
        }
        return out + rest
    }
}

extension StringProtocol {
    /// Without leading and trailing CSS white space.
    var trimmingCSSSpace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        let s = self[...]
        guard let first = s.firstIndex(where: { !isSpace($0) }), let last = s.lastIndex(where: { !isSpace($0) }) else {
            return Substring("")
        }
        return Substring(s[first...last])
    }
}
