import TabIconsCore
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
/// - a path's stroke costs more than linearly in its segments where they cross (30,000 overlapping
///   round-joined arcs: 6.5 s; 10,000: 0.4 s), so each path counts the square of its segments,
///   arcs and curves weighted (`SVGPathMeasure`); a dash about 0.5 µs (3.4 million dashes: 1.8 s
///   and 280 MB); a marker about 27 µs each vertex it is drawn on (20,000: 0.55 s);
/// - `kernelUnitLength` (lighting, convolution) rescales the whole filter surface by its inverse
///   in pixels: 0.001 on a 24 px drawing asks cairo for 24,000² pixels (2.2 GB, 11 s before cairo
///   gave up), and lighting then costs ~75 ns per pixel of that surface;
/// - a font size far past the drawing makes Pango and FreeType fail (FreeType from about 40,000
///   px, with warnings) or panic: `font-size="2e6"` in a 24-unit drawing aborts at 24 px, so a
///   font is refused past `maxFontSizeToDrawing` times the drawing's longest side.
/// These depend on the size drawn (a font's and a kernel unit's pixels), so `check` judges them at
/// each drawing, as everything else here.
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
    /// A stroke's crossing work per squared weighted segment, a dash, a marker drawn, and a pixel
    /// of a lighting filter's rescaled surface, in those units.
    static let crossingUnits = 0.027
    static let dashUnits = 27.0
    static let markerUnits = 1_300.0
    static let lightingUnits = 4.0
    /// The largest surface a `kernelUnitLength` may rescale a filter to (16 MiB of ARGB; lighting
    /// holds three).
    static let maxKernelUnitPixels = 4_194_304.0
    /// How many times the drawing's longest side a font may be.
    static let maxFontSizeToDrawing = 8.0

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

    /// Σ (weighted segments)² over paths, dashes laid along them, markers drawn (size-independent).
    var pathCrossings = 0.0
    var dashes = 0.0
    var markers = 0
    /// The largest font size any text is drawn at, in the document's user units (transforms and
    /// relative sizes applied), 0 without text.
    var largestFontSize = 0.0
    /// `kernelUnitLength`s of lighting and convolution primitives, with the work per pixel of the
    /// surface they rescale.
    struct KernelUnit: Sendable, Equatable {
        var length: Extent
        var perPixel: Double
    }
    var kernelUnits: [KernelUnit] = []

    /// Whether some transform may scale user space, so a radius in user units can be any number of
    /// pixels: then radii are judged at their worst, the whole render.
    var userSpaceMayScale = false

    var hasFilters: Bool { applications > 0 && (primitives > 0 || !morphology.isEmpty || !blurs.isEmpty) }

    /// The estimated work of a drawing at `width` × `height`, in units of ~20 ns.
    func work(width: Int, height: Int, pixelsPerUnit: Double) -> Double {
        let pixels = Double(width) * Double(height)
        let base = baseWork(pixels: pixels)
        return base
            + (hasFilters
                ? filterWorkPerPixel(width: width, height: height, pixelsPerUnit: pixelsPerUnit) * pixels
                    + kernelUnitWork(width: width, height: height, pixelsPerUnit: pixelsPerUnit).work : 0)
    }

    /// Elements, masks, groups, paths' crossings, dashes and markers.
    private func baseWork(pixels: Double) -> Double {
        Double(elements) * Self.elementUnits + (Double(masks) * Self.maskUnits + Double(groups) * Self.groupUnits) * pixels
            + pathCrossings * Self.crossingUnits + dashes * Self.dashUnits + Double(markers) * Self.markerUnits
    }

    /// The work of the surfaces `kernelUnitLength` rescales, and the largest of them in pixels.
    private func kernelUnitWork(width: Int, height: Int, pixelsPerUnit: Double) -> (
        work: Double, largest: Double, unit: KernelUnit?
    ) {
        let pixels = Double(width) * Double(height), longest = Double(max(width, height))
        var work = 0.0, largest = 0.0
        var worst: KernelUnit?
        for unit in kernelUnits {
            // librsvg scales the surface by 1 / (the unit in pixels); a unit past a pixel shrinks it.
            let scale = unit.length.ofBoundingBox ? longest : pixelsPerUnit
            let sx = max(1, 1 / (unit.length.x * scale)), sy = max(1, 1 / (unit.length.y * scale))
            let surface = sx.isFinite && sy.isFinite ? pixels * sx * sy : .infinity
            work += surface * unit.perPixel * Double(applications)
            if surface > largest || worst == nil { largest = surface; worst = unit }
        }
        return (work, largest, worst)
    }

    /// Throws `tooLarge` when drawing at `width` × `height` pixels, with `pixelsPerUnit` pixels to
    /// the document's user unit, would pass the budget.
    func check(width: Int, height: Int, pixelsPerUnit: Double) throws(TabIconsError) {
        let w = Double(width), h = Double(height), longest = max(w, h)
        let fontPixels = largestFontSize * pixelsPerUnit
        if fontPixels > Self.maxFontSizeToDrawing * longest {
            throw TabIconsError(
                .tooLarge,
                "a font-size of \(NumberText.decimal(largestFontSize)) is \(NumberText.decimal(fontPixels.rounded())) px, past \(NumberText.decimal(Self.maxFontSizeToDrawing)) times the \(width)×\(height) px drawing (Pango and FreeType fail or abort on absurd sizes)",
                format: .svg)
        }
        let base = baseWork(pixels: w * h)
        if base > Self.budget {
            throw TabIconsError(
                .tooLarge,
                "too much to draw: \(elements) elements, \(masks) masked, \(groups) translucent or clipped, paths of \(NumberText.decimal(pathCrossings.squareRoot().rounded())) weighted segments, \(NumberText.decimal(dashes.rounded())) dashes, \(markers) markers would cost \(Int(min(base, 1e18) / Self.budget * 100))% of the work limit at \(width)×\(height) px",
                format: .svg)
        }
        guard hasFilters else { return }
        let rescaled = kernelUnitWork(width: width, height: height, pixelsPerUnit: pixelsPerUnit)
        if let unit = rescaled.unit, !(rescaled.largest <= Self.maxKernelUnitPixels) {
            throw TabIconsError(
                .tooLarge,
                "filter bomb: a kernelUnitLength of \(NumberText.decimal(min(unit.length.x, unit.length.y))) would rescale the \(width)×\(height) px filter surface to \(rescaled.largest.isFinite ? NumberText.decimal(rescaled.largest.rounded()) : "unbounded") px, past \(Int(Self.maxKernelUnitPixels))",
                format: .svg)
        }
        for blur in blurs {
            let sx = abs(blur.x) * (blur.ofBoundingBox ? longest : pixelsPerUnit)
            let sy = abs(blur.y) * (blur.ofBoundingBox ? longest : pixelsPerUnit)
            if !userSpaceMayScale, !(sx <= longest && sy <= longest) {
                throw TabIconsError(
                    .tooLarge,
                    "filter bomb: a blur stdDeviation of \(NumberText.decimal(max(blur.x, blur.y))) is \(NumberText.decimal(max(sx, sy))) px, past the \(width)×\(height) px render",
                    format: .svg)
            }
        }
        let work = base + filterWorkPerPixel(width: width, height: height, pixelsPerUnit: pixelsPerUnit) * w * h + rescaled.work
        guard work <= Self.budget else {
            throw TabIconsError(
                .tooLarge,
                "filter bomb: its filters (\(applications) applications of \(primitives) primitives, feMorphology radius, feTurbulence octaves, feConvolveMatrix order, kernelUnitLength) would cost \(Int(min(work, 1e18) / Self.budget * 100))% of the work limit at \(width)×\(height) px",
                format: .svg)
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
        var perPixel =
            Double(max(primitives, 1)) * Self.primitiveUnits
            + turbulenceOctaves * Self.turbulenceUnits + convolutionCells
        for radius in morphology {
            let rx = pixels(radius.x, ofBoundingBox: radius.ofBoundingBox)
            let ry = pixels(radius.y, ofBoundingBox: radius.ofBoundingBox)
            perPixel += (2 * rx.rounded(.up) + 1) * (2 * ry.rounded(.up) + 1)
        }
        return perPixel * Double(applications)
    }
}
