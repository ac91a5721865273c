import TabIconsCore
/// A minimal XML tokenizer over UTF-8 bytes, for `SVGScreening`: start tags with their attributes,
/// end tags, text, and what a DOCTYPE declares. It never allocates per byte and never recurses, so
/// it costs a linear pass however hostile the input.
///
/// It is lenient where XML is strict (librsvg's parser, libxml2, reports malformed documents with
/// line and column; repeating that here would only blur the message). What it must get right is
/// what the screening judges: element nesting, attribute values (quoted with `"` or `'`, which may
/// hold `>`, with character and predefined entity references decoded, so `href="&#35;a"` is seen
/// as `#a`), and that comments, CDATA and processing instructions hold no elements. Input that
/// ends inside a construct ends the scan; librsvg then refuses the document.
enum SVGMarkupScanner {
    struct Attribute {
        /// The local name (`href` for `xlink:href`).
        var name: String
        var value: String
    }

    enum Event {
        /// A start tag (`selfClosing` for `<x/>`); the name is the local name.
        /// Only the `interesting` attributes are reported.
        case start(name: String, attributes: [Attribute], selfClosing: Bool)
        case end
        /// Character data or a CDATA section, as a byte range of the input.
        case text(Range<Int>)
        /// A `<!DOCTYPE>`: whether it has an internal subset, and whether that declares an entity.
        case doctype(internalSubset: Bool, declaresEntity: Bool)
    }

    /// The attributes the screening reads (local names); the others (path data above all) are
    /// skipped unread, without making a string of their names or values.
    static let interesting: [StaticString] = [
        "id", "href", "filter", "style", "transform", "patternTransform", "gradientTransform",
        "radius", "stdDeviation", "numOctaves", "order", "primitiveUnits", "mask", "clip-path", "opacity",
        "fill", "stroke", "marker-start", "marker-mid", "marker-end", "marker",
        "d", "points", "stroke-dasharray", "font-size", "font", "kernelUnitLength", "x", "y", "width", "height"
    ]

    /// The local name in `range` when it is one of `interesting`, else nil.
    private static func interestingName(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        var start = range.lowerBound
        for j in range where b[j] == UInt8(ascii: ":") { start = j + 1 }
        let count = range.upperBound - start
        for name in interesting where name.utf8CodeUnitCount == count {
            var k = 0
            while k < count && b[start + k] == name.utf8Start[k] { k += 1 }
            if k == count { return name.description }
        }
        return nil
    }

    /// Whether `byte` ends an XML name (whitespace, `/`, `>`, `=`, `<`).
    @inline(__always)
    static func endsName(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<")
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `allAttributes`: every attribute is reported (namespace declarations aside), not only the
    /// `interesting` ones: what the vector converter (`SVGElementTree`) reads.
    static func scan(
        _ b: UnsafeBufferPointer<UInt8>, allAttributes: Bool = false,
        _ visit: (Event) throws(TabIconsError) -> Void
    ) throws(TabIconsError) {
        let n = b.count
        func find(_ terminator: StaticString, from: Int) -> Int? { b.end(ofFirst: terminator, from: from) }
        func starts(_ prefix: StaticString, at i: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard i + count <= n else { return false }
            for k in 0..<count where b[i + k] != prefix.utf8Start[k] { return false }
            return true
        }

        var i = 0
        var textStart = 0
        while i < n {
            guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
            if i > textStart { try visit(.text(textStart..<i)) }
            if starts("<!--", at: i) {
                guard let next = find("-->", from: i + 4) else { return }
                i = next
            } else if starts("<![CDATA[", at: i) {
                guard let next = find("]]>", from: i + 9) else { return }
                try visit(.text((i + 9)..<(next - 3)))
                i = next
            } else if starts("<?", at: i) {
                guard let next = find("?>", from: i + 2) else { return }
                i = next
            } else if starts("<!", at: i) {
                // A DOCTYPE (or another declaration): to its closing `>`, past a bracketed subset.
                var j = i + 2, depth = 0, subset = false, entity = false
                var quote: UInt8 = 0
                while j < n {
                    let c = b[j]
                    if quote != 0 {
                        if c == quote { quote = 0 }
                    } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                        quote = c
                    } else if c == UInt8(ascii: "[") {
                        depth += 1; subset = true
                    } else if c == UInt8(ascii: "]") {
                        depth = max(0, depth - 1)
                    } else if c == UInt8(ascii: ">") && depth == 0 {
                        break
                    } else if depth > 0 && starts("<!ENTITY", at: j) {
                        entity = true
                    }
                    j += 1
                }
                try visit(.doctype(internalSubset: subset, declaresEntity: entity))
                guard j < n else { return }
                i = j + 1
            } else if i + 1 < n, b[i + 1] == UInt8(ascii: "/") {
                guard let next = find(">", from: i + 2) else { return }
                try visit(.end)
                i = next
            } else {
                guard let (element, next) = startTag(b, at: i, allAttributes: allAttributes) else { return }
                try visit(element)
                i = next
            }
            textStart = i
        }
        if textStart < n { try visit(.text(textStart..<n)) }
    }

