/// The point box a tab-bar icon is fitted into, and the decode-scale rule (SPEC §3).
///
/// This type is the single owner of the rule: the normalizer, the CLI's inspect output and the
/// rendition planner all call `decodeScale` and `renditionSize` rather than re-deriving them.
public struct IconBox: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// The box side in points; any positive finite number.
    public let points: Double

    public init?(points: Double) {
        guard points.isFinite, points > 0 else { return nil }
        self.points = points
    }

    private init(preset points: Double) { self.points = points }

    /// Apple's regular tab-bar glyph: 25 pt.
    public static let regular = IconBox(preset: 25)
    /// Apple's compact (landscape iPhone) tab-bar glyph: 18 pt.
    public static let compact = IconBox(preset: 18)
    /// Material's bottom-navigation icon: 24 dp.
    public static let material = IconBox(preset: 24)

    /// `regular`, `compact`, `material` or a positive number of points, in plain decimals
    /// (`NumberText.parseDecimal`: `0x19` and `1e2` are not boxes).
    public init?(_ text: String) {
        switch text {
        case "regular": self = .regular
        case "compact": self = .compact
        case "material": self = .material
        default:
            guard let value = NumberText.parseDecimal(text) else { return nil }
            self.init(points: value)
        }
    }

    public var description: String { NumberText.decimal(points) }

    /// The scale to decode a `width`×`height` pixel image at so it renders inside `box`:
    /// 1 when either side is non-finite or not positive, or when the longest side fits the box
    /// (never upscale); otherwise longest ÷ box. 75×75 → 3 (25 pt, crisp at 3×); 50×100 → 4.
    ///
    /// The reference checks only the longest side, so there NaN×100 gives 4; this guard is
    /// stricter on purpose: a size with any meaningless side has no scale to speak of.
    public static func decodeScale(width: Double, height: Double, box: IconBox = .regular) -> Double {
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { return 1 }
        let longest = max(width, height)
        return longest <= box.points ? 1 : longest / box.points
    }

    public func decodeScale(width: Int, height: Int) -> Double {
        IconBox.decodeScale(width: Double(width), height: Double(height), box: self)
    }

    /// The decode scale of a decoded source as a whole: the rule above for rasters; for a vector,
    /// `vectorDecodeScale` of its exact intrinsic size (never of the size in whole pixels: a
    /// 16.5 px drawing is 0.66, not 0.68).
    public func decodeScale(of info: ImageInfo) -> Double {
        guard info.isVector else { return decodeScale(width: info.pixelWidth, height: info.pixelHeight) }
        let size = info.intrinsicSize ?? .init(width: Double(info.pixelWidth), height: Double(info.pixelHeight))
        return vectorDecodeScale(width: size.width, height: size.height)
    }

    /// The decode scale of a vector of `width` × `height` CSS px (exact, fractional): vectors fill
    /// the box (SPEC §3), so it is the longest side ÷ box and pixels ÷ scale is the box-fitted point
    /// size (a 16 px drawing in a 25 pt box: 0.64, 25 pt), below 1 for a small drawing. The
    /// normalizer asks it for the region it lays out (after trim or the circle's crop). 1 for a
    /// size with no meaningful longest side.
    public func vectorDecodeScale(width: Double, height: Double) -> Double {
        let longest = max(width, height)
        guard longest.isFinite, longest > 0 else { return 1 }
        return longest / points
    }

    /// The longest rendition side any source may need at `scale` (T = round(min(L, box) × scale) for
    /// L at least the box): what shrink on load asks the decoder for, and what the options' check
    /// holds against the limits. A box larger than the side limit counts as the side limit (no
    /// source is longer), so the answer stays inside `Int` however large the box.
    package func longestRenditionSide(scale: Double, maxSide: Int) -> Int {
        let atLeastBox = Int(min(points, Double(maxSide)).rounded(.up))
        return renditionSize(width: atLeastBox, height: atLeastBox, scale: scale).width
    }

    /// The point size a `width`×`height` pixel image renders at (pixels ÷ decode scale).
    public func pointSize(width: Int, height: Int) -> (width: Double, height: Double) {
        let scale = decodeScale(width: width, height: height)
        return (Double(width) / scale, Double(height) / scale)
    }

    /// The pixel size of the rendition for screen scale `scale`: the longest side is
    /// T = round(min(L, box) × scale), L being the source's longest side; the other side is
    /// max(1, round(S × T ÷ L)). Halves round away from zero. `isUpscale` is T > L: such a
    /// rendition is skipped (lint `undersized`) unless upscaling is allowed.
    public func renditionSize(width: Int, height: Int, scale: Double)
        -> (width: Int, height: Int, isUpscale: Bool)
    {
        precondition(width > 0 && height > 0, "renditionSize needs a positive source size")
        let longest = max(width, height)
        let target = Self.roundedSide(min(Double(longest), points) * scale)
        let size = Self.fitted(width: width, height: height, longestSide: target)
        return (size.width, size.height, target > longest)
    }

    /// A rendition with `padding` points kept clear on every side (SPEC §3): the glyph is the
    /// rule's size in the box less twice the padding; the canvas adds back, on both axes alike,
    /// what makes its longest side round(min(L + 2 × padding, box) × scale). So a glyph that fills
    /// the inner box gets a canvas of exactly the box, one that does not (never upscaled) keeps the
    /// padding at its own scale; the glyph sits centred, an odd spare pixel right or below. With no
    /// padding the canvas is the glyph. `padding` must leave a positive box (`NormalizeOptions`).
    public func paddedRenditionSize(width: Int, height: Int, scale: Double, padding: Double)
        -> (width: Int, height: Int, canvasWidth: Int, canvasHeight: Int, isUpscale: Bool)
    {
        let inner = padding > 0 ? IconBox(points: points - 2 * padding) ?? self : self
        let glyph = inner.renditionSize(width: width, height: height, scale: scale)
        guard padding > 0 else { return (glyph.width, glyph.height, glyph.width, glyph.height, glyph.isUpscale) }
        let canvasLongest = Self.roundedSide(min(Double(max(width, height)) + 2 * padding, points) * scale)
        let spare = max(0, canvasLongest - max(glyph.width, glyph.height))
        return (glyph.width, glyph.height, glyph.width + spare, glyph.height + spare, glyph.isUpscale)
    }

    /// `paddedRenditionSize` for a vector, which fills the box: the glyph is
    /// `vectorRenditionSize` in the box less twice the padding, the canvas's longest side
    /// round(box × scale).
    public func paddedVectorRenditionSize(width: Double, height: Double, scale: Double, padding: Double)
        -> (width: Int, height: Int, canvasWidth: Int, canvasHeight: Int)
    {
        let inner = padding > 0 ? IconBox(points: points - 2 * padding) ?? self : self
        let glyph = inner.vectorRenditionSize(width: width, height: height, scale: scale)
        guard padding > 0 else { return (glyph.width, glyph.height, glyph.width, glyph.height) }
        let spare = max(0, Self.roundedSide(points * scale) - max(glyph.width, glyph.height))
        return (glyph.width, glyph.height, glyph.width + spare, glyph.height + spare)
    }

    /// The pixel size of a vector's rendition for screen scale `scale` (SPEC §3): vectors fill the
    /// box, so the longest side is T = round(box × scale) whatever the intrinsic size, and the
    /// other side max(1, round(S × T ÷ L)) from the exact (fractional) aspect. Never an upscale.
    public func vectorRenditionSize(width: Double, height: Double, scale: Double) -> (width: Int, height: Int) {
        Self.fitted(width: width, height: height, longestSide: Self.roundedSide(points * scale))
    }

    /// The size `width`×`height` takes when its longest side becomes `longestSide`: the other side
    /// is max(1, round(S × T ÷ L)). The rule's one rounding, shared by renditions (raster and
    /// vector) and by the decoders that shrink on load, so a decoder never delivers a size the
    /// rule would not ask for.
    package static func fitted(width: Int, height: Int, longestSide target: Int) -> (width: Int, height: Int) {
        fitted(width: Double(width), height: Double(height), longestSide: target)
    }

    /// `fitted` for a fractional size (a vector's intrinsic size); a size with no meaningful
    /// aspect is taken as square.
    package static func fitted(width: Double, height: Double, longestSide target: Int) -> (width: Int, height: Int) {
        let longest = max(width, height), shortest = min(width, height)
        guard longest > 0, longest.isFinite, shortest.isFinite else { return (target, target) }
        let other = roundedSide(shortest * Double(target) / longest)
        return width >= height ? (target, other) : (other, target)
    }

    /// A computed side in pixels: halves away from zero, at least 1. Saturates rather than trap
    /// on a number no `Int` holds (NaN counts as 1): validated options never come near, but a
    /// public function must not crash on any input.
    package static func roundedSide(_ value: Double) -> Int {
        let side = value.rounded(.toNearestOrAwayFromZero)
        guard side >= 1 else { return 1 }
        return side < 1e18 ? Int(side) : 1_000_000_000_000_000_000
    }
}
