import TabIcons
import Foundation

/// Reads JSON text (RFC 8259) one value at a time, from bytes in memory or from an open file in
/// chunks: a reader takes the values it wants and skips the others, checked but never kept, so
/// reading a document costs what the reader keeps, not the text's size (`ManifestReader`).
/// `JSONParser` builds a whole `JSONValue` on it where a caller wants one. One tokenizer, so every
/// reader accepts and refuses the same texts.
///
/// Integers that fit in `Int` stay integers; other numbers must be finite doubles. Containers
/// nest at most `maxDepth` deep, so a hostile file cannot exhaust the stack.
package struct JSONScanner {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// A number as the text writes it.
    package enum Number {
        case int(Int)
        case double(Double)

        /// An integer, or a double that is one (below 10^15, so exactly).
        package var intValue: Int? {
            switch self {
            case .int(let i): i
            case .double(let d) where d == d.rounded() && abs(d) < 1e15: Int(d)
            default: nil
            }
        }

        package var doubleValue: Double {
            switch self {
            case .int(let i): Double(i)
            case .double(let d): d
            }
        }
    }

    /// Where a container's members stand: the first one is not preceded by a comma.
    package struct Cursor {
        fileprivate var started = false
    }

    package static let maxDepth = 64
    /// How much of a file is read at once.
    static let chunk = 64 << 10

    private var buffer: [UInt8]
    private var index = 0
    /// Bytes of the text before `buffer[0]`, for the offsets that failures name.
    private var offset = 0
    /// The file read in chunks, or -1 when `buffer` holds the whole text.
    private let file: Int32
    /// Where in the file the next chunk is read (`pread`: the descriptor's own offset is not used).
    private var fileOffset: Int
    /// Bytes of the file not read yet: no more than its size when it was opened is ever read.
    private var unread: Int
    private let chunk: Int
    private var depth = 0

    package init(_ bytes: [UInt8]) {
        buffer = bytes
        file = -1
        fileOffset = 0
        unread = 0
        chunk = 0
    }

    /// The text of the file open at `fd` from byte `start`, at most `size` bytes of it (fewer
    /// when it shrank), read `chunk` bytes at a time. Its offsets (`position`) count from `start`.
    init(file fd: Int32, from start: Int = 0, size: Int, chunk: Int = chunk) {
        buffer = []
        file = fd
        fileOffset = start
        unread = size
        self.chunk = max(1, chunk)
    }

    func failure(_ what: String) -> Failure { Failure(description: "\(what) at byte \(position)") }

    /// Where the scanner stands in the text: the offset of the next byte it has not consumed.
    var position: Int { offset + index }

    // MARK: Bytes

    /// Whether `count` bytes are available from `index`, reading more of the file if need be
    /// (the bytes not consumed yet move to the front of the buffer).
    private mutating func available(_ count: Int) throws(Failure) -> Bool {
        if buffer.count - index >= count { return true }
        guard file >= 0, unread > 0 else { return false }
        offset += index
        buffer.removeSubrange(0..<index)
        index = 0
        let want = min(unread, max(chunk, count))
        let kept = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: want))
        var filled = 0
        while filled < want {
            let n = buffer.withUnsafeMutableBytes {
                pread(file, $0.baseAddress! + kept + filled, want - filled, off_t(fileOffset))
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw failure("cannot read: \(TabIconsError.systemReason())") }
            if n == 0 { unread = filled; break }
            filled += n
            fileOffset += n
        }
        unread -= filled
        buffer.removeSubrange((kept + filled)...)
        return buffer.count - index >= count
    }

    @inline(__always)
    private mutating func peek() throws(Failure) -> UInt8? {
        if index < buffer.count { return buffer[index] }
        return try available(1) ? buffer[index] : nil
    }

    package mutating func skipSpace() throws(Failure) {
        while true {
            while index < buffer.count {
                switch buffer[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
            guard try available(1) else { return }
        }
    }

    private mutating func expect(_ literal: StaticString) throws(Failure) {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in bytes {
            guard try peek() == byte else { throw failure("expected \(literal)") }
            index += 1
        }
    }

    /// The end of the text: only white space may follow the document.
    package mutating func end() throws(Failure) {
        try skipSpace()
        guard try peek() == nil else { throw failure("text after the document") }
    }

    // MARK: Containers

    /// The first byte of the next value (white space skipped), nil at the end of the text.
    package mutating func next() throws(Failure) -> UInt8? {
        try skipSpace()
        return try peek()
    }

    package mutating func isObject() throws(Failure) -> Bool { try next() == UInt8(ascii: "{") }
    package mutating func isArray() throws(Failure) -> Bool { try next() == UInt8(ascii: "[") }

    /// Enters the object or array that comes next (the caller has checked which).
    package mutating func enter() throws(Failure) -> Cursor {
        depth += 1
        guard depth <= Self.maxDepth else { throw failure("nested deeper than \(Self.maxDepth)") }
        index += 1
        return Cursor()
    }

    /// The next key of the object entered with `cursor`, the scanner then at its value; nil after
    /// the object's closing brace.
    package mutating func nextKey(_ cursor: inout Cursor) throws(Failure) -> String? {
        guard try nextMember(&cursor, close: UInt8(ascii: "}")) else { return nil }
        guard try next() == UInt8(ascii: "\"") else { throw failure("expected a key") }
        let key = try quoted()
        try skipSpace()
        try expect(":")
        try skipSpace()
        return key
    }

    /// Whether the array entered with `cursor` has another element (the scanner then at it);
    /// false after its closing bracket.
    package mutating func nextElement(_ cursor: inout Cursor) throws(Failure) -> Bool {
        try nextMember(&cursor, close: UInt8(ascii: "]"))
    }

    private mutating func nextMember(_ cursor: inout Cursor, close: UInt8) throws(Failure) -> Bool {
        try skipSpace()
        if !cursor.started {
            cursor.started = true
            if try peek() == close { return leave() }
            return true
        }
        guard let byte = try peek() else { throw failure("unexpected end") }
        if byte == UInt8(ascii: ",") {
            index += 1
            try skipSpace()
            return true
        }
        guard byte == close else { throw failure("expected , or \(Character(Unicode.Scalar(close)))") }
        return leave()
    }

    private mutating func leave() -> Bool {
        index += 1
        depth -= 1
        return false
    }

    // MARK: Values

    /// The kind of value that starts with its first byte.
    package enum Kind { case object, array, string, bool, null, number }

    /// The kind of the next value (white space skipped).
    package mutating func kind() throws(Failure) -> Kind {
        guard let byte = try next() else { throw failure("unexpected end") }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: return .number
        }
    }

    /// Reads past the next value, checking it as closely as reading it would.
    package mutating func skip() throws(Failure) {
        switch try kind() {
        case .object:
            var cursor = try enter()
            while try nextKey(&cursor) != nil { try skip() }
        case .array:
            var cursor = try enter()
            while try nextElement(&cursor) { try skip() }
        case .string: try skipQuoted()
        case .bool: _ = try literalBool()
        case .null: try expect("null")
        case .number: _ = try lexNumber()
        }
    }

    /// The next value if it is a string; any other value is skipped (nil).
    package mutating func string() throws(Failure) -> String? {
        guard try kind() == .string else { try skip(); return nil }
        return try quoted()
    }

    /// The next value if it is a string, `candidate` itself when the text spells it without an
    /// escape (no new string made); any other value is skipped (nil).
    package mutating func string(sharing candidate: String?) throws(Failure) -> String? {
        guard try kind() == .string else { try skip(); return nil }
        if let candidate {
            let count = candidate.utf8.count
            // Reading on may move the buffer's bytes: the start is taken after.
            // The text's bytes equal the candidate's and close there: it has no quote, backslash
            // or control byte (the text's, scanned by `plainEnd`, would have stopped earlier).
            if try available(count + 2), case let start = index + 1, plainEnd(from: start) == start + count,
                buffer[start..<start + count].elementsEqual(candidate.utf8)
            {
                index = start + count + 1
                return candidate
            }
        }
        return try quoted()
    }

    /// The next value if it is a string, made by `make` from its UTF-8 bytes: the text's own
    /// bytes where it spells them without an escape (no `String` made first); any other value is
    /// skipped (nil).
    package mutating func string<Value>(_ make: (ArraySlice<UInt8>) -> Value) throws(Failure) -> Value? {
        guard try kind() == .string else { try skip(); return nil }
        if let end = plainEnd(from: index + 1) {
            defer { index = end + 1 }
            return make(buffer[index + 1..<end])
        }
        return make(Array(try quoted().utf8)[...])
    }

    /// The next value if it is a number; any other value is skipped (nil).
    package mutating func number() throws(Failure) -> Number? {
        guard try kind() == .number else { try skip(); return nil }
        return try lexNumber()
    }

    /// The next value if it is `true` or `false`; any other value is skipped (nil).
    package mutating func bool() throws(Failure) -> Bool? {
        guard try kind() == .bool else { try skip(); return nil }
        return try literalBool()
    }

    /// The next value, which must be `null` (for `JSONParser`).
    package mutating func null() throws(Failure) {
        try expect("null")
    }

    private mutating func literalBool() throws(Failure) -> Bool {
        if try peek() == UInt8(ascii: "t") {
            try expect("true")
            return true
        }
        try expect("false")
        return false
    }

    // MARK: Strings

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// Where the plain bytes of a string that start at `start` stop: at its closing quote, an
    /// escape, a control character, or the end of the buffer.
    private func plainRun(from start: Int) -> Int {
        buffer.withUnsafeBufferPointer { bytes in
            var end = start
            while end < bytes.count, bytes[end] != Self.quote, bytes[end] != Self.backslash, bytes[end] >= 0x20 { end += 1 }
            return end
        }
    }

    /// Where the string whose bytes start at `start` closes, when it does inside the buffer with
    /// no escape or control character before: the common case, one slice of the buffer.
    private func plainEnd(from start: Int) -> Int? {
        let end = plainRun(from: start)
        return end < buffer.count && buffer[end] == Self.quote ? end : nil
    }

    /// The string at the opening quote, decoded.
    private mutating func quoted() throws(Failure) -> String {
        index += 1
        let end = plainRun(from: index)
        if end < buffer.count, buffer[end] == Self.quote {
            defer { index = end + 1 }
            return String(decoding: buffer[index..<end], as: UTF8.self)
        }
        var utf8 = Array(buffer[index..<end])
        index = end
        while let byte = try peek() {
            index += 1
            if byte == Self.quote { return String(decoding: utf8, as: UTF8.self) }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte != Self.backslash { utf8.append(byte); continue }
            guard let escape = try peek() else { break }
            index += 1
            switch escape {
            case Self.quote, Self.backslash, UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code), try available(2),
                    buffer[index] == Self.backslash, buffer[index + 1] == UInt8(ascii: "u")
                {
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

    /// Past the string at the opening quote, checked as `quoted` checks it.
    private mutating func skipQuoted() throws(Failure) {
        if let end = plainEnd(from: index + 1) {
            index = end + 1
            return
        }
        _ = try quoted()
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard try available(4) else { throw failure("short \\u escape") }
        var code: UInt32 = 0
        for byte in buffer[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { throw failure("bad \\u escape") }
            code = code << 4 | UInt32(digit)
        }
        index += 4
        return code
    }

    // MARK: Numbers

    /// The number here: a run of digits, signs, points and exponents, an `Int` when it has no
    /// point or exponent and fits, else a finite `Double`.
    private mutating func lexNumber() throws(Failure) -> Number {
        var integral = true
        var end = index
        var crossed: [UInt8] = []
        while true {
            if end == buffer.count {
                // The number runs to the end of the chunk: keep what was seen, read on.
                crossed += buffer[index..<end]
                index = end
                guard try available(1) else { break }
                end = index
            }
            let byte = buffer[end]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                end += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                integral = false
                end += 1
            } else {
                break
            }
        }
        defer { index = end }
        if crossed.isEmpty { return try Self.number(buffer[index..<end], integral: integral, at: offset + end) }
        crossed += buffer[index..<end]
        return try Self.number(crossed[...], integral: integral, at: offset + end)
    }

    private static func number(_ text: ArraySlice<UInt8>, integral: Bool, at position: Int) throws(Failure) -> Number {
        func failure(_ what: String) -> Failure { Failure(description: "\(what) at byte \(position)") }
        guard !text.isEmpty else { throw failure("unexpected character") }
        if integral, let value = plainInteger(text) { return .int(value) }
        let string = String(decoding: text, as: UTF8.self)
        if integral, let value = Int(string) { return .int(value) }
        guard let value = Double(string), value.isFinite else { throw failure("bad number '\(string)'") }
        return .double(value)
    }

    /// Digits with an optional leading minus that fit in `Int`: the integers a manifest is made
    /// of (times in nanoseconds have 19 digits), without going through `String`.
    private static func plainInteger(_ text: ArraySlice<UInt8>) -> Int? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = text.dropFirst(negative ? 1 : 0)
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (tens, over) = value.multipliedReportingOverflow(by: 10)
            let (sum, past) = tens.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !over, !past else { return nil }  // past Int.max: `Int(_:)` decides (Int.min, a double)
            value = sum
        }
        return negative ? -value : value
    }
}
