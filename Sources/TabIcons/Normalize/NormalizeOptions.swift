/// How to normalize an icon (SPEC §3). The defaults are a regular 25-point box at 1×, 2× and 3×,
/// shape `fit`, Lanczos-3, no upscaling.
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
        case original
        /// Colour dropped, alpha kept: what a tab bar tints.
        case template
        /// Alpha from darkness, for opaque dark-on-light glyphs.
        case templateLuminance = "template-luminance"
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
    /// Decoding limits.
    public var limits: DecodeOptions.Limits

    public init(box: IconBox = .regular, scales: [Double] = [1, 2, 3], shape: Shape = .fit,
                trim: Bool = false, render: Render = .original, filter: Filter = .lanczos3,
                allowUpscale: Bool = false, limits: DecodeOptions.Limits = .default) {
        self.box = box
        self.scales = scales
        self.shape = shape
        self.trim = trim
        self.render = render
        self.filter = filter
        self.allowUpscale = allowUpscale
        self.limits = limits
    }
}

extension NormalizeOptions {
    /// Checks what cannot be rendered: a scale that is not a positive finite number, or one whose
    /// largest possible rendition (box × scale on a side, as a square) exceeds the decode limits,
    /// so a typo like `--scales 3000` is an error rather than a gigabyte canvas.
    public func validate() throws(TabIconsError) {
        for scale in scales {
            guard scale.isFinite, scale > 0 else {
                throw TabIconsError(.invalidArgument, "scale \(scale) is not a positive number")
            }
            let side = box.points * scale
            guard side <= Double(limits.maxSide), side * side <= Double(limits.maxPixels) else {
                throw TabIconsError(.invalidArgument,
                                    "scale \(IconBox.format(scale)) of a \(box)-point box makes renditions past the limit of \(limits.maxSide) px a side or \(limits.maxPixels) pixels")
            }
        }
    }
}
