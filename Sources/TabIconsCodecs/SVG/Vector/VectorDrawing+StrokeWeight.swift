import TabIconsCore
import Foundation

/// A drawing's stroke weight as drawn (SPEC §3a), and the drawing with its strokes redrawn to
/// another (`--stroke-width`).
extension VectorDrawing {
    /// Canvas points per unit of the written user space.
    private var pointsPerUnit: Double { viewBox.width > 0 ? width / viewBox.width : 0 }

    /// Every visible stroke: its width on the canvas (points: the width × every transform's mean
    /// scale × the fit) and its length there (points).
    func strokes() -> [(width: Double, length: Double)] {
        var found: [(width: Double, length: Double)] = []
        func walk(_ group: VectorGroup, _ outer: VectorTransform) {
            let t = outer.concatenating(group.transform)
            for child in group.children {
                switch child {
                case .group(let inner): walk(inner, t)
                case .shape(let shape):
                    guard let stroke = shape.stroke, stroke.width > 0, stroke.opacity > 0, shape.opacity > 0 else { continue }
                    let length = shape.path.transformed(by: t).length * pointsPerUnit
                    guard length > 0 else { continue }
                    found.append((stroke.width * t.meanScale * pointsPerUnit, length))
                }
            }
        }
        walk(root, .identity)
        return found
    }

    /// The weight of the drawing's strokes in points: the median of their widths weighted by
    /// length (a glyph's outline is most of its stroke length; a hairline detail is little of it).
    /// Nil for a drawing with no stroke.
    var strokeWeight: Double? {
        let strokes = strokes().sorted { $0.width < $1.width }
        let total = strokes.reduce(0) { $0 + $1.length }
        guard total > 0 else { return nil }
        var sum = 0.0
        for stroke in strokes {
            sum += stroke.length
            if sum >= total / 2 { return stroke.width }
        }
        return strokes.last?.width
    }

    /// The drawing with every stroke's width times `factor`: its weight becomes `factor` times
    /// its own, every stroke in proportion (hairline details stay as much thinner).
    func restroked(by factor: Double) -> VectorDrawing {
        func scaled(_ group: VectorGroup) -> VectorGroup {
            var group = group
            group.children = group.children.map { child in
                switch child {
                case .group(let inner): return .group(scaled(inner))
                case .shape(var shape):
                    shape.stroke?.width *= factor
                    return .shape(shape)
                }
            }
            return group
        }
        var drawing = self
        drawing.root = scaled(root)
        return drawing
    }
}

extension VectorConversion {
    /// What `--stroke-width` and `--centre optical` draw an SVG from: the drawing placed by
    /// `placement` (moved, for the centre), its strokes redrawn to weigh `strokeWidth` points when
    /// asked and it has strokes, written as a sanitized SVG of the canvas's size (the renditions are
    /// drawn from it, so they, the vector file and the measures agree).
    package struct Redrawn: Sendable, Equatable {
        /// The weight of the drawing's strokes as drawn; nil when it has none (none redrawn).
        package let weight: Double?
        package let svg: [UInt8]
    }

    /// The stroke weight (points) of the drawing placed by `placement`, when it is drawn with
    /// strokes alone: nil when it fills a shape (a filled part's thickness is the ink's to say),
    /// has no stroke, or the converter cannot read it (its weight is then the rendition's).
    package static func strokeWeight(
        _ data: Data, document: SVGDocument, placement: VectorPlacement, limits: DecodeOptions.Limits
    ) throws(TabIconsError) -> Double? {
        guard let drawing = try? placedDrawing(data, document: document, placement: placement, limits: limits).get(),
            !drawing.root.fillsAShape
        else { return nil }
        return drawing.strokeWeight
    }

    package static func redrawn(
        _ data: Data, document: SVGDocument, placement: VectorPlacement, strokeWidth: Double?, limits: DecodeOptions.Limits
    ) throws(TabIconsError) -> Result<Redrawn, VectorUnsupported> {
        try placedDrawing(data, document: document, placement: placement, limits: limits).map { drawing in
            let weight = drawing.strokeWeight
            guard let strokeWidth, let weight else { return Redrawn(weight: weight, svg: VectorSVGWriter.document(drawing)) }
            return Redrawn(weight: weight, svg: VectorSVGWriter.document(drawing.restroked(by: strokeWidth / weight)))
        }
    }
}

extension VectorGroup {
    /// Whether some visible shape below is filled.
    var fillsAShape: Bool {
        children.contains { child in
            switch child {
            case .group(let group): group.opacity > 0 && group.fillsAShape
            case .shape(let shape): shape.fill != nil && shape.fillOpacity > 0 && shape.opacity > 0 && !shape.path.isEmpty
            }
        }
    }
}

extension VectorPath {
    /// The path's length: lines exact, curves (quadratics and arcs as cubics) by 16 chords each.
    var length: Double {
        CubicContour.contours(of: self).reduce(0) { $0 + Polygon.length($1.flattened(steps: 16), closed: $1.closed) }
    }
}
