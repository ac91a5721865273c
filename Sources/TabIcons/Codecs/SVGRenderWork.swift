/// What a drawing will cost librsvg, estimated from what `SVGScreening` counted and judged against
/// each render's size before librsvg runs, so that no SVG takes a normalize past a second of CPU
/// (a normalize draws four or five times: the decode's drawing, one per scale, trim's probe).
///
/// Measured with librsvg 2.54 on this project's machine (2-core EPYC VM, release build):
/// - every element costs about 13 µs a drawing before its pixels (16,000 circles: 1 s for one
///   icon's renditions), which `maxSVGElements` bounds;
/// - a mask costs about 10 ns per pixel of the drawing each time (16,000 masked circles: 3 s;
///   17 s with trim's larger probe), a translucent group or clip path about 2 ns;
/// - every filter primitive costs about 100 ns per
/// pixel of the render each time it runs (an offscreen surface, the primitive, compositing:
/// 19,000 blurred circles took 47 s for one icon's renditions); `feMorphology` costs about 5–20 ns per
/// pixel per kernel cell, with the kernel (2 rx + 1) × (2 ry + 1) in pixels clipped to the image
/// (radius 1 of a 16-unit icon rendered at 600 px: 2.2 s); `feTurbulence` about 90 ns per pixel
/// per octave (a million octaves never finishes); `feConvolveMatrix` one multiply-add per pixel per
/// matrix cell. `feGaussianBlur` is linear in the pixels at any deviation (box blurs), so a blur is
/// refused only when its deviation is past the size of the render itself, where it can only make a
/// flat haze. Each filtered element runs its filter once (each `<use>` copy too).
struct SVGRenderWork: Sendable, Equatable {
    /// The work allowed per drawing, in units of one morphology kernel cell (~20 ns): 0.12 s, so the
    /// four or five drawings of a normalize stay within a second.
    static let budget = 6_000_000.0
    /// An element, a mask per pixel, a group per pixel, in those units.
    static let elementUnits = 650.0
    static let maskUnits = 0.5
    static let groupUnits = 0.1
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
    /// Elements drawn (every `<use>` copy counted), elements with a mask, and with group opacity
    /// or a clip path (each an offscreen surface the size of the drawing).
    var elements = 0
    var masks = 0
    var groups = 0

    /// Whether some transform may scale user space, so a radius in user units can be any number of
    /// pixels: then radii are judged at their worst, the whole render.
    var userSpaceMayScale = false

    var hasFilters: Bool { applications > 0 && (primitives > 0 || !morphology.isEmpty || !blurs.isEmpty) }

    /// The estimated work of a drawing at `width` × `height`, in units of ~20 ns.
    func work(width: Int, height: Int, pixelsPerUnit: Double) -> Double {
        let pixels = Double(width) * Double(height)
        let base = Double(elements) * Self.elementUnits
            + (Double(masks) * Self.maskUnits + Double(groups) * Self.groupUnits) * pixels
        return base + (hasFilters ? filterWorkPerPixel(width: width, height: height, pixelsPerUnit: pixelsPerUnit) * pixels : 0)
    }

    /// Throws `tooLarge` when drawing at `width` × `height` pixels, with `pixelsPerUnit` pixels to
    /// the document's user unit, would pass the budget.
    func check(width: Int, height: Int, pixelsPerUnit: Double) throws(TabIconsError) {
        let base = Double(elements) * Self.elementUnits
            + (Double(masks) * Self.maskUnits + Double(groups) * Self.groupUnits) * Double(width) * Double(height)
        if base > Self.budget {
            throw TabIconsError(.tooLarge, "too much to draw: \(elements) elements, \(masks) masked, \(groups) translucent or clipped would cost \(Int(min(base, 1e18) / Self.budget * 100))% of the work limit at \(width)×\(height) px", format: .svg)
        }
        guard hasFilters else { return }
        let w = Double(width), h = Double(height), longest = max(w, h)
        for blur in blurs {
            let sx = abs(blur.x) * (blur.ofBoundingBox ? longest : pixelsPerUnit)
            let sy = abs(blur.y) * (blur.ofBoundingBox ? longest : pixelsPerUnit)
            if !userSpaceMayScale, !(sx <= longest && sy <= longest) {
                throw TabIconsError(.tooLarge, "filter bomb: a blur stdDeviation of \(NumberText.decimal(max(blur.x, blur.y))) is \(NumberText.decimal(max(sx, sy))) px, past the \(width)×\(height) px render", format: .svg)
            }
        }
        let work = base + filterWorkPerPixel(width: width, height: height, pixelsPerUnit: pixelsPerUnit) * w * h
        guard work <= Self.budget else {
            throw TabIconsError(.tooLarge, "filter bomb: its filters (\(applications) applications of \(primitives) primitives, feMorphology radius, feTurbulence octaves, feConvolveMatrix order) would cost \(Int(min(work, 1e18) / Self.budget * 100))% of the work limit at \(width)×\(height) px", format: .svg)
        }
    }

    /// The filters' work per pixel of a drawing, all applications together. A radius is counted
    /// in pixels, never more than the drawing's longest side (the kernel is clipped to it).
    private func filterWorkPerPixel(width: Int, height: Int, pixelsPerUnit: Double) -> Double {
        let longest = Double(max(width, height))
        func pixels(_ length: Double, ofBoundingBox: Bool) -> Double {
            if userSpaceMayScale { return longest }
            let px = ofBoundingBox ? length * longest : length * pixelsPerUnit
            return min(abs(px.isFinite ? px : longest), longest)
        }
        var perPixel = Double(max(primitives, 1)) * Self.primitiveUnits
            + turbulenceOctaves * Self.turbulenceUnits + convolutionCells
        for radius in morphology {
            let rx = pixels(radius.x, ofBoundingBox: radius.ofBoundingBox)
            let ry = pixels(radius.y, ofBoundingBox: radius.ofBoundingBox)
            perPixel += (2 * rx.rounded(.up) + 1) * (2 * ry.rounded(.up) + 1)
        }
        return perPixel * Double(applications)
    }
}
