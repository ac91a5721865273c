import Foundation

/// Stroke-width factors of a symbol's Ultralight and Black sources against Regular.
///
/// The defaults are Apple's: in the sample symbols (`../shared/symbols/samples`, outline glyphs),
/// Ultralight's stroke weight (2 × ink area ÷ outline length) is 0.36 to 0.41 of Regular's and
/// Black's 1.51 to 2.01 (`SymbolTemplateTests` measures them).
package struct SymbolWeights: Sendable, Equatable {
    package var ultralight: Double
    package var black: Double
    package static let standard = SymbolWeights(ultralight: 0.4, black: 1.8)
    package init(ultralight: Double, black: Double) {
        self.ultralight = ultralight
        self.black = black
    }
}

/// One drawing's three symbol sources: filled paths (non-zero winding) of move/line/cubic/close
/// only, in the drawing's canvas points (viewBox mapped onto width × height, every group
/// transform applied), compatible for interpolation: `ultralight[i]`, `regular[i]`, `black[i]`
/// have the same command sequence, direction and start point.
struct SymbolOutlines: Sendable, Equatable {
    var ultralight: [VectorPath]
    var regular: [VectorPath]
    var black: [VectorPath]

    /// Most commands in one source: a bound on what hostile input can make us emit.
    static let maxCommands = 200_000

    /// The offset error bound in canvas points: 0.05 template units, where the Regular source's
    /// ~100 pt type draws the canvas's larger side at about 100 units, is 0.0005 of that side;
    /// we use 0.0004 of it (0.01 pt on a 25 pt canvas).
    static func tolerance(for drawing: VectorDrawing) -> Double {
        max(drawing.width, drawing.height) * 0.0004
    }

