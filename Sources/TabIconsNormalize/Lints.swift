import TabIconsCore
import TabIconsCodecs
/// A finding about an icon, reported per icon and never fatal (SPEC §3).
public struct Lint: Sendable, Equatable, Codable {
    public enum Code: String, Sendable, Equatable, Codable, CaseIterable {
        /// No transparent pixel: a tab bar template renders a solid block.
        case opaque
        /// Some renditions were skipped because they would be upscales.
        case undersized
        /// Aspect ratio beyond 4:5.
        case notSquare = "not-square"
        /// The glyph fills under half of the box.
        case padding
        /// Animated source: the first frame was used.
        case animated
        /// A selected or dark twin whose point size, aspect or intent differs from its icon's.
        case twinMismatch = "twin-mismatch"
        /// `--vector`: an SVG kept as PNG renditions, naming what the vector format cannot hold.
        case vectorFallback = "vector-fallback"
        /// `--symbols`: an input kept as an image set, naming what a symbol cannot hold.
        case symbolFallback = "symbol-fallback"
        /// An SVG that draws text: its glyphs come from the fonts of the machine that renders it.
        case svgText = "svg-text"
        /// Across a set (SPEC §3a): a stroke weight 15% or more off the set's median.
        case strokeMismatch = "stroke-mismatch"
        /// Across a set: an optical size 1 pt or more off the set's median.
        case opticalSizeMismatch = "optical-size-mismatch"
        /// A glyph placed 0.5 pt or more off the box's centre, its weight off the same way (`IconMeasures.isOffCentre`).
        case offCentre = "off-centre"
        /// `--stroke-width` left this icon as drawn: a raster, a drawing without strokes, or one
        /// the vector converter cannot read.
        case strokeWidthNotApplied = "stroke-width-not-applied"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// The per-icon findings of SPEC §3, each a small rule over what normalization saw. Never fatal.
///
/// They judge the glyph as it will be shown: `glyph` is the decoded pixels after trim, the circle's
/// crop and the rendering intent (so `template-luminance` is judged by the alpha it produces), at
/// the decoded resolution, before the square canvas or the circle mask.
package enum Lints {
    /// `svg-text` for a document that draws text (`tabicon render` refuses such an input: its
    /// pixels would not be the same on every machine).
    static func text(_ document: SVGDocument) -> [Lint] {
        guard document.drawsText else { return [] }
        return [
            Lint(
                .svgText,
                "draws text with this machine's fonts (found by fontconfig), so another machine may draw it "
                    + "differently; convert the text to outlines (Inkscape: Path > Object to Path) for the same pixels everywhere"
            )
        ]
    }

    /// Alpha above which a pixel counts as visible for `padding`: 15 of 255 (6%) ignores the faint
    /// haze of soft shadows and JPEG-grey backgrounds under `template-luminance`.
    static let visibleAlpha: UInt8 = 15

    /// All findings, in the order of `Lint.Code`.
    static func evaluate(
        glyph: Bitmap, plan: RenditionPlan, skippedScales: [Double],
        info: ImageInfo, options: NormalizeOptions
    ) -> [Lint] {
        evaluate(glyph: GlyphFacts(glyph), plan: plan, skippedScales: skippedScales, info: info, options: options)
    }

    /// The same, from what was gathered off the glyph's pixels (row by row when streamed).
    static func evaluate(
        glyph: GlyphFacts, plan: RenditionPlan, skippedScales: [Double],
        info: ImageInfo, options: NormalizeOptions
    ) -> [Lint] {
        [
            opaque(glyph, shape: options.shape),
            undersized(skippedScales, width: plan.glyphSourceWidth, height: plan.glyphSourceHeight),
            notSquare(width: plan.trimmedWidth, height: plan.trimmedHeight),
            padding(glyph),
            animated(info)
        ].compactMap { $0 }
    }

    /// `opaque`: no pixel of the glyph is transparent, so a tab bar's template tint paints a solid
    /// block. Not raised for `circle`, whose mask makes the corners transparent by design.
    static func opaque(_ glyph: GlyphFacts, shape: NormalizeOptions.Shape) -> Lint? {
        guard shape != .circle, !glyph.hasTransparentPixels else { return nil }
        return Lint(.opaque, "no transparent pixel: a template tint renders a solid \(glyph.width)×\(glyph.height) block")
    }

    /// `undersized`: the scales skipped because the rule would upscale the source.
    static func undersized(_ skipped: [Double], width: Int, height: Int) -> Lint? {
        guard !skipped.isEmpty else { return nil }
        let list = skipped.map { NumberText.decimal($0) + "×" }.joined(separator: ", ")
        return Lint(.undersized, "\(list) skipped: the \(width)×\(height) px source would be upscaled")
    }

    /// `not-square`: the (trimmed) source's aspect is beyond 4:5, i.e. shorter ÷ longer < 0.8,
    /// judged in integers (5 × shorter < 4 × longer) so exactly 4:5 passes.
    static func notSquare(width: Int, height: Int) -> Lint? {
        let shorter = min(width, height), longer = max(width, height)
        guard 5 * shorter < 4 * longer else { return nil }
        return Lint(.notSquare, "aspect \(width)×\(height) is beyond 4:5")
    }

    /// `padding`: the glyph fills under half of the box, measured along the longest side: the
    /// visible bounds' (alpha above `visibleAlpha`) longest side over the glyph image's longest
    /// side is below 1/2, i.e. the margins take over a quarter of the box on each side. The longest
    /// side, not the area, because `fit` scales by the longest side: a thin bar that spans the box
    /// is not padded. `trim` removes what this lint reports (up to the faint haze).
    static func padding(_ glyph: GlyphFacts) -> Lint? {
        let longest = max(glyph.width, glyph.height)
        guard let bounds = glyph.visibleBounds else {
            return Lint(.padding, "the glyph fills 0% of the box: no visible pixel")
        }
        guard 2 * bounds.longestSide < longest else { return nil }
        let percent = (100 * bounds.longestSide + longest / 2) / longest
        return Lint(.padding, "the glyph fills \(percent)% of the box (\(bounds.longestSide) of \(longest) px)")
    }

    /// `animated`: only the first frame is used.
    static func animated(_ info: ImageInfo) -> Lint? {
        info.isAnimated ? Lint(.animated, "animated source: the first frame is used") : nil
    }
}

extension Lints {
    /// What `twin-mismatch` compares of an icon and of its twin: what their manifest rows hold.
    package struct TwinFacts: Sendable {
        package var pointWidth: Double
        package var pointHeight: Double
        package var intent: IconIntent?

        package init(pointWidth: Double, pointHeight: Double, intent: IconIntent?) {
            (self.pointWidth, self.pointHeight, self.intent) = (pointWidth, pointHeight, intent)
        }
    }

