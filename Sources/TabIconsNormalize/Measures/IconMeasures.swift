import TabIconsCore

/// What the eye sees of one icon (SPEC §3a), in points, so that icons of any source size compare:
/// measured on the rendition at the largest scale a run renders (`measured(_:scale:box:)`).
///
/// - `strokeWeight`: the ink's typical thickness, 2 × area ÷ perimeter. A band of width w and
///   length L has area wL and perimeter 2L (ends aside), so this is w for a stroke of any shape, a
///   ring or a square outline (exactly w, both edges counted), and a filled shape's half-width
///   scale for a filled one (a disc of radius r: r). An SVG drawn with strokes alone has its
///   weight from the drawing instead (`drawn`, `Normalizer.drawnStrokeWeight`): exact.
/// - `opticalSize`: the side of the square whose area is the glyph's convex hull's (a ring counts
///   as its disc, three parallel lines as the rectangle they span). Equal areas look equally big:
///   Material Design's keyline shapes, which are drawn to look the same size, are a 20 dp circle,
///   an 18 dp square and 16 × 20 dp rectangles, areas within 3% of each other (314, 324, 320 dp²).
///   A glyph with much open space inside its hull (a plus, a chevron) measures larger than its ink
///   and smaller than its bounds, as it looks.
/// - `centre`: where the ink's weight (its alpha-weighted centroid) sits against the canvas centre,
///   x to the right and y down; `boundsCentre`: the same for the centre of the ink's bounds. The
///   rule centres a glyph by its bounds; a glyph whose weight is off its bounds' centre (a play
///   triangle) looks off-centre.
/// - `coverage`: ink area over the box's area.
public struct IconMeasures: Sendable, Equatable, Codable {
    public var strokeWeight: Double
    public var opticalSize: Double
    public var centre: [Double]
    public var boundsCentre: [Double]
    public var coverage: Double

    public init(strokeWeight: Double, opticalSize: Double, centre: [Double], boundsCentre: [Double], coverage: Double) {
        self.strokeWeight = strokeWeight
        self.opticalSize = opticalSize
        self.centre = centre
        self.boundsCentre = boundsCentre
        self.coverage = coverage
    }

    /// These measures with a vector's stroke weight from its drawing, when it has one (exact
    /// where the ink's 2 × area ÷ outline is an estimate: round caps and joins, short strokes).
    package func drawn(_ weight: Double?) -> IconMeasures {
        guard let weight else { return self }
        var measures = self
        measures.strokeWeight = weight
        return measures
    }

    /// Whether the glyph sits off the box's centre on `axis` (0: x, 1: y) by `threshold` points
    /// or more: its bounds that far off and its weight off the same way at least half as far. A
    /// glyph whose bounds sit off but whose weight is (nearly) centred (a play triangle moved
    /// right) was centred by eye; one whose bounds are centred and weight is not (a person, heavy
    /// below) is drawn so: neither is (the `off-centre` lint and `--centre optical` ask this one
    /// question). Half: a glyph's own weight sits a little off its bounds' centre either way, and
    /// a glyph moved by the threshold must be found whichever way its own lies.
    package func isOffCentre(axis: Int, threshold: Double) -> Bool {
        let bounds = boundsCentre[axis], weight = centre[axis]
        return abs(bounds) >= threshold - 0.005 && weight * bounds > 0 && abs(weight) >= threshold / 2 - 0.005
    }

    /// `--centre optical`: the move, in points, toward the box's centre on each axis the glyph is
    /// off on: as far as its bounds or its weight is off, whichever is less, at most 1 pt.
    package func centringShift(threshold: Double) -> (x: Double, y: Double) {
        func shift(_ axis: Int) -> Double {
            guard isOffCentre(axis: axis, threshold: threshold) else { return 0 }
            let bounds = boundsCentre[axis]
            return -(bounds > 0 ? 1 : -1) * min(1, abs(bounds), abs(centre[axis]))
        }
        return (shift(0), shift(1))
    }

    /// The measures of `bitmap`, a rendition at `scale` of an icon in `box` (all 0 without ink).
    /// Rounded to 0.01 pt (coverage to 0.001), so the same pixels give the same manifest bytes.
    package static func measured(_ bitmap: Bitmap, scale: Double, box: IconBox) -> IconMeasures {
        let ink = InkField(bitmap)
        guard ink.area > 0, scale > 0 else {
            return IconMeasures(strokeWeight: 0, opticalSize: 0, centre: [0, 0], boundsCentre: [0, 0], coverage: 0)
        }
        let (perimeter, outline) = ink.contour()
        let (cx, cy) = ink.centroid
        // The bounds of the half-coverage outline: to a fraction of a pixel, where whole pixels
        // would move a glyph's centre in steps of half a pixel (1/6 pt at 3×) either way.
        let bounds = InkField.bounds(outline)
        func points(_ pixels: Double) -> Double { (pixels / scale * 100).rounded() / 100 + 0 }  // + 0: never -0
        let width = Double(bitmap.width), height = Double(bitmap.height)
        let boxArea = box.points * box.points * scale * scale
        return IconMeasures(
            strokeWeight: perimeter > 0 ? points(2 * ink.area / perimeter) : 0,
            opticalSize: points(InkField.hullArea(outline).squareRoot()),
            centre: [points(cx - width / 2), points(cy - height / 2)],
            boundsCentre: bounds.map {
                [points(($0.minX + $0.maxX) / 2 - width / 2), points(($0.minY + $0.maxY) / 2 - height / 2)]
            }
                ?? [0, 0],
            coverage: ((ink.area / boxArea) * 1000).rounded() / 1000)
    }
}
