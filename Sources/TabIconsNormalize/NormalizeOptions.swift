import TabIconsCore
import TabIconsCodecs
/// How to normalize an icon (SPEC §3). The defaults are a regular 25-point box at 1×, 2× and 3×,
/// shape `fit`, render `auto`, Lanczos-3, no upscaling.
public struct NormalizeOptions: Sendable, Equatable, Hashable {
    /// How the icon is placed in the box.
    public enum Shape: String, Sendable, CaseIterable, Codable {
        /// Keep the aspect ratio inside the box.
        case fit
        /// Fit, then centre on a transparent square canvas.
        case square
        /// Aspect-fill crop to a square, then an anti-aliased circular mask (avatars).
        case circle
    }

    /// What colour information the output keeps.
    public enum Render: String, Sendable, CaseIterable, Codable {
        /// Pixels kept as decoded; the intent decided per icon (`IconIntent`, `InkSurvey`).
        case auto
        /// Pixels kept as decoded, marked `original` (drawn as it is).
        case original
        /// Colour dropped, alpha kept: what a tab bar tints.
        case template
        /// Alpha from darkness, for opaque dark-on-light glyphs.
        case templateLuminance = "template-luminance"

        /// Whether the pixels are converted (the colour dropped): `auto` and `original` keep them.
        var convertsPixels: Bool { self == .template || self == .templateLuminance }
    }

    /// The separable resampling filter.
    public enum Filter: String, Sendable, CaseIterable, Codable {
        case lanczos3, mitchell, triangle, box
    }

    public var box: IconBox
    /// Screen scales to render, e.g. [1, 2, 3]; Android uses [1, 1.5, 2, 3, 4].
    public var scales: [Double]
    public var shape: Shape
    /// Crop fully transparent margins before fitting.
    public var trim: Bool
    public var render: Render
    public var filter: Filter
    /// Render renditions larger than the source instead of skipping them.
    public var allowUpscale: Bool
    /// Clear space kept on every side of the glyph (SPEC §3).
    public var padding: IconPadding
    /// Decoding limits.
    public var limits: DecodeOptions.Limits
    /// `--stroke-width`: an SVG's strokes redrawn so that its stroke weight, once fitted, is this
    /// many points (SPEC §3a); nil: as drawn. Rasters and drawings without strokes are as drawn.
    public var strokeWidth: Double?
    /// `--fit`: the glyph scaled so its optical size (`IconMeasures.opticalSize`) is a given
    /// number of points (SPEC §3a), within the box and the rule's upscale limits; nil: the
    /// decode-scale rule alone.
    public var opticalFit: OpticalFit?
    /// `--centre optical`: a glyph off the box's centre by this many points or more (bounds and
    /// weight the same way: `IconMeasures.isOffCentre`) is moved toward it, at most 1 pt an axis;
    /// nil: placed by the rule.
    public var opticalCentre: Double?

    /// What `--fit` scales a glyph to.
    public enum OpticalFit: Sendable, Equatable, Hashable {
        /// An optical size in points.
        case size(Double)
        /// The optical size of the glyph's set (the median of the run's): the batch, which knows
        /// the set, makes it a `size` before any icon is made; a `Normalizer` alone fits by the rule.
        case set
    }

    public init(
        box: IconBox = .regular, scales: [Double] = [1, 2, 3], shape: Shape = .fit,
        trim: Bool = false, render: Render = .auto, filter: Filter = .lanczos3,
        allowUpscale: Bool = false, limits: DecodeOptions.Limits = .default, padding: IconPadding = .none,
        strokeWidth: Double? = nil, opticalFit: OpticalFit? = nil, opticalCentre: Double? = nil
    ) {
        self.box = box
        self.scales = scales
        self.shape = shape
        self.trim = trim
        self.render = render
        self.filter = filter
        self.allowUpscale = allowUpscale
        self.limits = limits
        self.padding = padding
        self.strokeWidth = strokeWidth
        self.opticalFit = opticalFit
        self.opticalCentre = opticalCentre
    }
}

extension NormalizeOptions {
    /// An option the caller got wrong, named so the CLI can say which flag it was.
    package enum Problem: Sendable, Equatable {
        case box(String)
        case scales(String)
        case limits(String)
        case padding(String)
        case strokeWidth(String)
        case opticalFit(String)
        case opticalCentre(String)

        package var message: String {
            switch self {
            case .box(let text), .scales(let text), .limits(let text), .padding(let text), .strokeWidth(let text),
                .opticalFit(let text), .opticalCentre(let text):
                text
            }
        }
    }

