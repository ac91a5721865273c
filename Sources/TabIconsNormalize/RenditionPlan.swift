import TabIconsCore
import TabIconsCodecs
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
/// - `padding`: the glyph fitted into the box less twice the padding, its canvas adding the
///   padding back (`IconBox.paddedRenditionSize`); the point size includes it.
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
        /// The rendition's size: the glyph's, or the canvas it is centred on (the square's, the
        /// padding's).
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
    /// For a vector: the part of the document the renditions draw (`crop` as fractions of it).
    var vectorRegion: SVGDocument.Region?

    init(image: DecodedImage, options: NormalizeOptions) {
        let bitmap = image.bitmap
        self.init(
            sourceWidth: image.info.pixelWidth, sourceHeight: image.info.pixelHeight,
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
        let padding = options.padding.points(in: box)
        let (glyphW, glyphH) = (glyphSourceWidth, glyphSourceHeight)
        entries = options.scales.map { scale in
            let size = box.paddedRenditionSize(width: glyphW, height: glyphH, scale: scale, padding: padding)
            let side = max(size.canvasWidth, size.canvasHeight)
            return Entry(
                scale: scale, glyphWidth: size.width, glyphHeight: size.height,
                canvasWidth: options.shape == .square ? side : size.canvasWidth,
                canvasHeight: options.shape == .square ? side : size.canvasHeight,
                isUpscale: size.isUpscale)
        }

        let placedSize =
            options.shape == .square
            ? (max(glyphSourceWidth, glyphSourceHeight), max(glyphSourceWidth, glyphSourceHeight))
            : (glyphSourceWidth, glyphSourceHeight)
        // The glyph is fitted into the box less twice the padding, which the point size adds back.
        let inner = padding > 0 ? IconBox(points: box.points - 2 * padding) ?? box : box
        decodeScale = inner.decodeScale(width: placedSize.0, height: placedSize.1)
        let points = inner.pointSize(width: placedSize.0, height: placedSize.1)
        (pointWidth, pointHeight) = (points.width + 2 * padding, points.height + 2 * padding)
    }

    /// Limits bound renditions as they bound sources. Only an upscale can pass them (a rendition
    /// is otherwise no larger than its source), so this speaks only for `--allow-upscale` icons
    /// whose shape the options' check could not foresee.
    func checkRenditionLimits(_ limits: DecodeOptions.Limits, allowUpscale: Bool) throws(TabIconsError) {
        for entry in rendered(allowUpscale: allowUpscale) {
            let (width, height) = (entry.canvasWidth, entry.canvasHeight)
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            if width > limits.maxSide || height > limits.maxSide || overflow || pixels > limits.maxPixels {
                throw TabIconsError(
                    .tooLarge,
                    "the \(NumberText.decimal(entry.scale))× rendition would be \(width)×\(height) px, past the limit of \(limits.maxSide) px a side or \(limits.maxPixels) pixels"
                )
            }
        }
    }

    /// The plan for a vector (SPEC §3, vectors fill the box). `trimmed` is the part of the
    /// document `trim` keeps (`vectorTrimRegion`, the whole of it without trim); the circle takes
    /// its centred square. That region is what every rendition draws at its own size:
    /// T = round(box × scale) on the region's longest side, its aspect kept; nothing is an upscale.
    /// `probe` is the whole document drawn at the largest rendition's size: `crop` is the region in
    /// its pixels (what the lints judge). The point size is the box-fitted size (the box itself for
    /// `square` and `circle`); `decodeScale` is the region's intrinsic longest side ÷ box, so
    /// intrinsic pixels ÷ `decodeScale` = points as for rasters (below 1 for a small drawing).
    init(vector document: SVGDocument, probe: Bitmap, trimmed: SVGDocument.Region, options: NormalizeOptions) {
        let size = document.size
        var region = trimmed
        var regionWidth = size.width * region.width, regionHeight = size.height * region.height
        if options.shape == .circle {
            let side = min(regionWidth, regionHeight)
            region = SVGDocument.Region(
                x: region.x + (regionWidth - side) / 2 / size.width,
                y: region.y + (regionHeight - side) / 2 / size.height,
                width: side / size.width, height: side / size.height)
            (regionWidth, regionHeight) = (side, side)
        }
        vectorRegion = region
        /// A region in the probe's whole pixels, rounded outward (at least one pixel).
        func pixels(_ r: SVGDocument.Region) -> PixelRect {
            let w = Double(probe.width), h = Double(probe.height)
            let x0 = min(probe.width - 1, max(0, Int((r.x * w + 1e-6).rounded(.down))))
            let y0 = min(probe.height - 1, max(0, Int((r.y * h + 1e-6).rounded(.down))))
            let x1 = min(probe.width, max(x0 + 1, Int(((r.x + r.width) * w - 1e-6).rounded(.up))))
            let y1 = min(probe.height, max(y0 + 1, Int(((r.y + r.height) * h - 1e-6).rounded(.up))))
            return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        crop = pixels(region)
        let trimmedPixels = pixels(trimmed)
        (trimmedWidth, trimmedHeight) = (trimmedPixels.width, trimmedPixels.height)
        (glyphSourceWidth, glyphSourceHeight) = (crop.width, crop.height)

        let box = options.box
        let padding = options.padding.points(in: box)
        entries = options.scales.map { scale in
            let size = box.paddedVectorRenditionSize(width: regionWidth, height: regionHeight, scale: scale, padding: padding)
            let side = max(size.canvasWidth, size.canvasHeight)
            let square = options.shape == .square
            return Entry(
                scale: scale, glyphWidth: size.width, glyphHeight: size.height,
                canvasWidth: square ? side : size.canvasWidth, canvasHeight: square ? side : size.canvasHeight,
                isUpscale: false)
        }
        let inner = padding > 0 ? IconBox(points: box.points - 2 * padding) ?? box : box
        decodeScale = inner.vectorDecodeScale(width: regionWidth, height: regionHeight)
        if options.shape == .square {
            (pointWidth, pointHeight) = (box.points, box.points)
        } else {
            (pointWidth, pointHeight) = (regionWidth / decodeScale + 2 * padding, regionHeight / decodeScale + 2 * padding)
        }
    }

    /// How finely `trim` looks at a vector: the document drawn at up to this many times the largest
    /// rendition's size, so the margins it finds are exact to a quarter of a rendition pixel
    /// (at most `vectorTrimMaxSide` px a side). A document heavy enough that the finer drawing would
    /// take more than a quarter of a drawing's work budget is looked at 2× or 1× instead.
    static let vectorTrimOversampling = [4, 2, 1]
    static let vectorTrimMaxSide = 2048

    /// The part of a vector `trim` keeps: everything but its fully transparent margins, found in a
    /// drawing of the whole document at `vectorTrimOversampling` times the largest rendition's longest
    /// side, as fractions of the document. The whole document when nothing is drawn.
    static func vectorTrimRegion(_ document: SVGDocument, options: NormalizeOptions) throws(TabIconsError) -> SVGDocument.Region {
        let largest = options.scales.map { options.box.vectorRenditionSize(width: 1, height: 1, scale: $0).width }.max() ?? 1
        var size = (width: largest, height: largest)
        for factor in vectorTrimOversampling {
            let side = min(largest * factor, max(largest, vectorTrimMaxSide), options.limits.maxSide)
            size = IconBox.fitted(width: document.size.width, height: document.size.height, longestSide: side)
            if document.fitsWork(width: size.width, height: size.height, share: 0.25) { break }
        }
        let drawing = try document.render(width: size.width, height: size.height)
        let rect = ContentBounds.trimmedRect(of: drawing)
        let w = Double(drawing.width), h = Double(drawing.height)
        return SVGDocument.Region(
            x: Double(rect.x) / w, y: Double(rect.y) / h,
            width: Double(rect.width) / w, height: Double(rect.height) / h)
    }

    /// Whether the entry is rendered under `allowUpscale`.
    static func isRendered(_ entry: Entry, allowUpscale: Bool) -> Bool {
        allowUpscale || !entry.isUpscale
    }

    /// The entries rendered under `allowUpscale`, in the order of the scales.
    func rendered(allowUpscale: Bool) -> [Entry] {
        entries.filter { Self.isRendered($0, allowUpscale: allowUpscale) }
    }

    /// The requested scales skipped as upscales under `allowUpscale`, in the order they were asked
    /// for (none for a vector, which is never an upscale).
    func skippedScales(allowUpscale: Bool) -> [Double] {
        entries.filter { !Self.isRendered($0, allowUpscale: allowUpscale) }.map(\.scale)
    }

    /// Shrink on load: the longest side the decoder must deliver for every rendition the options
    /// can ask for. The rule's longest side is round(min(L, box) × scale), at most the value for a
    /// source at least as large as the box, which `IconBox.renditionSize` gives directly. A source
    /// smaller than that is decoded whole anyway. Nil (full size) when no scale is requested.
    static func longestSideNeeded(_ options: NormalizeOptions) -> Int? {
        options.scales.map { options.box.longestRenditionSide(scale: $0, maxSide: options.limits.maxSide) }.max()
    }

    /// When a shrink-on-load decode left the glyph's crop (trim, circle) with fewer pixels than a
    /// rendition needs although the source has them, the longest side to decode again at; nil when
    /// the decoded pixels suffice. Compares longest sides only: a short side one pixel short from
    /// the decoder's rounding is not worth a second decode.
    func longestSideForSharperCrop(of image: DecodedImage, allowUpscale: Bool) -> Int? {
        let sourceLongest = max(image.info.pixelWidth, image.info.pixelHeight)
        guard image.bitmap.width < image.info.pixelWidth || image.bitmap.height < image.info.pixelHeight
        else { return nil }
        let needed = rendered(allowUpscale: allowUpscale).map { max($0.glyphWidth, $0.glyphHeight) }.max() ?? 0
        guard needed > crop.longestSide else { return nil }
        let glyphSourceLongest = max(max(glyphSourceWidth, glyphSourceHeight), 1)
        // The crop grows in proportion to the decoded size; one spare pixel for rounding.
        let side = (Double(needed) * Double(sourceLongest) / Double(glyphSourceLongest)).rounded(.up) + 1
        return min(sourceLongest, Int(side))
    }
}