    /// `twin-mismatch` (SPEC §3), raised on both icons: the tab shows one where it showed the other
    /// (selected, or in dark appearance), so the glyph should not jump. They differ when
    /// - their point sizes differ by more than a pixel at 3× (1/3 pt) on either side;
    /// - their aspects differ by more than a pixel at 3×: the twin scaled to the icon's longest side
    ///   at 3× is more than 1 px off the icon's width or height there;
    /// - their intents differ (one tinted as a template, the other drawn as it is).
    /// `about` names the other icon and how it relates: "its dark twin home-dark.png".
    package static func twinMismatch(_ icon: TwinFacts, _ other: TwinFacts, about: String) -> Lint? {
        let pixel = 1.0 / 3
        var reasons: [String] = []
        let size = { (facts: TwinFacts) in
            NumberText.decimal(facts.pointWidth) + "×" + NumberText.decimal(facts.pointHeight) + " pt"
        }
        if abs(icon.pointWidth - other.pointWidth) > pixel + 1e-9 || abs(icon.pointHeight - other.pointHeight) > pixel + 1e-9 {
            reasons.append("point size \(size(other)), not \(size(icon))")
        }
        let longest = 3 * max(icon.pointWidth, icon.pointHeight)
        let otherLongest = max(other.pointWidth, other.pointHeight)
        if longest > 0, otherLongest > 0 {
            let width = other.pointWidth * longest / otherLongest, height = other.pointHeight * longest / otherLongest
            if abs(width - 3 * icon.pointWidth) > 1 + 1e-9 || abs(height - 3 * icon.pointHeight) > 1 + 1e-9 {
                let ratio = { (facts: TwinFacts) in
                    NumberText.decimal((facts.pointWidth / facts.pointHeight * 100).rounded() / 100)
                }
                reasons.append("aspect \(ratio(other)):1, not \(ratio(icon)):1 (over a pixel at 3×)")
            }
        }
        if let mine = icon.intent, let theirs = other.intent, mine != theirs {
            reasons.append("intent \(theirs.rawValue), not \(mine.rawValue)")
        }
        guard !reasons.isEmpty else { return nil }
        return Lint(.twinMismatch, "\(about) differs: " + reasons.joined(separator: "; "))
    }
}

/// What the lints read off a glyph's pixels: its size, whether any pixel is transparent, and the
/// bounds of its visible pixels (alpha above `Lints.visibleAlpha`). Gathered from a whole bitmap
/// here, or row by row by streamed normalization (`StreamedNormalization`), with the same rules.
struct GlyphFacts: Equatable {
    var width: Int
    var height: Int
    var hasTransparentPixels: Bool
    var visibleBounds: PixelRect?

    init(width: Int, height: Int, hasTransparentPixels: Bool, visibleBounds: PixelRect?) {
        (self.width, self.height) = (width, height)
        self.hasTransparentPixels = hasTransparentPixels
        self.visibleBounds = visibleBounds
    }

    init(_ glyph: Bitmap) {
        self.init(
            width: glyph.width, height: glyph.height, hasTransparentPixels: glyph.hasTransparentPixels,
            visibleBounds: ContentBounds.bounds(of: glyph, alphaAbove: Lints.visibleAlpha))
    }
}
