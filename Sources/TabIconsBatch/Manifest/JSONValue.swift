import TabIcons
/// A JSON value with ordered object keys, and its pretty-printed text: what documents people and
/// diffs read are written through (`JSONEncoder` orders keys by hash on Linux unless sorted).
/// Keys in the order given, numbers in their shortest form, two-space indentation, and a
/// container of scalars on one line, as SPEC §6 shows renditions and errors.
package enum JSONValue: Sendable, Equatable {
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
        String(decoding: utf8(indent: indent), as: UTF8.self)
    }

    /// The same text as UTF-8 bytes.
    package func utf8(indent: Int? = 0) -> [UInt8] {
        var out: [UInt8] = []
        write(into: &out, level: indent)
        return out
    }

    /// Appends the text to `out`, pretty-printed as if `level` containers deep (compact when nil).
    private func write(into out: inout [UInt8], level: Int?) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let value): out += (value ? "true" : "false").utf8
        case .int(let value): Self.integer(value, into: &out)
        case .double(let value): out += Self.number(value).utf8
        case .string(let value): Self.quote(value, into: &out)
        case .array(let values):
            Self.writeContainer(
                count: values.count, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), into: &out, level: level,
                allScalars: values.allSatisfy(\.isScalar)
            ) { index, out, level in
                values[index].write(into: &out, level: level)
            }
        case .object(let pairs):
            Self.writeContainer(
                count: pairs.count, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), into: &out, level: level,
                allScalars: pairs.allSatisfy(\.1.isScalar)
            ) { index, out, memberLevel in
                Self.quote(pairs[index].0, into: &out)
                out += level == nil ? ":".utf8 : ": ".utf8  // compact only when the whole text is
                pairs[index].1.write(into: &out, level: memberLevel)
            }
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    private static func newline(_ level: Int, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    /// A container of `count` members, each written by `member` (its `level`: nil on one line).
    private static func writeContainer(
        count: Int, open: UInt8, close: UInt8, into out: inout [UInt8], level: Int?, allScalars: Bool,
        member: (Int, inout [UInt8], Int?) -> Void
    ) {
        out.append(open)
        guard count > 0 else { out.append(close); return }
        let oneLine = level != nil && allScalars
        let inner = oneLine ? nil : level.map { $0 + 1 }
        for index in 0..<count {
            if index > 0 { out += oneLine ? ", ".utf8 : ",".utf8 }
            if let inner { newline(inner, into: &out) }
            member(index, &out, oneLine ? nil : inner)
        }
        if !oneLine, let level { newline(level, into: &out) }
        out.append(close)
    }

    /// Decimal digits, without a `String` between.
    private static func integer(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        } while divisor > 0
    }

    /// Integral values without a fraction; others in Swift's shortest round-tripping form.
    /// Non-finite numbers are not JSON: they are written as null.
    static func number(_ value: Double) -> String {
        value.isFinite ? NumberText.shortest(value) : "null"
    }

    static func quote(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most text needs no escape: appended whole.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if plain == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\"".utf8
            case UInt8(ascii: "\\"): out += "\\\\".utf8
            case UInt8(ascii: "\n"): out += "\\n".utf8
            case UInt8(ascii: "\r"): out += "\\r".utf8
            case UInt8(ascii: "\t"): out += "\\t".utf8
            case 0..<0x20:
                out += "\\u00".utf8
                out.append(HexText.digit(byte >> 4))
                out.append(HexText.digit(byte & 0xF))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
