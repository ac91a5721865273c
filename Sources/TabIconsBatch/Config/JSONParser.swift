import TabIcons

/// Reads JSON text into a `JSONValue` (RFC 8259), keys in document order, through the one
/// tokenizer (`JSONScanner`), for the small documents read whole: a journal line, the options
/// fingerprint. The manifest itself is read field by field (`ManifestReader`), without a tree.
///
/// Integers that fit in `Int` stay `.int`; other numbers are `.double`. Depth is bounded so a
/// hostile file cannot exhaust the stack.
package enum JSONParser {
    package typealias Failure = JSONScanner.Failure

    package static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var scanner = JSONScanner(bytes)
        let value = try scanner.value()
        try scanner.end()
        return value
    }
}

extension JSONScanner {
    /// The next value, whole.
    package mutating func value() throws(Failure) -> JSONValue {
        switch try kind() {
        case .object:
            var pairs: [(String, JSONValue)] = []
            var cursor = try enter()
            while let key = try nextKey(&cursor) { pairs.append((key, try value())) }
            return .object(pairs)
        case .array:
            var items: [JSONValue] = []
            var cursor = try enter()
            while try nextElement(&cursor) { items.append(try value()) }
            return .array(items)
        case .string: return .string(try string() ?? "")
        case .bool: return .bool(try bool() ?? false)
        case .null:
            try null()
            return .null
        case .number:
            switch try number() {
            case .int(let value): return .int(value)
            case .double(let value): return .double(value)
            case nil: return .null
            }
        }
    }
}

extension JSONValue {
    /// The value under `key` of an object (nil for a missing key or a non-object).
    package subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    package var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    package var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    package var intValue: Int? {
        switch self {
        case .int(let i): i
        case .double(let d) where d == d.rounded() && abs(d) < 1e15: Int(d)
        default: nil
        }
    }
    package var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
}
