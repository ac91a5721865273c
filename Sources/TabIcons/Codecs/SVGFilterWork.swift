/// The filter primitives whose cost in librsvg grows with a parameter rather than with the pixels
/// alone, collected by `SVGScreening` and judged against each render's size before librsvg runs.
///
/// Measured with librsvg 2.54 on this project's machine: every primitive costs about 100 ns per
/// pixel of the render each time it runs (an offscreen surface, the primitive, compositing:
/// 19,000 blurred circles took 47 s for one icon's renditions); `feMorphology` costs about 5–20 ns per
/// pixel per kernel cell, with the kernel (2 rx + 1) × (2 ry + 1) in pixels clipped to the image
/// (radius 1 of a 16-unit icon rendered at 600 px: 2.2 s); `feTurbulence` about 90 ns per pixel
/// per octave (a million octaves never finishes); `feConvolveMatrix` one multiply-add per pixel per
/// matrix cell. `feGaussianBlur` is linear in the pixels at any deviation (box blurs), so a blur is
/// refused only when its deviation is past the size of the render itself, where it can only make a
/// flat haze. Each filtered element runs its filter once (each `<use>` copy too).
struct SVGFilterWork: Sendable, Equatable {
    /// The work allowed per render, in units of one morphology kernel cell (~20 ns): 0.5 s.
    static let budget = 25_000_000.0
    /// A turbulence octave per pixel, in those units; and any primitive's own cost per pixel.
    static let turbulenceUnits = 5.0
    static let primitiveUnits = 5.0

    /// A primitive's two lengths, in the user units of the filter, or fractions of the element's
    /// box under `primitiveUnits="objectBoundingBox"`.
    struct Extent: Sendable, Equatable {
        var x: Double
        var y: Double
        var ofBoundingBox: Bool
    }

    /// `feMorphology` radii.
    var morphology: [Extent] = []
    /// `feGaussianBlur` and `feDropShadow` deviations.
    var blurs: [Extent] = []
    /// Filter primitives in the document (`fe…` elements, not their `feFunc…`, `feMergeNode` or
    /// light-source children).
    var primitives = 0
    /// Octaves of every `feTurbulence`, cells of every `feConvolveMatrix` (size-independent).
    var turbulenceOctaves = 0.0
    var convolutionCells = 0.0
    /// How many times filters are applied: filtered elements (with their `<use>` copies), or every
    /// element when a style sheet may set `filter`.
    var applications = 0
    /// Whether some transform may scale user space, so a radius in user units can be any number of
    /// pixels: then radii are judged at their worst, the whole render.
    var userSpaceMayScale = false

    var isEmpty: Bool { primitives == 0 && morphology.isEmpty && blurs.isEmpty }

    /// Throws `tooLarge` when rendering at `width` × `height` pixels, with `pixelsPerUnit` pixels to
    /// the document's user unit, would pass the budget.
    func check(width: Int, height: Int, pixelsPerUnit: Double) throws(TabIconsError) {
        guard !isEmpty, applications > 0 else { return }
        let w = Double(width), h = Double(height), longest = max(w, h)
        /// A length in pixels, never more than the render's longest side (the kernel is clipped).
        func pixels(_ length: Double, ofBoundingBox: Bool) -> Double {
            if userSpaceMayScale { return longest }
            let px = ofBoundingBox ? length * longest : length * pixelsPerUnit
            return min(abs(px.isFinite ? px : longest), longest)
        }
        for blur in blurs {
            let sx = abs(blur.x) * (blur.ofBoundingBox ? longest : pixelsPerUnit)
            let sy = abs(blur.y) * (blur.ofBoundingBox ? longest : pixelsPerUnit)
            if !userSpaceMayScale, !(sx <= longest && sy <= longest) {
                throw TabIconsError(.tooLarge, "filter bomb: a blur stdDeviation of \(IconBox.format(max(blur.x, blur.y))) is \(IconBox.format(max(sx, sy))) px, past the \(width)×\(height) px render", format: .svg)
            }
        }
        var perPixel = Double(max(primitives, 1)) * Self.primitiveUnits
            + turbulenceOctaves * Self.turbulenceUnits + convolutionCells
        for radius in morphology {
            let rx = pixels(radius.x, ofBoundingBox: radius.ofBoundingBox)
            let ry = pixels(radius.y, ofBoundingBox: radius.ofBoundingBox)
            perPixel += (2 * rx.rounded(.up) + 1) * (2 * ry.rounded(.up) + 1)
        }
        let work = perPixel * w * h * Double(applications)
        guard work <= Self.budget else {
            throw TabIconsError(.tooLarge, "filter bomb: its filters (\(applications) applications of \(primitives) primitives, feMorphology radius, feTurbulence octaves, feConvolveMatrix order) would cost \(Int(min(work, 1e18) / Self.budget * 100))% of the work limit at \(width)×\(height) px", format: .svg)
        }
    }
}
