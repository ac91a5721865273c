import Foundation

/// A path in absolute commands (what every SVG shape becomes): move, line, cubic and quadratic
/// curves, elliptical arcs, close. Shorthands (`H`, `V`, `S`, `T`) and relative commands are
/// resolved when parsed, so both writers write one form.
struct VectorPath: Sendable, Equatable {
    enum Command: Sendable, Equatable {
        case move(VectorPoint)
        case line(VectorPoint)
        case cubic(VectorPoint, VectorPoint, VectorPoint)
        case quad(VectorPoint, VectorPoint)
        case arc(rx: Double, ry: Double, rotation: Double, large: Bool, sweep: Bool, to: VectorPoint)
        case close
    }

    var commands: [Command] = []

    var isEmpty: Bool { !commands.contains { if case .move = $0 { return false } else { return true } } }

    /// Path data as SVG writes it. Stops at the first error, keeping what came before (SVG's
    /// error rule, which librsvg follows).
    init(svg d: String) {
        var s = VectorNumbers.Scanner(Substring(d).utf8)
        var current = VectorPoint(x: 0, y: 0), start = current
        var lastControl: VectorPoint?  // the previous cubic's second control (for S)
        var lastQuad: VectorPoint?  // the previous quadratic's control (for T)
        var command: UInt8 = 0
        var first = true
        loop: while true {
            s.skipSeparators()
            guard let c = s.peek else { break }
            if (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) {
                command = c; s.i += 1
                if c | 0x20 == UInt8(ascii: "z") {
                    commands.append(.close); current = start; lastControl = nil; lastQuad = nil
                    continue
                }
            } else if command == 0 || command | 0x20 == UInt8(ascii: "z") {
                break
            }
            if first, command | 0x20 != UInt8(ascii: "m") { break }
            first = false
            let relative = command >= 0x61
            let ox = relative ? current.x : 0, oy = relative ? current.y : 0
            func num() -> Double? { s.skipSeparators(); return s.number() }
            func point() -> VectorPoint? {
                guard let x = num(), let y = num() else { return nil }
                return VectorPoint(x: ox + x, y: oy + y)
            }
            var control: VectorPoint?, quadControl: VectorPoint?
            switch command | 0x20 {
            case UInt8(ascii: "m"):
                guard let p = point() else { break loop }
                commands.append(.move(p)); current = p; start = p
                command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")  // later pairs are lines
            case UInt8(ascii: "l"):
                guard let p = point() else { break loop }
                commands.append(.line(p)); current = p
            case UInt8(ascii: "h"):
                guard let x = num() else { break loop }
                current = VectorPoint(x: ox + x, y: current.y); commands.append(.line(current))
            case UInt8(ascii: "v"):
                guard let y = num() else { break loop }
                current = VectorPoint(x: current.x, y: oy + y); commands.append(.line(current))
            case UInt8(ascii: "c"):
                guard let c1 = point(), let c2 = point(), let p = point() else { break loop }
                commands.append(.cubic(c1, c2, p)); current = p; control = c2
            case UInt8(ascii: "s"):
                let c1 = lastControl.map { VectorPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                guard let c2 = point(), let p = point() else { break loop }
                commands.append(.cubic(c1, c2, p)); current = p; control = c2
            case UInt8(ascii: "q"):
                guard let c1 = point(), let p = point() else { break loop }
                commands.append(.quad(c1, p)); current = p; quadControl = c1
            case UInt8(ascii: "t"):
                let c1 = lastQuad.map { VectorPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                guard let p = point() else { break loop }
                commands.append(.quad(c1, p)); current = p; quadControl = c1
            case UInt8(ascii: "a"):
                guard let rx = num(), let ry = num(), let rotation = num() else { break loop }
                s.skipSeparators()
                guard let large = s.flag() else { break loop }
                s.skipSeparators()
                guard let sweep = s.flag(), let p = point() else { break loop }
                commands.append(.arc(rx: abs(rx), ry: abs(ry), rotation: rotation, large: large, sweep: sweep, to: p));
                current = p
            default:
                break loop
            }
            lastControl = control; lastQuad = quadControl
        }
    }

    init(commands: [Command] = []) { self.commands = commands }

    // MARK: Shapes

    static func rect(x: Double, y: Double, width: Double, height: Double, rx: Double, ry: Double) -> VectorPath {
        guard width > 0, height > 0 else { return VectorPath() }
        let rx = min(rx, width / 2), ry = min(ry, height / 2)
        func p(_ px: Double, _ py: Double) -> VectorPoint { VectorPoint(x: px, y: py) }
        guard rx > 0, ry > 0 else {
            return VectorPath(commands: [
                .move(p(x, y)), .line(p(x + width, y)), .line(p(x + width, y + height)), .line(p(x, y + height)), .close
            ])
        }
        func arc(_ px: Double, _ py: Double) -> Command {
            .arc(rx: rx, ry: ry, rotation: 0, large: false, sweep: true, to: p(px, py))
        }
        return VectorPath(commands: [
            .move(p(x + rx, y)), .line(p(x + width - rx, y)), arc(x + width, y + ry),
            .line(p(x + width, y + height - ry)), arc(x + width - rx, y + height),
            .line(p(x + rx, y + height)), arc(x, y + height - ry),
            .line(p(x, y + ry)), arc(x + rx, y), .close
        ])
    }

    static func ellipse(cx: Double, cy: Double, rx: Double, ry: Double) -> VectorPath {
        guard rx > 0, ry > 0 else { return VectorPath() }
        func p(_ px: Double, _ py: Double) -> VectorPoint { VectorPoint(x: px, y: py) }
        func arc(_ px: Double, _ py: Double) -> Command {
            .arc(rx: rx, ry: ry, rotation: 0, large: false, sweep: true, to: p(px, py))
        }
        return VectorPath(commands: [
            .move(p(cx + rx, cy)), arc(cx, cy + ry), arc(cx - rx, cy), arc(cx, cy - ry), arc(cx + rx, cy), .close
        ])
    }

    static func polyline(_ numbers: [Double], closed: Bool) -> VectorPath {
        let pairs = numbers.count / 2
        guard pairs >= 1 else { return VectorPath() }
        var commands: [Command] = [.move(VectorPoint(x: numbers[0], y: numbers[1]))]
        for k in 1..<pairs { commands.append(.line(VectorPoint(x: numbers[2 * k], y: numbers[2 * k + 1]))) }
        if closed { commands.append(.close) }
        return VectorPath(commands: commands)
    }

    // MARK: Transforms

    /// The path with `t` applied to its coordinates. Arcs become cubic curves unless `t` keeps
    /// angles (a skewed or stretched ellipse is not an SVG arc of the same radii).
    func transformed(by t: VectorTransform) -> VectorPath {
        if t.isIdentity { return self }
        var out: [Command] = []
        out.reserveCapacity(commands.count)
        var current = VectorPoint(x: 0, y: 0), start = current
        let conformal = t.isConformal
        let scale = t.meanScale
        let flips = t.determinant < 0
        let angle = atan2(t.b, t.a) * 180 / .pi
        for command in commands {
            switch command {
            case .move(let p): out.append(.move(t.apply(p))); current = p; start = p
            case .line(let p): out.append(.line(t.apply(p))); current = p
            case .cubic(let c1, let c2, let p): out.append(.cubic(t.apply(c1), t.apply(c2), t.apply(p))); current = p
            case .quad(let c1, let p): out.append(.quad(t.apply(c1), t.apply(p))); current = p
            case .close: out.append(.close); current = start
            case .arc(let rx, let ry, let rotation, let large, let sweep, let p):
                if conformal {
                    out.append(
                        .arc(
                            rx: rx * scale, ry: ry * scale, rotation: flips ? -rotation + angle : rotation + angle,
                            large: large, sweep: flips ? !sweep : sweep, to: t.apply(p)))
                } else {
                    for curve in Self.arcCubics(
                        from: current, rx: rx, ry: ry, rotation: rotation, large: large, sweep: sweep, to: p)
                    {
                        out.append(.cubic(t.apply(curve.0), t.apply(curve.1), t.apply(curve.2)))
                    }
                }
                current = p
            }
        }
        return VectorPath(commands: out)
    }

    /// An SVG arc as cubic Béziers (at most 90° each), or a line when a radius is zero.
    static func arcCubics(
        from p0: VectorPoint, rx: Double, ry: Double, rotation: Double, large: Bool, sweep: Bool,
        to p1: VectorPoint
    ) -> [(VectorPoint, VectorPoint, VectorPoint)] {
        if p0 == p1 { return [] }
        var rx = abs(rx), ry = abs(ry)
        guard rx > 0, ry > 0 else { return [(p0, p1, p1)] }
        let phi = rotation * .pi / 180, cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coefficient = den == 0 ? 0 : (max(0, num) / den).squareRoot()
        if large == sweep { coefficient = -coefficient }
        let cxp = coefficient * rx * y1 / ry, cyp = -coefficient * ry * x1 / rx
        let cx = cosPhi * cxp - sinPhi * cyp + (p0.x + p1.x) / 2
        let cy = sinPhi * cxp + cosPhi * cyp + (p0.y + p1.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta1 = angle(1, 0, (x1 - cxp) / rx, (y1 - cyp) / ry)
        var delta = angle((x1 - cxp) / rx, (y1 - cyp) / ry, (-x1 - cxp) / rx, (-y1 - cyp) / ry)
        if !sweep && delta > 0 { delta -= 2 * .pi }
        if sweep && delta < 0 { delta += 2 * .pi }
        let segments = max(1, Int((abs(delta) / (.pi / 2)).rounded(.up)))
        let step = delta / Double(segments)
        let k = 4.0 / 3.0 * tan(step / 4)
        func point(_ t: Double) -> VectorPoint {
            let x = rx * cos(t), y = ry * sin(t)
            return VectorPoint(x: cosPhi * x - sinPhi * y + cx, y: sinPhi * x + cosPhi * y + cy)
        }
        func derivative(_ t: Double) -> VectorPoint {
            let x = -rx * sin(t), y = ry * cos(t)
            return VectorPoint(x: cosPhi * x - sinPhi * y, y: sinPhi * x + cosPhi * y)
        }
        var result: [(VectorPoint, VectorPoint, VectorPoint)] = []
        var t = theta1
        for index in 0..<segments {
            let t2 = t + step
            let a = point(t), b = index == segments - 1 ? p1 : point(t2)
            let da = derivative(t), db = derivative(t2)
            result.append(
                (VectorPoint(x: a.x + k * da.x, y: a.y + k * da.y), VectorPoint(x: b.x - k * db.x, y: b.y - k * db.y), b))
            t = t2
        }
        return result
    }

    /// The bounding box of the path's drawing (curves sampled; arcs through their cubics).
    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: VectorPoint) { minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y) }
        var current = VectorPoint(x: 0, y: 0), start = current
        func cubic(_ c1: VectorPoint, _ c2: VectorPoint, _ p: VectorPoint) {
            for k in 1...16 {
                let t = Double(k) / 16, u = 1 - t
                add(
                    VectorPoint(
                        x: u * u * u * current.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p.x,
                        y: u * u * u * current.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p.y))
            }
        }
        for command in commands {
            switch command {
            case .move(let p): add(p); current = p; start = p
            case .line(let p): add(p); current = p
            case .cubic(let c1, let c2, let p): cubic(c1, c2, p); current = p
            case .quad(let c, let p):
                cubic(
                    VectorPoint(x: current.x + 2 / 3 * (c.x - current.x), y: current.y + 2 / 3 * (c.y - current.y)),
                    VectorPoint(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y)), p)
                current = p
            case .arc(let rx, let ry, let rotation, let large, let sweep, let p):
                for curve in Self.arcCubics(from: current, rx: rx, ry: ry, rotation: rotation, large: large, sweep: sweep, to: p)
                {
                    cubic(curve.0, curve.1, curve.2); current = curve.2
                }
                current = p
            case .close: current = start
            }
        }
        return minX.isFinite ? (minX, minY, maxX, maxY) : nil
    }

    /// Path data with absolute commands and numbers rounded to `decimals` places (both writers').
    func data(decimals: Int) -> String {
        var out = ""
        out.reserveCapacity(commands.count * 16)
        func n(_ v: Double) -> String { VectorNumberText.format(v, decimals: decimals) }
        func p(_ point: VectorPoint) -> String { n(point.x) + " " + n(point.y) }
        for command in commands {
            if !out.isEmpty { out += " " }
            switch command {
            case .move(let a): out += "M" + p(a)
            case .line(let a): out += "L" + p(a)
            case .cubic(let a, let b, let c): out += "C" + p(a) + " " + p(b) + " " + p(c)
            case .quad(let a, let b): out += "Q" + p(a) + " " + p(b)
            case .arc(let rx, let ry, let rotation, let large, let sweep, let to):
                out +=
                    "A" + n(rx) + " " + n(ry) + " " + n(rotation) + " " + (large ? "1" : "0") + " " + (sweep ? "1" : "0") + " "
                    + p(to)
            case .close: out += "Z"
            }
        }
        return out
    }
}