    /// Checks the options before any arithmetic: every entry point calls it (the normalizer on
    /// each call, the CLI once, up front, as a usage error). Throws `invalidArgument`.
    public func validate() throws(TabIconsError) {
        if let problem { throw TabIconsError(.invalidArgument, problem.message) }
    }

    /// The most screen scales one run renders: a platform asks for six at most (Android's
    /// densities), and a manifest entry holds a rendition a scale, so an entry listing more is
    /// not a tabicon entry (`Manifest.Icon.problem`) and costs a reader no more than this many.
    public static let mostScales = 32

    /// What is wrong with the options, or nil.
    ///
    /// The limits bound every bitmap the normalizer makes. Without upscaling a rendition is never
    /// larger than its source, which the limits already bound, so a scale above 1 is refused only
    /// when no source within them could ever be rendered at it: it needs a source at least
    /// round(box × scale) px long. With upscaling, the rendition of a box-sized square,
    /// round(min(box, maxSide) × scale) px a side, must fit the limits. A box larger than every
    /// source is fine: its renditions are the sources' own sizes times the scale.
    package var problem: Problem? {
        guard limits.maxPixels > 0, limits.maxSide > 0, limits.maxInputBytes > 0 else {
            return .limits("the decode limits must be positive")
        }
        guard (Double(limits.maxSide) / box.points).isFinite else {
            return .box("a box of \(box) points is too small: decode scales would overflow")
        }
        let paddingPoints = padding.points(in: box)
        guard padding.value.isFinite, padding.value >= 0, paddingPoints * 2 < box.points else {
            return .padding("a padding of \(padding) must be at least 0 and leave room in a \(box)-point box (under half of it)")
        }
        if let strokeWidth, !(strokeWidth.isFinite && strokeWidth > 0 && strokeWidth <= box.points / 4) {
            return .strokeWidth(
                "a stroke width of \(NumberText.decimal(strokeWidth)) points must be above 0 and at most a quarter of the \(box)-point box"
            )
        }
        if case .size(let size)? = opticalFit, !(size.isFinite && size > 0 && size <= box.points) {
            return .opticalFit(
                "an optical size of \(NumberText.decimal(size)) points must be above 0 and at most the \(box)-point box")
        }
        if let opticalCentre, !(opticalCentre.isFinite && opticalCentre > 0 && opticalCentre <= box.points) {
            return .opticalCentre(
                "an off-centre threshold of \(NumberText.decimal(opticalCentre)) points must be above 0 and at most the \(box)-point box"
            )
        }
        guard !scales.isEmpty else { return .scales("there is no screen scale to render") }
        guard scales.count <= Self.mostScales else {
            return .scales("\(scales.count) screen scales are more than \(Self.mostScales), the most a run renders")
        }
        for scale in scales {
            guard scale.isFinite, scale > 0 else { return .scales("scale \(scale) is not a positive number") }
            guard (box.points * scale).rounded(.toNearestOrAwayFromZero) >= 1 else {
                return .scales("scale \(NumberText.decimal(scale)) of a \(box)-point box renders icons under one pixel")
            }
            guard scale > 1 else { continue }
            // The rule's T for a source at least as long as the box (`IconBox` owns it).
            let side = Double(box.longestRenditionSide(scale: scale, maxSide: limits.maxSide))
            let scaleText = NumberText.decimal(scale) + "×"
            if allowUpscale {
                if side > Double(limits.maxSide) || side * side > Double(limits.maxPixels) {
                    return .scales(
                        "\(scaleText) of a \(box)-point box makes renditions of \(NumberText.decimal(side)) px a side, past the limit of \(limits.maxSide) px a side or \(limits.maxPixels) pixels"
                    )
                }
            } else if side > Double(min(limits.maxSide, limits.maxPixels)) {
                let needed = Double(box.vectorRenditionSize(width: 1, height: 1, scale: scale).width)
                return .scales(
                    "\(scaleText) of a \(box)-point box needs sources at least \(NumberText.decimal(needed)) px long, past the limit of \(min(limits.maxSide, limits.maxPixels)) px: no icon could be rendered at it"
                )
            }
        }
        return nil
    }
}
