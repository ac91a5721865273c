import TabIcons

/// Reads JSON text into a `JSONValue` (RFC 8259), keys in document order. The one reader behind
/// the manifest: a batch reads its previous manifest back as the cache of the next run, and
/// `JSONValue` is already the one writer, so the two stay each other's inverse without a second
/// (Codable) description of the document.
///
/// Integers that fit in `Int` stay `.int`; other numbers are `.double`. Depth is bounded so a
/// hostile file cannot exhaust the stack.
package struct JSONParser {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maxDepth = 64

    package static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure("text after the document") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func failure(_ what: String) -> Failure { Failure(description: "\(what) at byte \(index)") }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ literal: String) throws(Failure) {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw failure("expected \(literal)") }
            index += 1
        }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try container(object: true)
        case UInt8(ascii: "["): return try container(object: false)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try number()
        }
    }

    private mutating func container(object: Bool) throws(Failure) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw failure("nested deeper than \(Self.maxDepth)") }
        index += 1
        var pairs: [(String, JSONValue)] = []
        var items: [JSONValue] = []
        let close = UInt8(ascii: object ? "}" : "]")
        skipSpace()
        if index < bytes.count, bytes[index] == close {
            index += 1
            return object ? .object([]) : .array([])
        }
        while true {
            skipSpace()
            if object {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let key = try string()
                skipSpace()
                try expect(":")
                skipSpace()
                pairs.append((key, try value()))
            } else {
                items.append(try value())
            }
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == close else { throw failure("expected , or \(Character(Unicode.Scalar(close)))") }
            index += 1
            return object ? .object(pairs) : .array(items)
        }
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // The common case, a string without escapes, is one slice decoded once.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            guard bytes[index] >= 0x20 else { throw failure("control character in a string") }
            index += 1
        }
        guard index < bytes.count else { throw failure("unterminated string") }
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: utf8, as: UTF8.self) }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte != UInt8(ascii: "\\") { utf8.append(byte); continue }
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count,
                   bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("bad surrogate pair") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                utf8.append(contentsOf: String(Unicode.Scalar(code) ?? "\u{FFFD}").utf8)
            default: throw failure("bad escape")
            }
        }
        throw failure("unterminated string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("short \\u escape") }
        var code: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { throw failure("bad \\u escape") }
            code = code << 4 | UInt32(digit)
        }
        index += 4
        return code
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        var integral = true
        while index < bytes.count {
            let byte = bytes[index]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                index += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                integral = false
                index += 1
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard !text.isEmpty else { throw failure("unexpected character") }
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw failure("bad number '\(text)'") }
        return .double(value)
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
