import TabIconsCore
import TabIconsCodecs
import Foundation

/// A vector icon as the normalizer laid it out: the document and the placement its renditions
/// were drawn with (`RenditionPlan(vector:)`'s numbers, not worked out again), for `--vector`.
package struct NormalizedVector: Sendable, Equatable {
    package let document: SVGDocument
    package var placement: VectorPlacement

    init(document: SVGDocument, plan: RenditionPlan, region: SVGDocument.Region, shape: NormalizeOptions.Shape) {
        self.document = document
        // The region in CSS px, over the decode scale: the glyph in points, as the renditions size it.
        let glyphWidth = document.size.width * region.width / plan.decodeScale
        let glyphHeight = document.size.height * region.height / plan.decodeScale
        placement = VectorPlacement(
            region: region, canvasWidth: plan.pointWidth, canvasHeight: plan.pointHeight,
            glyphWidth: glyphWidth, glyphHeight: glyphHeight, circle: shape == .circle)
    }
}

extension Normalizer {
    /// The icon's vector file for `target` (SPEC §6 `--vector`), from the input's bytes (`data`,
    /// what `normalize` was given): nil for an icon that is not a vector; the feature that keeps it
    /// as PNGs when the target cannot hold it (`template-luminance`, which takes alpha from
    /// darkness, is such a feature).
    package func vectorFile(_ data: Data, icon: NormalizedIcon, target: VectorConversion.Target)
        throws(TabIconsError) -> Result<[UInt8], VectorUnsupported>?
    {
        guard let vector = icon.vector else { return nil }
        if options.render == .templateLuminance { return .failure(VectorUnsupported(.renderIntent(options.render.rawValue))) }
        return try VectorConversion.convert(
            data, document: vector.document, placement: vector.placement,
            target: target, limits: options.limits, strokeWidth: options.strokeWidth)
    }
}
