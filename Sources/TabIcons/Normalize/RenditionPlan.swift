/// The geometry of one normalization, decided before any pixel is resampled: which part of the
/// decoded bitmap becomes the glyph, what size the decode-scale rule gives it at every scale, and
/// which scales are skipped as upscales. `IconBox` owns the rule; this only decides what the rule
/// is applied to.
///
/// What the rule is applied to, by option (always in SOURCE pixels, `ImageInfo.pixelWidth/Height`,
/// i.e. after orientation; when a shrink-on-load decode returned fewer pixels, a crop of the decoded
/// bitmap is mapped back to source pixels by the decoded-to-source ratio):
/// - `trim`: the source without its fully transparent margins.
/// - `fit`: that size as it is.
/// - `square`: the same fitted glyph (so its renditions match `fit`'s), then centred on a square
///   canvas whose side is the glyph's longest side.
/// - `circle`: the centred square of side min(width, height) (aspect fill), then masked.
///
/// `decodeScale` and the point size describe the icon as laid out: the trimmed source for `fit`,
/// its square canvas for `square`, the cropped square for `circle`. So `pointWidth × scale` is the
/// rendition's width up to the rule's rounding.
struct RenditionPlan: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var scale: Double
        /// The resampled glyph's size.
        var glyphWidth: Int
        var glyphHeight: Int
        /// The rendition's size: the glyph's, or the square canvas it is centred on.
        var canvasWidth: Int
        var canvasHeight: Int
        /// The rule's verdict: the glyph would be larger than its source pixels.
        var isUpscale: Bool
    }

    /// The region of the decoded bitmap that becomes the glyph (after trim and the circle's crop).
    var crop: PixelRect
    /// The trimmed source's size in source pixels, before any shape (what `not-square` judges).
    var trimmedWidth: Int
    var trimmedHeight: Int
    /// The glyph's size in source pixels: what `IconBox.renditionSize` is applied to.
    var glyphSourceWidth: Int
    var glyphSourceHeight: Int
    /// One entry per requested scale, in order, skipped ones included.
    var entries: [Entry]
    var decodeScale: Double
    var pointWidth: Double
    var pointHeight: Double

    init(image: DecodedImage, options: NormalizeOptions) {
        let bitmap = image.bitmap
        self.init(sourceWidth: image.info.pixelWidth, sourceHeight: image.info.pixelHeight,
                  decoded: PixelRect(bitmap),
                  trimmed: options.trim ? ContentBounds.trimmedRect(of: bitmap) : PixelRect(bitmap),
                  options: options)
    }

    /// The plan from sizes alone: the source's, the decoded bitmap's (`decoded`) and its trimmed
    /// region. Streamed normalization plans with it before any pixel exists (no trim: `trimmed` is
    /// then `decoded`).
    init(sourceWidth: Int, sourceHeight: Int, decoded: PixelRect, trimmed: PixelRect, options: NormalizeOptions) {
        let sourceWidth = max(sourceWidth, 1), sourceHeight = max(sourceHeight, 1)
        let shrunk = decoded.width != sourceWidth || decoded.height != sourceHeight

        /// A decoded length in source pixels.
        func toSource(_ length: Int, decoded: Int, source: Int) -> Int {
            guard shrunk else { return length }
            if length == decoded { return source }
            return max(1, Int((Double(length) * Double(source) / Double(decoded)).rounded(.toNearestOrAwayFromZero)))
        }
        trimmedWidth = toSource(trimmed.width, decoded: decoded.width, source: sourceWidth)
        trimmedHeight = toSource(trimmed.height, decoded: decoded.height, source: sourceHeight)

        if options.shape == .circle {
            crop = ShapeRenderer.centredSquare(in: trimmed)
            let side = min(trimmedWidth, trimmedHeight)
            (glyphSourceWidth, glyphSourceHeight) = (side, side)
        } else {
            crop = trimmed
            (glyphSourceWidth, glyphSourceHeight) = (trimmedWidth, trimmedHeight)
        }

        let box = options.box
        let (glyphW, glyphH) = (glyphSourceWidth, glyphSourceHeight)
        entries = options.scales.map { scale in
            let size = box.renditionSize(width: glyphW, height: glyphH, scale: scale)
            let side = options.shape == .square ? max(size.width, size.height) : 0
            return Entry(scale: scale, glyphWidth: size.width, glyphHeight: size.height,
                         canvasWidth: options.shape == .square ? side : size.width,
                         canvasHeight: options.shape == .square ? side : size.height,
                         isUpscale: size.isUpscale)
        }

        let placedSize = options.shape == .square
            ? (max(glyphSourceWidth, glyphSourceHeight), max(glyphSourceWidth, glyphSourceHeight)) : (glyphSourceWidth, glyphSourceHeight)
        decodeScale = box.decodeScale(width: placedSize.0, height: placedSize.1)
        let points = box.pointSize(width: placedSize.0, height: placedSize.1)
        (pointWidth, pointHeight) = (points.width, points.height)
    }

    /// Limits bound renditions as they bound sources. Only an upscale can pass them (a rendition
    /// is otherwise no larger than its source), so this speaks only for `--allow-upscale` icons
    /// whose shape the options' check could not foresee.
    func checkRenditionLimits(_ limits: DecodeOptions.Limits, allowUpscale: Bool) throws(TabIconsError) {
        for entry in entries where Self.isRendered(entry, allowUpscale: allowUpscale) {
            let (width, height) = (entry.canvasWidth, entry.canvasHeight)
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            if width > limits.maxSide || height > limits.maxSide || overflow || pixels > limits.maxPixels {
                throw TabIconsError(.tooLarge, "the \(NumberText.decimal(entry.scale))× rendition would be \(width)×\(height) px, past the limit of \(limits.maxSide) px a side or \(limits.maxPixels) pixels")
            }
        }
    }

    /// Whether the entry is rendered under `allowUpscale`.
    static func isRendered(_ entry: Entry, allowUpscale: Bool) -> Bool {
        allowUpscale || !entry.isUpscale
    }

    /// Shrink on load: the longest side the decoder must deliver for every rendition the options
    /// can ask for. The rule's longest side is round(min(L, box) × scale), at most the value for a
    /// source at least as large as the box, which `IconBox.renditionSize` gives directly. A source
    /// smaller than that is decoded whole anyway. Nil (full size) when no scale is requested.
    static func longestSideNeeded(_ options: NormalizeOptions) -> Int? {
        // No source is longer than the side limit, so a larger box asks for nothing more (and
        // stays inside Int however large it is).
        let atLeastBox = Int(min(options.box.points, Double(options.limits.maxSide)).rounded(.up))
        return options.scales
            .map { options.box.renditionSize(width: atLeastBox, height: atLeastBox, scale: $0).width }
            .max()
    }

    /// When a shrink-on-load decode left the glyph's crop (trim, circle) with fewer pixels than a
    /// rendition needs although the source has them, the longest side to decode again at; nil when
    /// the decoded pixels suffice. Compares longest sides only: a short side one pixel short from
    /// the decoder's rounding is not worth a second decode.
    func longestSideForSharperCrop(of image: DecodedImage, allowUpscale: Bool) -> Int? {
        let sourceLongest = max(image.info.pixelWidth, image.info.pixelHeight)
        guard image.bitmap.width < image.info.pixelWidth || image.bitmap.height < image.info.pixelHeight
        else { return nil }
        let needed = entries.filter { Self.isRendered($0, allowUpscale: allowUpscale) }
            .map { max($0.glyphWidth, $0.glyphHeight) }.max() ?? 0
        guard needed > crop.longestSide else { return nil }
        let glyphSourceLongest = max(max(glyphSourceWidth, glyphSourceHeight), 1)
        // The crop grows in proportion to the decoded size; one spare pixel for rounding.
        let side = (Double(needed) * Double(sourceLongest) / Double(glyphSourceLongest)).rounded(.up) + 1
        return min(sourceLongest, Int(side))
    }
}
