/// Where the normalizer put a vector (SPEC §3): which part of the document is the glyph (trim,
/// the circle's square) and where that glyph sits on the icon's canvas, in points. The
/// normalizer's `RenditionPlan(vector:)` decides these numbers for the PNG renditions; the vector
/// writers take them from it, so a vector file and its PNGs are one geometry.
package struct VectorPlacement: Sendable, Equatable {
    /// The part of the document drawn, as fractions of its full extent.
    package var region: SVGDocument.Region
    /// The icon's size in points (dp): the written document's size.
    package var canvasWidth: Double
    package var canvasHeight: Double
    /// The glyph's rectangle on the canvas, in points.
    package var glyphX: Double
    package var glyphY: Double
    package var glyphWidth: Double
    package var glyphHeight: Double
    /// `--shape circle`: the glyph is clipped to its inscribed circle.
    package var circle: Bool

    package init(
        region: SVGDocument.Region, canvasWidth: Double, canvasHeight: Double, glyphWidth: Double,
        glyphHeight: Double, circle: Bool
    ) {
        self.region = region
        (self.canvasWidth, self.canvasHeight) = (canvasWidth, canvasHeight)
        (self.glyphWidth, self.glyphHeight) = (glyphWidth, glyphHeight)
        // Centred, as `ShapeRenderer.placed` centres the PNG's glyph.
        glyphX = (canvasWidth - glyphWidth) / 2
        glyphY = (canvasHeight - glyphHeight) / 2
        self.circle = circle
    }

    /// Whether the canvas shows more than the glyph (padding, the square's sides), where the
    /// document's drawing outside the region must not appear.
    var glyphIsSmallerThanCanvas: Bool {
        let tolerance = 1e-9 * max(canvasWidth, canvasHeight)
        return glyphX > tolerance || glyphY > tolerance
    }
}
