import Foundation

/// Outlines of one contour at a signed distance from it, built so that every distance gives the
/// same command sequence (SF Symbol weights interpolate point by point): the structure — which
/// cubics are cut into how many pieces, which joins are miters, bevels, arcs or pivots, how many
/// arcs a round join or cap has — depends on the geometry of the centre line only, never on the
/// width, and `plan` picks the cubics' pieces once from every width the caller will ask for.
struct PathStroker {
    enum Join: Equatable { case miter(limit: Double), round, bevel }
    enum Cap: Equatable { case butt, round, square }

    /// A contour without zero-length segments, with the tangents at each segment's ends.
    struct Centre {
        var start: VectorPoint
        var segments: [CubicContour.Segment]
        var closed: Bool
        /// Pieces each segment is cut into (1 for lines), from `plan`.
        var pieces: [Int]

        init(_ contour: CubicContour) {
            start = contour.start
            segments = []
            var point = start
            for s in contour.segments {
                let distinct: Bool
                switch s {
                case .line(let p): distinct = p != point
                case .cubic(let a, let b, let p): distinct = a != point || b != point || p != point
                }
                if distinct { segments.append(s); point = s.end }
            }
            closed = contour.closed
            if closed, point != start { segments.append(.line(start)) }
            pieces = Array(repeating: 1, count: segments.count)
        }

        func from(_ index: Int) -> VectorPoint { index == 0 ? start : segments[index - 1].end }

        /// Direction of travel at the segment's start and end (a cubic's first distinct handle).
        func tangents(_ index: Int) -> (VectorPoint, VectorPoint) {
            let p0 = from(index)
            switch segments[index] {
            case .line(let p): return ((p - p0).unit, (p - p0).unit)
            case .cubic(let a, let b, let p): return Bezier.endTangents(p0, a, b, p)
            }
        }
    }

    /// The largest distance between an emitted offset curve and the true offset, in the
    /// drawing's canvas points (see `SymbolOutlines.tolerance`).
    var tolerance: Double
    /// Most pieces one cubic is cut into.
    static let maxPieces = 64

    /// Chooses each cubic's pieces so that its offsets at every distance in `distances` (both
    /// sides) stay within `tolerance`, or `maxPieces`.
    func plan(_ centre: inout Centre, distances: [Double]) {
        for index in centre.segments.indices {
            guard case .cubic(let a, let b, let p) = centre.segments[index] else { continue }
            let p0 = centre.from(index)
            var n = 1
            while n < Self.maxPieces,
                distances.contains(where: {
                    offsetError(p0, a, b, p, pieces: n, distance: $0) > tolerance
                        || offsetError(p0, a, b, p, pieces: n, distance: -$0) > tolerance
                })
            {
                n *= 2
            }
            centre.pieces[index] = n
        }
    }

    /// The largest distance, at matching parameters, between the true offset and the emitted one.
    func offsetError(_ p0: VectorPoint, _ a: VectorPoint, _ b: VectorPoint, _ p: VectorPoint, pieces: Int, distance d: Double)
        -> Double
    {
        guard d != 0 else { return 0 }
        var worst = 0.0
        for k in 0..<pieces {
            let t0 = Double(k) / Double(pieces), t1 = Double(k + 1) / Double(pieces)
            let piece = Bezier.piece(p0, a, b, p, t0, t1)
            let o = Self.offsetPiece(piece, d)
            for j in 1..<8 {
                let s = Double(j) / 8
                let t = t0 + (t1 - t0) * s
                let tangent = Bezier.derivative(p0, a, b, p, t)
                guard tangent.length > 1e-12 * max(1, p0.length) else { continue }
                let truth = Bezier.point(p0, a, b, p, t) + tangent.normalLeft * d
                worst = max(worst, (Bezier.point(o.0, o.1, o.2, o.3, s) - truth).length)
            }
        }
        return worst
    }

    /// One piece offset by `d` (left of travel when positive): ends moved along their normals,
    /// handles kept in direction and scaled as a circular arc's would be (exact for an arc).
    static func offsetPiece(_ piece: (VectorPoint, VectorPoint, VectorPoint, VectorPoint), _ d: Double)
        -> (VectorPoint, VectorPoint, VectorPoint, VectorPoint)
    {
        let (p0, a, b, p) = piece
        let (t0, t1) = Bezier.endTangents(p0, a, b, p)
        let q0 = p0 + t0.normalLeft * d, q3 = p + t1.normalLeft * d
        let length = ((a - p0).length + (b - a).length + (p - b).length + (p - p0).length) / 2
        // Turning to the left (negative cross on a y-down screen) shrinks the left offset.
        let leftTurn = -atan2(t0.cross(t1), t0.dot(t1))
        let ratio = length > 0 ? max(0, 1 - d * leftTurn / length) : 1
        return (q0, q0 + (a - p0) * ratio, q3 + (b - p) * ratio, q3)
    }

    /// The commands tracing `centre`'s offset at `d` (left when positive), from its first point;
    /// joins between segments as `join` on the outer side and `inner` on the inner side.
    static func side(_ centre: Centre, distance d: Double, join: Join, innerPivot: Bool) -> (
        start: VectorPoint, commands: [VectorPath.Command]
    ) {
        var out: [VectorPath.Command] = []
        let count = centre.segments.count
        let first = centre.tangents(0).0
        let start = centre.start + first.normalLeft * d
        for index in 0..<count {
            let p0 = centre.from(index)
            switch centre.segments[index] {
            case .line(let p):
                out.append(.line(p + (p - p0).normalLeft * d))
            case .cubic(let a, let b, let p):
                let n = centre.pieces[index]
                for k in 0..<n {
                    let o = offsetPiece(Bezier.piece(p0, a, b, p, Double(k) / Double(n), Double(k + 1) / Double(n)), d)
                    out.append(.cubic(o.1, o.2, o.3))
                }
            }
            if index + 1 < count || centre.closed {
                let next = (index + 1) % count
                out += joinCommands(
                    at: centre.segments[index].end, from: centre.tangents(index).1, to: centre.tangents(next).0, distance: d,
                    join: join, innerPivot: innerPivot)
            }
        }
        return (start, out)
    }