/// Numbers as the writers print them: rounded to a fixed number of decimals, trailing zeros and
/// `-0` dropped, never an exponent (so every consumer, aapt2 included, reads them), and within
/// ±`limit`: a coordinate of 1e300 in an icon draws as one of 1e9 (the same pixels in any
/// viewport an icon has) in ten digits, not three hundred.
enum VectorNumberText {
    static let limit = 1e9

    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        let value = min(limit, max(-limit, value))
        let factor = pow(10.0, Double(decimals))
        let scaled = (value * factor).rounded(.toNearestOrAwayFromZero)
        guard abs(scaled) < 9e15 else { return String(format: "%.0f", value) }
        var whole = Int64(scaled)
        if whole == 0 { return "0" }
        let negative = whole < 0
        whole = abs(whole)
        var digits = String(whole)
        if decimals > 0 {
            if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
            let split = digits.index(digits.endIndex, offsetBy: -decimals)
            var fraction = digits[split...]
            while fraction.last == "0" { fraction = fraction.dropLast() }
            digits = String(digits[..<split]) + (fraction.isEmpty ? "" : "." + fraction)
        }
        return (negative ? "-" : "") + digits
    }

    /// Decimals for numbers in a space whose larger side is `extent` units: about 1/20,000 of it.
    static func decimals(forExtent extent: Double) -> Int {
        guard extent.isFinite, extent > 0 else { return 3 }
        return min(8, max(1, 5 - Int(log10(extent).rounded(.up))))
    }
}
