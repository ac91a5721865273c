import TabIconsCore
/// What one `<path d>` or `<polyline points>` will cost librsvg to draw, read without building
/// the path, for `SVGScreening`: its segments (an arc or a curve flattens into several lines,
/// and a stroke's work grows with how many segments cross), its vertices (where markers go), and
/// an upper bound of its length (what a dash pattern is laid along).
struct SVGPathMeasure: Sendable, Equatable {
    /// Segments with arcs and curves weighted by what they flatten into (measured on librsvg 2.54:
    /// 30,000 round-joined arcs took 13 times as long to stroke as 30,000 lines).
    var weightedSegments = 0.0
    var vertices = 0
    /// At least the path's length, in its user units.
    var length = 0.0

    /// An arc's or a curve's weight against a line's.
    static let curveWeight = 4.0

    /// Path data (`d`): commands and their numbers, relative or absolute.
    init(pathData d: String) {
        var x = 0.0, y = 0.0, startX = 0.0, startY = 0.0
        var command: UInt8 = 0
        var numbers: [Double] = []
        numbers.reserveCapacity(7)
        func arity(_ c: UInt8) -> Int {
            switch c | 0x20 {
            case UInt8(ascii: "m"), UInt8(ascii: "l"), UInt8(ascii: "t"): return 2
            case UInt8(ascii: "h"), UInt8(ascii: "v"): return 1
            case UInt8(ascii: "c"): return 6
            case UInt8(ascii: "s"), UInt8(ascii: "q"): return 4
            case UInt8(ascii: "a"): return 7
            default: return 0
            }
        }
        func finish() {
            let relative = command >= UInt8(ascii: "a")
            let ox = relative ? x : 0, oy = relative ? y : 0
            var toX = x, toY = y, extra = 0.0, weight = 1.0
            switch command | 0x20 {
            case UInt8(ascii: "m"):
                toX = ox + numbers[0]; toY = oy + numbers[1]; startX = toX; startY = toY
                x = toX; y = toY; vertices += 1
                command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")  // later pairs are lines
                return
            case UInt8(ascii: "l"), UInt8(ascii: "t"): toX = ox + numbers[0]; toY = oy + numbers[1]
            case UInt8(ascii: "h"): toX = ox + numbers[0]
            case UInt8(ascii: "v"): toY = oy + numbers[0]
            case UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "q"):
                // The control polygon is at least the curve's length.
                var px = x, py = y
                for pair in stride(from: 0, to: numbers.count, by: 2) {
                    let nx = ox + numbers[pair], ny = oy + numbers[pair + 1]
                    extra += ((nx - px) * (nx - px) + (ny - py) * (ny - py)).squareRoot()
                    px = nx; py = ny
                }
                toX = px; toY = py; weight = Self.curveWeight
            case UInt8(ascii: "a"):
                toX = ox + numbers[5]; toY = oy + numbers[6]
                // An arc is at most the whole ellipse, its radii grown to reach the end point.
                let chord = ((toX - x) * (toX - x) + (toY - y) * (toY - y)).squareRoot()
                extra = 2 * Double.pi * max(abs(numbers[0]), abs(numbers[1]), chord / 2)
                weight = Self.curveWeight
            default: return
            }
            if extra == 0 { extra = ((toX - x) * (toX - x) + (toY - y) * (toY - y)).squareRoot() }
            length += extra.isFinite ? extra : Double.greatestFiniteMagnitude
            weightedSegments += weight
            vertices += 1
            x = toX; y = toY
        }
        var token: [UInt8] = []
        func flushNumber() {
            guard !token.isEmpty else { return }
            numbers.append(Double(String(decoding: token, as: UTF8.self)) ?? 0)
            token.removeAll(keepingCapacity: true)
            // Arc flags may be written without separators ("a1 1 0 01 5 5"): one digit each.
            if numbers.count == arity(command) { finish(); numbers.removeAll(keepingCapacity: true) }
        }
        for byte in d.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                if byte == UInt8(ascii: "."), token.contains(UInt8(ascii: ".")),
                    !token.contains(where: { $0 | 0x20 == UInt8(ascii: "e") })
                {
                    flushNumber()  // "0.5.5" is two numbers
                }
                token.append(byte)
                let flags = numbers.count == 3 || numbers.count == 4
                if command | 0x20 == UInt8(ascii: "a"), flags, byte != UInt8(ascii: ".") { flushNumber() }
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                if let last = token.last, last | 0x20 == UInt8(ascii: "e") {
                    token.append(byte)
                } else {
                    flushNumber(); token.append(byte)
                }
            case _ where (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"):
                flushNumber()
                numbers.removeAll(keepingCapacity: true)
                command = byte
                if byte | 0x20 == UInt8(ascii: "z") {
                    let closing = ((startX - x) * (startX - x) + (startY - y) * (startY - y)).squareRoot()
                    length += closing.isFinite ? closing : 0
                    weightedSegments += 1
                    x = startX; y = startY
                }
            default:
                flushNumber()
            }
        }
        flushNumber()
    }

    /// `points` of a `<polyline>` or `<polygon>`: a line from each pair to the next.
    init(points: String) {
        var previous: (Double, Double)?
        var pending: Double?
        for part in points.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            let value = Double(part) ?? 0
            guard let first = pending else { pending = value; continue }
            pending = nil
            if let (px, py) = previous {
                let step = ((first - px) * (first - px) + (value - py) * (value - py)).squareRoot()
                length += step.isFinite ? step : Double.greatestFiniteMagnitude
                weightedSegments += 1
            }
            vertices += 1
            previous = (first, value)
        }
    }
}
