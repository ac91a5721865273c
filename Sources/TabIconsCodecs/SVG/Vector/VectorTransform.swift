import Foundation

/// A 2-D affine transform, SVG's `matrix(a b c d e f)`: x' = a·x + c·y + e, y' = b·x + d·y + f.
struct VectorTransform: Sendable, Equatable {
    var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0

    static let identity = VectorTransform()

    var isIdentity: Bool { self == .identity }

    static func translate(_ x: Double, _ y: Double) -> VectorTransform { VectorTransform(e: x, f: y) }
    static func scale(_ x: Double, _ y: Double) -> VectorTransform { VectorTransform(a: x, d: y) }
    static func rotate(degrees: Double) -> VectorTransform {
        let r = degrees * .pi / 180
        return VectorTransform(a: cos(r), b: sin(r), c: -sin(r), d: cos(r))
    }

    /// `self` applied after `other` (`self · other`).
    func concatenating(_ other: VectorTransform) -> VectorTransform {
        VectorTransform(
            a: a * other.a + c * other.b, b: b * other.a + d * other.b,
            c: a * other.c + c * other.d, d: b * other.c + d * other.d,
            e: a * other.e + c * other.f + e, f: b * other.e + d * other.f + f)
    }

    func apply(_ p: VectorPoint) -> VectorPoint { VectorPoint(x: a * p.x + c * p.y + e, y: b * p.x + d * p.y + f) }
    /// A direction (no translation).
    func applyVector(_ p: VectorPoint) -> VectorPoint { VectorPoint(x: a * p.x + c * p.y, y: b * p.x + d * p.y) }

    var determinant: Double { a * d - b * c }

    var inverted: VectorTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return VectorTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            e: (c * f - d * e) / det, f: (b * e - a * f) / det)
    }

    /// How much lengths grow on average (a stroke width's factor): √|det|.
    var meanScale: Double { sqrt(abs(determinant)) }

    /// Whether it keeps angles (rotation, uniform scale, reflection, translation): circles stay circles.
    var isConformal: Bool {
        let tolerance = 1e-9 * max(1, abs(a) + abs(b) + abs(c) + abs(d))
        return abs(a * c + b * d) <= tolerance && abs((a * a + b * b) - (c * c + d * d)) <= tolerance * max(1, abs(a) + abs(d))
    }

    /// Translate · rotate · scale, when the matrix has no skew (its columns are orthogonal): what a
    /// VectorDrawable `<group>` can hold. Nil for a skew.
    var decomposed: (translateX: Double, translateY: Double, rotation: Double, scaleX: Double, scaleY: Double)? {
        let tolerance = 1e-9 * max(1, abs(a) + abs(b) + abs(c) + abs(d))
        guard abs(a * c + b * d) <= tolerance else { return nil }
        let scaleX = (a * a + b * b).squareRoot()
        guard scaleX > 0 else { return nil }
        let rotation = atan2(b, a) * 180 / .pi
        let scaleY = determinant / scaleX
        return (e, f, rotation, scaleX, scaleY)
    }

    /// Parses a `transform` attribute (`translate`, `scale`, `rotate` with or without a centre,
    /// `skewX`, `skewY`, `matrix`, in a list). Nil when it does not parse or a number is not finite.
    init?(svg text: String) {
        var result = VectorTransform.identity
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            if rest.isEmpty { break }
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else { return nil }
            let name = rest[..<open].trimmingCSSSpace
            guard let numbers = VectorNumbers.list(rest[rest.index(after: open)..<close]) else { return nil }
            let n = numbers.count
            let t: VectorTransform
            switch (name, n) {
            case ("matrix", 6):
                t = VectorTransform(a: numbers[0], b: numbers[1], c: numbers[2], d: numbers[3], e: numbers[4], f: numbers[5])
            case ("translate", 1): t = .translate(numbers[0], 0)
            case ("translate", 2): t = .translate(numbers[0], numbers[1])
            case ("scale", 1): t = .scale(numbers[0], numbers[0])
            case ("scale", 2): t = .scale(numbers[0], numbers[1])
            case ("rotate", 1): t = .rotate(degrees: numbers[0])
            case ("rotate", 3):
                t = VectorTransform.translate(numbers[1], numbers[2]).concatenating(.rotate(degrees: numbers[0]))
                    .concatenating(.translate(-numbers[1], -numbers[2]))
            case ("skewX", 1): t = VectorTransform(c: tan(numbers[0] * .pi / 180))
            case ("skewY", 1): t = VectorTransform(b: tan(numbers[0] * .pi / 180))
            default: return nil
            }
            result = result.concatenating(t)
            rest = rest[rest.index(after: close)...]
        }
        guard [result.a, result.b, result.c, result.d, result.e, result.f].allSatisfy(\.isFinite) else { return nil }
        self = result
    }

    init(a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 1, e: Double = 0, f: Double = 0) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }
}

struct VectorPoint: Sendable, Equatable {
    var x: Double, y: Double
}

/// Number lists as SVG writes them: separated by white space and/or one comma, `1-2` and `.5.5`
/// split as SVG's grammar splits them.
enum VectorNumbers {
    /// Every number of `text`; nil when something else is there or a number is not finite.
    static func list(_ text: Substring) -> [Double]? {
        var scanner = Scanner(text.utf8)
        var numbers: [Double] = []
        while true {
            scanner.skipSeparators()
            if scanner.atEnd { return numbers }
            guard let n = scanner.number() else { return nil }
            numbers.append(n)
        }
    }

    /// A byte scanner for numbers and single-letter commands (path data, points, lists).
    struct Scanner {
        let bytes: [UInt8]
        var i = 0
        init(_ utf8: Substring.UTF8View) { bytes = Array(utf8) }
        var atEnd: Bool { i >= bytes.count }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func skipSeparators() {
            var comma = false
            while i < bytes.count {
                let c = bytes[i]
                if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                    i += 1
                } else if c == UInt8(ascii: ","), !comma {
                    comma = true; i += 1
                } else {
                    break
                }
            }
        }

        /// A number (sign, digits, fraction, exponent); nil (position kept) when none is here.
        mutating func number() -> Double? {
            let start = i
            var j = i
            if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            var digits = 0
            while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39 { j += 1; digits += 1 }
            if j < bytes.count, bytes[j] == UInt8(ascii: ".") {
                j += 1
                while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39 { j += 1; digits += 1 }
            }
            guard digits > 0 else { return nil }
            if j < bytes.count, bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E") {
                var k = j + 1
                if k < bytes.count, bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-") { k += 1 }
                var expDigits = 0
                while k < bytes.count, bytes[k] >= 0x30, bytes[k] <= 0x39 { k += 1; expDigits += 1 }
                if expDigits > 0 { j = k }
            }
            guard let value = Double(String(decoding: bytes[start..<j], as: UTF8.self)), value.isFinite else { return nil }
            i = j
            return value
        }

        /// An arc flag: a single `0` or `1` (SVG allows `a1 1 0 1010 10` with no separators).
        mutating func flag() -> Bool? {
            guard i < bytes.count, bytes[i] == 0x30 || bytes[i] == 0x31 else { return nil }
            defer { i += 1 }
            return bytes[i] == 0x31
        }
    }
}
