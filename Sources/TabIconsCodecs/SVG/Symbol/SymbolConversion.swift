import TabIconsCore
import Foundation

/// An SVG input as a custom symbol (SPEC §6 `--symbols`): the document parsed again in the jailed
/// worker as `VectorConversion` does, placed as the normalizer placed its PNGs, its three weights
/// made (`SymbolOutlines`) and written as a template (`SymbolTemplate`). What a symbol cannot hold
/// comes back as the feature that stops it (the `symbol-fallback` lint).
package enum SymbolConversion {
    /// `strokeWidth` (`--stroke-width`): the strokes redrawn first, as `VectorConversion` does.
    package static func template(
        _ data: Data, document: SVGDocument, placement: VectorPlacement, limits: DecodeOptions.Limits,
        weights: SymbolWeights, strokeWidth: Double? = nil
    ) throws(TabIconsError) -> Result<[UInt8], VectorUnsupported> {
        let placed = try VectorConversion.placedDrawing(data, document: document, placement: placement, limits: limits)
        return Result { () throws(VectorUnsupported) -> [UInt8] in
            var drawing = try placed.get()
            if let strokeWidth, let weight = drawing.strokeWeight { drawing = drawing.restroked(by: strokeWidth / weight) }
            let outlines = try SymbolOutlines.make(drawing, weights: weights)
            guard !outlines.regular.isEmpty else { throw VectorUnsupported(.noInk) }
            return SymbolTemplate.document(outlines, width: drawing.width, height: drawing.height)
        }
    }
}
