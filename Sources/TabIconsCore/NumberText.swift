/// How numbers are written wherever a person or a manifest reads them: the one formatter behind
/// the manifest's numbers, the CLI's sizes and scales, and the `@1.5x` of a file name, so a scale
/// never prints one way in a path and another in the JSON.
package enum NumberText {
    /// Integers without a fraction; others rounded to four decimals (3.84, not
    /// 3.8400000000000003). Magnitudes where four decimals mean nothing keep Swift's shortest form.
    package static func decimal(_ value: Double) -> String {
        let rounded = rounded(value)
        if rounded == 0, value != 0 { return String(value) }  // tiny, not nothing: 1e-320 stays 1e-320
        return shortest(rounded)
    }

    /// `value` exactly, in its shortest form: integers without a fraction (25, not 25.0), others
    /// as Swift's shortest round-tripping text. What JSON documents write, unrounded.
    package static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// The value `decimal` writes, as a number: what the manifest stores, so that reading it
    /// back gives what was shown.
    package static func rounded(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < 1e15 else { return value }
        return (value * 10_000).rounded() / 10_000
    }

    /// A number a person typed, read strictly: plain decimal digits with at most one `.` between
    /// digits (`2`, `1.5`, `0.75`), nothing else. Swift's own parsers also take `0x10`, `1e-300`,
    /// `+2`, `inf` and `nan`, none of which is a size or a scale anyone means.
    package static func parseDecimal(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        return Double(text)
    }

    /// A whole number a person typed, read strictly: decimal digits only (no sign, no `0x`).
    package static func parseInteger(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }
}

/// Lowercase hexadecimal, the one place bytes and words become hex digits.
package enum HexText {
    /// The lowercase hex digit of `value` (0…15), as an ASCII byte.
    package static func digit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// The value of a lowercase hex digit (`digit`'s inverse); nil for any other byte.
    package static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// `value` as exactly 16 hex digits, appended.
    package static func append(_ value: UInt64, to text: inout [UInt8]) {
        for shift in stride(from: 60, through: 0, by: -4) { text.append(digit(UInt8(truncatingIfNeeded: value >> shift) & 0xF)) }
    }

    /// Bytes as two-digit hex separated by spaces: `89 50 4e 47`.
    package static func bytes<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var text: [UInt8] = []
        for byte in bytes {
            if !text.isEmpty { text.append(UInt8(ascii: " ")) }
            text += [digit(byte >> 4), digit(byte & 0xF)]
        }
        return String(decoding: text, as: UTF8.self)
    }
}
