import TabIcons
/// A JSON value with ordered object keys, and its pretty-printed text.
///
/// Foundation's `JSONEncoder` on Linux orders keys by hash unless told to sort them, so the
/// manifest would come out in a different key order from SPEC §6 and differ between runs of
/// different builds. Documents that people and diffs read are written through this instead:
/// keys in the order given, numbers in their shortest form (3.84, 25), two-space indentation,
/// and a container holding only scalars on one line (`{"scale": 1, "path": "home.png", ...}`),
/// as SPEC §6 shows renditions and errors, so a manifest or a benchmark row reads as one line.
package indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.text(indent: nil) == rhs.text(indent: nil)
    }

    /// Pretty-printed text (two spaces per level), or compact with `indent: nil`.
    package func text(indent: Int? = 0) -> String {
        var out = ""
        write(into: &out, level: indent)
        return out
    }

    private func write(into out: inout String, level: Int?) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += Self.number(value)
        case .string(let value): Self.quote(value, into: &out)
        case .array(let values):
            writeContainer(values.map { (nil as String?, $0) }, open: "[", close: "]", into: &out, level: level)
        case .object(let pairs):
            writeContainer(pairs.map { (Optional($0.0), $0.1) }, open: "{", close: "}", into: &out, level: level)
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    private func writeContainer(_ items: [(String?, JSONValue)], open: String, close: String,
                                into out: inout String, level: Int?) {
        out += open
        guard !items.isEmpty else { out += close; return }
        if level != nil, items.allSatisfy({ $0.1.isScalar }) {
            for (index, (key, value)) in items.enumerated() {
                if index > 0 { out += ", " }
                if let key {
                    Self.quote(key, into: &out)
                    out += ": "
                }
                value.write(into: &out, level: nil)
            }
            out += close
            return
        }
        let inner = level.map { $0 + 1 }
        for (index, (key, value)) in items.enumerated() {
            if index > 0 { out += "," }
            if let inner { out += "\n" + String(repeating: "  ", count: inner) }
            if let key {
                Self.quote(key, into: &out)
                out += level == nil ? ":" : ": "
            }
            value.write(into: &out, level: inner)
        }
        if let level { out += "\n" + String(repeating: "  ", count: level) }
        out += close
    }

    /// Integral values without a fraction; others in Swift's shortest round-tripping form.
    /// Non-finite numbers are not JSON: they are written as null.
    static func number(_ value: Double) -> String {
        value.isFinite ? NumberText.shortest(value) : "null"
    }

    static func quote(_ text: String, into out: inout String) {
        out += "\""
        // Most strings (paths, hashes, names) need no escape: appended whole, not scalar by scalar.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