    /// Throws the feature that stops a symbol (it becomes the `symbol-fallback` lint).
    static func make(_ drawing: VectorDrawing, weights: SymbolWeights) throws(VectorUnsupported) -> SymbolOutlines {
        guard weights.ultralight > 0, weights.ultralight <= 1, weights.black >= 1, weights.black.isFinite else {
            throw VectorUnsupported(.value("symbol weights \(weights.ultralight), \(weights.black)"))
        }
        let tolerance = tolerance(for: drawing)
        guard tolerance > 0, tolerance.isFinite, drawing.viewBox.width > 0, drawing.viewBox.height > 0 else {
            throw VectorUnsupported(.value("a canvas of \(drawing.width) × \(drawing.height)"))
        }
        let toCanvas = VectorTransform(
            a: drawing.width / drawing.viewBox.width, d: drawing.height / drawing.viewBox.height,
            e: -drawing.viewBox.x * drawing.width / drawing.viewBox.width,
            f: -drawing.viewBox.y * drawing.height / drawing.viewBox.height)
        let flat = try drawing.root.flattened(by: toCanvas)
        var shapes: [VectorShape] = []
        try collect(flat, into: &shapes, clips: [])
        // Thickness of filled ink (2·area / perimeter), for offsetting filled outlines as a
        // stroke of that thickness would grow or shrink.
        var area = 0.0, perimeter = 0.0
        for shape in shapes where shape.fill != nil {
            for c in CubicContour.contours(of: shape.path) {
                let points = c.flattened()
                area += abs(Polygon.signedArea(points))
                for i in points.indices { perimeter += (points[(i + 1) % points.count] - points[i]).length }
            }
        }
        let thickness = perimeter > 0 ? min(2 * area / perimeter, 0.1 * max(drawing.width, drawing.height)) : 0
        var result = SymbolOutlines(ultralight: [], regular: [], black: [])
        let stroker = PathStroker(tolerance: tolerance)
        var emitted = 0
        func add(_ three: [[VectorPath.Command]]) throws(VectorUnsupported) {
            guard three[0].count > 1 else { return }
            emitted += three[1].count
            guard emitted <= maxCommands else { throw VectorUnsupported(.symbolSize(maxCommands)) }
            guard three[0].map(Kind.init) == three[1].map(Kind.init), three[2].map(Kind.init) == three[1].map(Kind.init) else {
                throw VectorUnsupported(.incompatibleWeights)
            }
            guard three.allSatisfy({ $0.allSatisfy(\.isFinite) }) else {
                throw VectorUnsupported(.value("a coordinate beyond the range a symbol can hold"))
            }
            result.ultralight.append(VectorPath(commands: three[0]))
            result.regular.append(VectorPath(commands: three[1]))
            result.black.append(VectorPath(commands: three[2]))
        }
        for shape in shapes {
            if shape.fill != nil {
                let contours = CubicContour.contours(of: shape.path).filter { $0.segments.count > 0 }
                let wound = shape.evenOdd ? Winding.nonZero(contours) : contours
                let polygons = wound.map { $0.flattened() }
                var commands: [[VectorPath.Command]] = [[], [], []]
                for contour in wound {
                    var centre = PathStroker.Centre(CubicContour(start: contour.start, segments: contour.segments, closed: true))
                    guard !centre.segments.isEmpty else { continue }
                    // Which side of this contour is outside the ink: a probe just left of its first segment.
                    let (t0, _) = centre.tangents(0)
                    let mid: VectorPoint
                    switch centre.segments[0] {
                    case .line(let p): mid = (centre.start + p) * 0.5
                    case .cubic(let a, let b, let p): mid = Bezier.point(centre.start, a, b, p, 0.5)
                    }
                    let probeTangent: VectorPoint
                    if case .cubic(let a, let b, let p) = centre.segments[0] {
                        probeTangent = Bezier.derivative(centre.start, a, b, p, 0.5).unit
                    } else {
                        probeTangent = t0
                    }
                    let probe = mid + probeTangent.normalLeft * (tolerance * 0.5)
                    let inkOnLeft = polygons.reduce(0) { $0 + Polygon.winding($1, around: probe) } != 0
                    let outward = inkOnLeft ? -1.0 : 1.0
                    let distances = [(weights.ultralight - 1) * thickness / 2, 0, (weights.black - 1) * thickness / 2].map {
                        $0 * outward
                    }
                    stroker.plan(&centre, distances: distances)
                    for (k, d) in distances.enumerated() {
                        let side = PathStroker.side(centre, distance: d, join: .miter(limit: 4), innerPivot: false)
                        commands[k] += [.move(side.start)] + side.commands + [.close]
                    }
                }
                try add(commands)
            }
            if let stroke = shape.stroke, stroke.width > 0 {
                let join: PathStroker.Join =
                    switch stroke.join {
                    case .miter: .miter(limit: max(1, stroke.miterLimit))
                    case .round: .round
                    case .bevel: .bevel
                    }
                let cap: PathStroker.Cap =
                    switch stroke.cap {
                    case .butt: .butt
                    case .round: .round
                    case .square: .square
                    }
                let halves = [weights.ultralight, 1, weights.black].map { stroke.width * $0 / 2 }
                var commands: [[VectorPath.Command]] = [[], [], []]
                for contour in CubicContour.contours(of: shape.path) {
                    var centre = PathStroker.Centre(contour)
                    stroker.plan(&centre, distances: halves)
                    for (k, h) in halves.enumerated() {
                        for outline in PathStroker.stroke(centre, halfWidth: h, join: join, cap: cap) { commands[k] += outline }
                    }
                }
                try add(commands)
            }
        }
        return result
    }

    /// The kind of a command: what must match across weights.
    private enum Kind: Equatable {
        case move, line, cubic, other, close
        init(_ c: VectorPath.Command) {
            switch c {
            case .move: self = .move
            case .line: self = .line
            case .cubic: self = .cubic
            case .quad, .arc: self = .other
            case .close: self = .close
            }
        }
    }