    /// The start tag at `i` (which holds `<`), and the index past its `>`; nil when the input ends
    /// inside it.
    private static func startTag(_ b: UnsafeBufferPointer<UInt8>, at start: Int, allAttributes: Bool) -> (Event, Int)? {
        let n = b.count
        var i = start + 1
        let nameStart = i
        while i < n, !endsName(b[i]) { i += 1 }
        let name = localName(b, nameStart..<i)
        var attributes: [Attribute] = []
        while i < n {
            while i < n, isSpace(b[i]) { i += 1 }
            guard i < n else { return nil }
            if b[i] == UInt8(ascii: ">") {
                return (.start(name: name, attributes: attributes, selfClosing: false), i + 1)
            }
            if b[i] == UInt8(ascii: "/") {
                guard i + 1 < n else { return nil }
                if b[i + 1] == UInt8(ascii: ">") {
                    return (.start(name: name, attributes: attributes, selfClosing: true), i + 2)
                }
                i += 1
                continue
            }
            let attributeStart = i
            while i < n, !endsName(b[i]) { i += 1 }
            if i == attributeStart { i += 1; continue }  // a stray `=` or `<`: malformed, move on
            let attributeName = allAttributes ? reportedName(b, attributeStart..<i) : interestingName(b, attributeStart..<i)
            while i < n, isSpace(b[i]) { i += 1 }
            guard i < n else { return nil }
            guard b[i] == UInt8(ascii: "=") else { continue }
            i += 1
            while i < n, isSpace(b[i]) { i += 1 }
            guard i < n else { return nil }
            let quote = b[i]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { continue }
            let valueStart = i + 1
            i = valueStart
            while i < n, b[i] != quote { i += 1 }
            guard i < n else { return nil }
            if let attributeName {
                attributes.append(Attribute(name: attributeName, value: decodeReferences(b, valueStart..<i)))
            }
            i += 1
        }
        return nil
    }

    /// Any attribute's local name, but nil for a namespace declaration (`xmlns`, `xmlns:x`).
    private static func reportedName(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        let xmlns: StaticString = "xmlns"
        if range.count >= 5, (0..<5).allSatisfy({ b[range.lowerBound + $0] == xmlns.utf8Start[$0] }),
            range.count == 5 || b[range.lowerBound + 5] == UInt8(ascii: ":")
        {
            return nil
        }
        return localName(b, range)
    }

    /// The part of a qualified name after its prefix.
    private static func localName(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var start = range.lowerBound
        for j in range where b[j] == UInt8(ascii: ":") { start = j + 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: b[start..<range.upperBound]), as: UTF8.self)
    }

    /// An attribute value with `&#N;`, `&#xH;` and the five predefined entities decoded; any other
    /// `&` is kept as it is (an undeclared entity, which librsvg refuses).
    static func decodeReferences(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let raw = UnsafeBufferPointer(rebasing: b[range])
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        let text = String(decoding: raw, as: UTF8.self)
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].prefix(12).firstIndex(of: ";") else {
                out += "&"; rest = rest[rest.index(after: amp)...]; continue
            }
            let body = rest[rest.index(after: amp)..<semi]
            var decoded: String?
            switch body {
            case "amp": decoded = "&"
            case "lt": decoded = "<"
            case "gt": decoded = ">"
            case "quot": decoded = "\""
            case "apos": decoded = "'"
            default:
                if body.hasPrefix("#x") || body.hasPrefix("#X") {
                    decoded = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if body.hasPrefix("#") {
                    decoded = UInt32(body.dropFirst(1)).flatMap(Unicode.Scalar.init).map { String($0) }
                }
            }
            if let decoded {
                out += decoded
                rest = rest[rest.index(after: semi)...]
            } else {
                out += "&"; rest = rest[rest.index(after: amp)...]
            }
        }
        return out + rest
    }
}
