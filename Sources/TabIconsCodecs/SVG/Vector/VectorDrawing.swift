/// A drawing as both vector writers need it: groups (transform, opacity, clip) and shapes (a
/// path with resolved paints), every colour, class, `currentColor` and `<use>` resolved, nothing
/// that refers outside. `VectorDrawingBuilder` makes it from an SVG; `VectorSVGWriter` and
/// `VectorDrawableWriter` write it.
struct VectorDrawing: Sendable, Equatable {
    /// The written document's user space: what `viewBox` and a VectorDrawable's viewport are.
    var viewBox: (x: Double, y: Double, width: Double, height: Double)
    /// The document's size in points (dp on Android): the icon's point size.
    var width: Double
    var height: Double
    var root: VectorGroup

    /// Decimals the writers round coordinates to (`VectorNumberText.decimals`).
    var decimals: Int { VectorNumberText.decimals(forExtent: max(viewBox.width, viewBox.height)) }

    static func == (a: VectorDrawing, b: VectorDrawing) -> Bool {
        [a.viewBox.x, a.viewBox.y, a.viewBox.width, a.viewBox.height, a.width, a.height]
            == [b.viewBox.x, b.viewBox.y, b.viewBox.width, b.viewBox.height, b.width, b.height] && a.root == b.root
    }
}

indirect enum VectorNode: Sendable, Equatable {
    case group(VectorGroup)
    case shape(VectorShape)
}

struct VectorGroup: Sendable, Equatable {
    var transform = VectorTransform.identity
    var opacity = 1.0
    /// The clip in the group's own coordinates (after its transform): the union of the paths.
    var clip: [VectorClipPath] = []
    var children: [VectorNode] = []

    /// The shapes drawn below this group.
    var shapeCount: Int {
        children.reduce(0) { count, child in
            switch child {
            case .group(let g): return count + g.shapeCount
            case .shape: return count + 1
            }
        }
    }
}

struct VectorClipPath: Sendable, Equatable {
    var path: VectorPath
    var evenOdd: Bool
}

struct VectorShape: Sendable, Equatable {
    var path: VectorPath
    var fill: VectorPaint?
    var fillOpacity = 1.0
    var evenOdd = false
    var stroke: VectorStroke?
    /// The element's own `opacity`.
    var opacity = 1.0
}

struct VectorStroke: Sendable, Equatable {
    enum Cap: String, Sendable { case butt, round, square }
    enum Join: String, Sendable { case miter, round, bevel }
    var paint: VectorPaint
    var opacity = 1.0
    var width = 1.0
    var cap = Cap.butt
    var join = Join.miter
    var miterLimit = 4.0
}

enum VectorPaint: Sendable, Equatable {
    case color(VectorColor)
    case linear(VectorLinearGradient)
    case radial(VectorRadialGradient)
}

struct VectorGradientStop: Sendable, Equatable {
    var offset: Double
    var color: VectorColor
}

enum VectorSpread: String, Sendable { case pad, reflect, `repeat` }

/// In the user space of the shape it paints (units, bounding box and gradientTransform resolved).
struct VectorLinearGradient: Sendable, Equatable {
    var start: VectorPoint
    var end: VectorPoint
    var stops: [VectorGradientStop]
    var spread: VectorSpread

    /// The same gradient after `t`: the linear function of position it stands for, moved by `t`
    /// (exact under any affine map, skews too: the new axis is the old one's normal carried over).
    func transformed(by t: VectorTransform) -> VectorLinearGradient? {
        let u = VectorPoint(x: end.x - start.x, y: end.y - start.y)
        let length2 = u.x * u.x + u.y * u.y
        guard length2 > 0, let inverse = t.inverted else { return nil }
        // g(p) = u·(T⁻¹p − start)/|u|² = w·p + k
        let w0 = VectorPoint(x: u.x / length2, y: u.y / length2)
        let w = VectorPoint(x: inverse.a * w0.x + inverse.b * w0.y, y: inverse.c * w0.x + inverse.d * w0.y)
        let k = w0.x * (inverse.e - start.x) + w0.y * (inverse.f - start.y)
        let w2 = w.x * w.x + w.y * w.y
        guard w2 > 0, w2.isFinite else { return nil }
        let q1 = VectorPoint(x: -k * w.x / w2, y: -k * w.y / w2)
        return VectorLinearGradient(
            start: q1, end: VectorPoint(x: q1.x + w.x / w2, y: q1.y + w.y / w2), stops: stops, spread: spread)
    }
}

struct VectorRadialGradient: Sendable, Equatable {
    var center: VectorPoint
    var radius: Double
    var stops: [VectorGradientStop]
    var spread: VectorSpread

    /// The same gradient after `t`, when `t` keeps circles circles.
    func transformed(by t: VectorTransform) throws(VectorUnsupported) -> VectorRadialGradient {
        guard t.isConformal else { throw VectorUnsupported(.stretchedGradient) }
        return VectorRadialGradient(center: t.apply(center), radius: radius * t.meanScale, stops: stops, spread: spread)
    }
}

extension VectorPaint {
    func transformed(by t: VectorTransform) throws(VectorUnsupported) -> VectorPaint? {
        switch self {
        case .color: return self
        case .linear(let g): return g.transformed(by: t).map { .linear($0) }
        case .radial(let g): return .radial(try g.transformed(by: t))
        }
    }
}

extension VectorGroup {
    /// The group's content with `t` applied to every coordinate, its own transform included
    /// (for a VectorDrawable, whose groups cannot skew): paths, clips, gradients; stroke widths
    /// by the transform's mean scale.
    func flattened(by outer: VectorTransform) throws(VectorUnsupported) -> VectorGroup {
        let t = outer.concatenating(transform)
        var result = VectorGroup(
            transform: .identity, opacity: opacity,
            clip: clip.map { VectorClipPath(path: $0.path.transformed(by: t), evenOdd: $0.evenOdd) })
        for child in children {
            switch child {
            case .group(let g):
                result.children.append(.group(try g.flattened(by: t)))
            case .shape(var s):
                s.path = s.path.transformed(by: t)
                if let fill = s.fill { s.fill = try fill.transformed(by: t) }
                if var stroke = s.stroke {
                    if let paint = try stroke.paint.transformed(by: t) {
                        stroke.paint = paint
                        stroke.width *= t.meanScale
                        s.stroke = stroke
                    } else {
                        s.stroke = nil
                    }
                }
                result.children.append(.shape(s))
            }
        }
        return result
    }
}