    /// Turning angles below this are smooth: no join (the offsets meet within |d|·1e-6).
    static let smooth = 1e-6

    static func joinCommands(
        at p: VectorPoint, from tA: VectorPoint, to tB: VectorPoint, distance d: Double, join: Join, innerPivot: Bool
    )
        -> [VectorPath.Command]
    {
        let turn = atan2(tA.cross(tB), tA.dot(tB))  // negative: a left turn on screen
        guard abs(turn) >= smooth else { return [] }
        let nA = tA.normalLeft, nB = tB.normalLeft
        let offA = p + nA * d, offB = p + nB * d
        // The left side is outer on a right turn (turn > 0); with d < 0 the sides swap.
        let outer = (turn > 0) == (d >= 0)
        let half = cos(turn / 2)  // 1/half is the miter's length ratio
        let tip = p + (nA + nB).unit * (d / max(half, 1e-12))
        if !outer {
            return [.line(innerPivot || 1 / half > 4 ? p : tip), .line(offB)]
        }
        switch join {
        case .miter(let limit) where 1 / half <= limit: return [.line(tip), .line(offB)]
        case .miter, .bevel: return [.line(offA + (offB - offA) * 0.5), .line(offB)]
        case .round: return arc(centre: p, from: offA, turn: d >= 0 ? turn : turn, radius: d)
        }
    }

    /// Cubic arcs around `centre` from `from`, turning the normal by `turn` (a fixed count by angle).
    static func arc(centre: VectorPoint, from: VectorPoint, turn: Double, radius d: Double) -> [VectorPath.Command] {
        let count = max(1, Int((abs(turn) / (.pi / 2)).rounded(.up)))
        let step = turn / Double(count)
        let k = 4.0 / 3.0 * tan(step / 4)
        var out: [VectorPath.Command] = []
        var v = from - centre
        for _ in 0..<count {
            let c = cos(step), s = sin(step)
            let w = VectorPoint(x: v.x * c - v.y * s, y: v.x * s + v.y * c)
            // The tangent of a circle traced by rotating v by a positive angle (y down) is (-v.y, v.x).
            let c1 = centre + v + VectorPoint(x: -v.y, y: v.x) * k
            let c2 = centre + w - VectorPoint(x: -w.y, y: w.x) * k
            out.append(.cubic(c1, c2, centre + w))
            v = w
        }
        return out
    }

    /// A cap at `end` (tangent `t`, travelling out of the stroke) from its left edge to its right.
    static func cap(_ cap: Cap, at end: VectorPoint, tangent t: VectorPoint, halfWidth h: Double) -> [VectorPath.Command] {
        let n = t.normalLeft
        let left = end + n * h, right = end - n * h
        switch cap {
        case .butt: return [.line(right)]
        case .square: return [.line(left + t * h), .line(right + t * h), .line(right)]
        case .round: return arc(centre: end, from: left, turn: .pi, radius: h)
        }
    }

    /// The stroke of `centre` at half-width `h`: one closed contour for an open path (left side,
    /// end cap, right side back, start cap), two for a closed one (left side, right side back).
    static func stroke(_ centre: Centre, halfWidth h: Double, join: Join, cap: Cap) -> [[VectorPath.Command]] {
        guard !centre.segments.isEmpty else { return dot(at: centre.start, halfWidth: h, cap: cap) }
        var back = Centre(CubicContour(start: centre.start, segments: centre.segments, closed: centre.closed).reversed)
        back.pieces = centre.pieces.reversed()
        let left = side(centre, distance: h, join: join, innerPivot: true)
        let right = side(back, distance: h, join: join, innerPivot: true)
        if centre.closed {
            return [[.move(left.start)] + left.commands + [.close], [.move(right.start)] + right.commands + [.close]]
        }
        let endTangent = centre.tangents(centre.segments.count - 1).1
        let startTangent = centre.tangents(0).0 * -1
        let endPoint = centre.segments[centre.segments.count - 1].end
        return [
            [.move(left.start)] + left.commands + Self.cap(cap, at: endPoint, tangent: endTangent, halfWidth: h) + right.commands
                + Self.cap(cap, at: centre.start, tangent: startTangent, halfWidth: h) + [.close]
        ]
    }

    /// A zero-length subpath: a dot for round caps, a square for square caps, nothing for butt.
    static func dot(at p: VectorPoint, halfWidth h: Double, cap: Cap) -> [[VectorPath.Command]] {
        switch cap {
        case .butt: return []
        case .square:
            return [
                [
                    .move(VectorPoint(x: p.x - h, y: p.y - h)), .line(VectorPoint(x: p.x + h, y: p.y - h)),
                    .line(VectorPoint(x: p.x + h, y: p.y + h)), .line(VectorPoint(x: p.x - h, y: p.y + h)), .close
                ]
            ]
        case .round:
            let from = VectorPoint(x: p.x + h, y: p.y)
            return [[.move(from)] + arc(centre: p, from: from, turn: 2 * .pi, radius: h) + [.close]]
        }
    }
}