    /// Shapes in drawing order; refuses what a symbol (one opaque template colour) cannot hold.
    private static func collect(_ group: VectorGroup, into shapes: inout [VectorShape], clips: [[VectorClipPath]])
        throws(VectorUnsupported)
    {
        guard group.opacity >= 1 else { throw VectorUnsupported(.translucency) }
        let clips = group.clip.isEmpty ? clips : clips + [group.clip]
        for child in group.children {
            switch child {
            case .group(let g): try collect(g, into: &shapes, clips: clips)
            case .shape(let s):
                guard s.opacity >= 1 else { throw VectorUnsupported(.translucency) }
                var s = s
                if let fill = s.fill {
                    guard case .color(let colour) = fill else { throw VectorUnsupported(.gradientPaint) }
                    if colour.alpha == 0 || s.fillOpacity <= 0 {
                        s.fill = nil
                    } else if colour.alpha < 1 || s.fillOpacity < 1 {
                        throw VectorUnsupported(.translucency)
                    }
                }
                if let stroke = s.stroke {
                    guard case .color(let colour) = stroke.paint else { throw VectorUnsupported(.gradientPaint) }
                    if colour.alpha == 0 || stroke.opacity <= 0 || stroke.width <= 0 {
                        s.stroke = nil
                    } else if colour.alpha < 1 || stroke.opacity < 1 {
                        throw VectorUnsupported(.translucency)
                    }
                }
                guard s.fill != nil || s.stroke != nil else { continue }
                for clip in clips where !contains(clip, s) { throw VectorUnsupported(.clipCutsInk) }
                shapes.append(s)
            }
        }
    }

    /// Whether a clip surely holds all of a shape's ink: one convex clip contour whose flattened
    /// polygon (inside the true clip) contains every control point of the ink's outline grown by
    /// the widest stroke's reach.
    private static func contains(_ clip: [VectorClipPath], _ shape: VectorShape) -> Bool {
        for c in clip {
            let contours = CubicContour.contours(of: c.path)
            guard contours.count == 1, let polygon = contours.first?.flattened(steps: 32), polygon.count > 2, isConvex(polygon)
            else { continue }
            var reach = 0.0
            if let stroke = shape.stroke {
                reach =
                    stroke.width * SymbolWeights.standard.black / 2
                    * max(stroke.join == .miter ? stroke.miterLimit : 1, stroke.cap == .square ? 2.0.squareRoot() : 1)
            }
            var points: [VectorPoint] = []
            for command in shape.path.commands {
                switch command {
                case .move(let p), .line(let p): points.append(p)
                case .cubic(let a, let b, let p): points += [a, b, p]
                case .quad(let a, let p): points += [a, p]
                case .arc(let rx, let ry, _, _, _, let p): points.append(p); reach += max(rx, ry) * 2
                case .close: break
                }
            }
            let grown = points.flatMap { p in
                [
                    p + VectorPoint(x: -reach, y: -reach), p + VectorPoint(x: reach, y: -reach),
                    p + VectorPoint(x: reach, y: reach), p + VectorPoint(x: -reach, y: reach)
                ]
            }
            if grown.allSatisfy({ Polygon.winding(polygon, around: $0) != 0 }) { return true }
        }
        return false
    }

    private static func isConvex(_ polygon: [VectorPoint]) -> Bool {
        var sign = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count], c = polygon[(i + 2) % polygon.count]
            let cross = (b - a).cross(c - b)
            if abs(cross) < 1e-12 { continue }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }
}

extension VectorPath.Command {
    var isFinite: Bool {
        func f(_ p: VectorPoint) -> Bool { p.x.isFinite && p.y.isFinite && abs(p.x) < 1e9 && abs(p.y) < 1e9 }
        switch self {
        case .move(let p), .line(let p): return f(p)
        case .cubic(let a, let b, let p): return f(a) && f(b) && f(p)
        case .quad(let a, let p): return f(a) && f(p)
        case .arc(_, _, _, _, _, let p): return f(p)
        case .close: return true
        }
    }
}
