import Foundation

/// One subpath in the two commands a symbol holds besides move/close: lines and cubics (arcs and
/// quadratics converted), with its start and whether it closes.
struct CubicContour: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case line(VectorPoint)
        case cubic(VectorPoint, VectorPoint, VectorPoint)

        var end: VectorPoint {
            switch self {
            case .line(let p): return p
            case .cubic(_, _, let p): return p
            }
        }
    }

    var start: VectorPoint
    var segments: [Segment]
    var closed: Bool

    /// The subpaths of `path`, arcs and quadratics as cubics; a subpath that draws nothing is kept
    /// (a zero-length subpath may still carry a round or square cap).
    static func contours(of path: VectorPath) -> [CubicContour] {
        var result: [CubicContour] = []
        var current: CubicContour?
        var point = VectorPoint(x: 0, y: 0)
        func finish() { if let c = current { result.append(c) }; current = nil }
        func open() -> CubicContour { current ?? CubicContour(start: point, segments: [], closed: false) }
        for command in path.commands {
            switch command {
            case .move(let p):
                finish(); current = CubicContour(start: p, segments: [], closed: false); point = p
            case .line(let p):
                var c = open(); c.segments.append(.line(p)); current = c; point = p
            case .cubic(let c1, let c2, let p):
                var c = open(); c.segments.append(.cubic(c1, c2, p)); current = c; point = p
            case .quad(let q, let p):
                var c = open()
                c.segments.append(.cubic(point + (q - point) * (2.0 / 3), p + (q - p) * (2.0 / 3), p))
                current = c; point = p
            case .arc(let rx, let ry, let rotation, let large, let sweep, let p):
                var c = open()
                for curve in VectorPath.arcCubics(
                    from: point, rx: rx, ry: ry, rotation: rotation, large: large, sweep: sweep, to: p)
                {
                    c.segments.append(
                        curve.1 == curve.2 && curve.0 == curve.2 ? .line(curve.2) : .cubic(curve.0, curve.1, curve.2))
                }
                current = c; point = p
            case .close:
                if var c = current {
                    c.closed = true; result.append(c); point = c.start
                    current = nil
                }
            }
        }
        finish()
        return result
    }

    /// The contour as path commands: move, lines/cubics, close when closed.
    var commands: [VectorPath.Command] {
        var out: [VectorPath.Command] = [.move(start)]
        for s in segments {
            switch s {
            case .line(let p): out.append(.line(p))
            case .cubic(let a, let b, let p): out.append(.cubic(a, b, p))
            }
        }
        if closed { out.append(.close) }
        return out
    }

    /// The same contour traced backwards (same point set, opposite direction).
    var reversed: CubicContour {
        var points = [start]
        for s in segments { points.append(s.end) }
        var out: [Segment] = []
        for (index, s) in segments.enumerated().reversed() {
            switch s {
            case .line: out.append(.line(points[index]))
            case .cubic(let a, let b, _): out.append(.cubic(b, a, points[index]))
            }
        }
        return CubicContour(start: points.last ?? start, segments: out, closed: closed)
    }

    /// Points along the contour: line ends and each cubic at `steps` parameters.
    func flattened(steps: Int = 16) -> [VectorPoint] {
        var points = [start]
        var p0 = start
        for s in segments {
            switch s {
            case .line(let p): points.append(p)
            case .cubic(let a, let b, let p):
                for k in 1...steps { points.append(Bezier.point(p0, a, b, p, Double(k) / Double(steps))) }
            }
            p0 = s.end
        }
        return points
    }

    /// Shoelace area of the flattened contour (positive: clockwise on screen, y down).
    var signedArea: Double { Polygon.signedArea(flattened()) }
}

enum Bezier {
    static func point(_ p0: VectorPoint, _ p1: VectorPoint, _ p2: VectorPoint, _ p3: VectorPoint, _ t: Double) -> VectorPoint {
        let u = 1 - t
        return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
    }

    static func derivative(_ p0: VectorPoint, _ p1: VectorPoint, _ p2: VectorPoint, _ p3: VectorPoint, _ t: Double) -> VectorPoint
    {
        let u = 1 - t
        return (p1 - p0) * (3 * u * u) + (p2 - p1) * (6 * u * t) + (p3 - p2) * (3 * t * t)
    }

    /// The directions of travel at a cubic's ends (unit): toward its first handle distinct from
    /// each end, the other end when both handles sit on it.
    static func endTangents(_ p0: VectorPoint, _ p1: VectorPoint, _ p2: VectorPoint, _ p3: VectorPoint)
        -> (VectorPoint, VectorPoint)
    {
        let t0 = p1 != p0 ? p1 - p0 : p2 != p0 ? p2 - p0 : p3 - p0
        let t1 = p3 != p2 ? p3 - p2 : p3 != p1 ? p3 - p1 : p3 - p0
        return (t0.unit, t1.unit)
    }

    /// The part of a cubic between parameters `t0` and `t1` (de Casteljau, twice).
    static func piece(_ p0: VectorPoint, _ p1: VectorPoint, _ p2: VectorPoint, _ p3: VectorPoint, _ t0: Double, _ t1: Double)
        -> (VectorPoint, VectorPoint, VectorPoint, VectorPoint)
    {
        let a = point(p0, p1, p2, p3, t0), d = point(p0, p1, p2, p3, t1)
        let scale = (t1 - t0) / 3
        return (a, a + derivative(p0, p1, p2, p3, t0) * scale, d - derivative(p0, p1, p2, p3, t1) * scale, d)
    }
}

enum Polygon {
    static func signedArea(_ points: [VectorPoint]) -> Double {
        guard points.count > 2 else { return 0 }
        var sum = 0.0
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    /// The length of the polyline through `points`, back to the first when `closed`.
    static func length(_ points: [VectorPoint], closed: Bool) -> Double {
        func distance(_ a: VectorPoint, _ b: VectorPoint) -> Double { hypot(b.x - a.x, b.y - a.y) }
        var total = 0.0
        for i in points.indices.dropFirst() { total += distance(points[i - 1], points[i]) }
        if closed, let first = points.first, let last = points.last { total += distance(last, first) }
        return total
    }

    /// Non-zero winding number of `points` (a closed polygon) around `p`.
    static func winding(_ points: [VectorPoint], around p: VectorPoint) -> Int {
        var w = 0
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            let cross = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
            if a.y <= p.y { if b.y > p.y && cross > 0 { w += 1 } } else if b.y <= p.y && cross < 0 { w -= 1 }
        }
        return w
    }
}

extension VectorPoint {
    static func + (a: VectorPoint, b: VectorPoint) -> VectorPoint { VectorPoint(x: a.x + b.x, y: a.y + b.y) }
    static func - (a: VectorPoint, b: VectorPoint) -> VectorPoint { VectorPoint(x: a.x - b.x, y: a.y - b.y) }
    static func * (a: VectorPoint, k: Double) -> VectorPoint { VectorPoint(x: a.x * k, y: a.y * k) }
    var length: Double { (x * x + y * y).squareRoot() }
    /// The unit vector a quarter turn counter-clockwise on screen's left of travel (y down: (y, -x)).
    var normalLeft: VectorPoint { let l = length; return l > 0 ? VectorPoint(x: y / l, y: -x / l) : VectorPoint(x: 0, y: 0) }
    var unit: VectorPoint { let l = length; return l > 0 ? self * (1 / l) : VectorPoint(x: 0, y: 0) }
    func dot(_ o: VectorPoint) -> Double { x * o.x + y * o.y }
    func cross(_ o: VectorPoint) -> Double { x * o.y - y * o.x }
}
