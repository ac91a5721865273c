import TabIconsCore
import TabIconsCodecs
import Foundation

/// Turns icon bytes, or an already decoded image, into renditions for every requested screen scale
/// (SPEC §3): trim, shape, rendering intent (and with `auto` the intent decided from the glyph,
/// `IconIntent`), the decode-scale rule's sizes, premultiplied resampling, lints.
///
/// Pure and `Sendable`: every call owns its scratch buffers, so many tasks may share one
/// normalizer and get the same bytes as a single thread.
public struct Normalizer: Sendable {
    public let options: NormalizeOptions

    public init(options: NormalizeOptions = NormalizeOptions()) {
        self.options = options
    }

    /// Decodes `data` (PNG, JPEG, WebP, or base64 / `data:` text of one) and normalizes it.
    ///
    /// Shrink on load: the decoder is asked only for the longest side the largest rendition can
    /// need (`RenditionPlan.longestSideNeeded`), so a large photo is never held at full size.
    /// `trim` and `circle` crop after decoding, which can leave the crop with fewer pixels than a
    /// rendition needs; then, and only if the source has more, the image is decoded once more at
    /// the size the crop needs.
    public func normalize(_ data: Data) throws(TabIconsError) -> NormalizedIcon {
        try options.validate()
        if let fitted = try opticallyFitted(data) { return try Normalizer(options: fitted).normalize(data) }  // --fit SIZE
        if let centred = try centred(data) { return centred }  // --centre optical
        if let redrawn = try restroked(data) { return redrawn }  // --stroke-width
        // A PNG read row by row when it can be: the same result without the source's RGBA.
        if case .streamedPNG(let streamed) = NormalizationRoute(data, options: options) {
            return try StreamedNormalization.outcome(data, route: streamed, options: options).icon
        }
        return try normalize(decodedWhole(data))
    }

    /// The raster and vector routes' decode, shared by `normalize(_: Data)` and `planned(_: Data)`:
    /// with the shrink-on-load hint, and once more at the size the crop needs when trim or the
    /// circle left it with fewer pixels than a rendition needs although the source has them.
    private func decodedWhole(_ data: Data) throws(TabIconsError) -> DecodedImage {
        let hint = RenditionPlan.longestSideNeeded(options)
        let image = try ImageDecoder.decode(data, options: DecodeOptions(limits: options.limits, longestSideNeeded: hint))
        if image.vector == nil, options.trim || options.shape == .circle,
            let larger = RenditionPlan(image: image, options: options)
                .longestSideForSharperCrop(of: image, allowUpscale: options.allowUpscale)
        {
            return try ImageDecoder.decode(data, options: DecodeOptions(limits: options.limits, longestSideNeeded: larger))
        }
        return image
    }

    /// The longest side `normalize(_: Data)` asks the decoder for (shrink on load), nil for full
    /// size: for callers that decode themselves and then call `normalize(_: DecodedImage)`.
    public var longestSideNeeded: Int? { RenditionPlan.longestSideNeeded(options) }

    /// What `normalize` would answer for `image` without rendering: decode scale, point size,
    /// skipped scales and lints from the same plan, and no renditions (what `tabicon inspect`
    /// reports; `undersized` is judged against these options' scales).
    public func planned(_ image: DecodedImage) throws(TabIconsError) -> NormalizedIcon {
        let (plan, glyph) = try prepare(image)
        var icon = try NormalizedIcon.finished(
            plan: plan, info: image.info, facts: GlyphFacts(glyph), options: options,
            survey: { InkSurvey.of(glyph) }, glyph: nil)
        if let document = image.vector, let region = plan.vectorRegion {
            icon.vector = NormalizedVector(document: document, plan: plan, region: region, shape: options.shape)
            icon.lints += Lints.text(document)
        }
        return icon
    }

    /// `planned` for the bytes of an input, decoded as `normalize(_: Data)` decodes it: a PNG that
    /// streams is read row by row (its RGBA never held, SPEC §2 "Memory follows the limits") and
    /// judged without resampling; anything else decoded as `normalize` decodes it (`decodedWhole`:
    /// the shrink-on-load hint, and the crop's second decode), so its lints are `normalize`'s.
    public func planned(_ data: Data) throws(TabIconsError) -> NormalizedIcon {
        try options.validate()
        if let fitted = try opticallyFitted(data) { return try Normalizer(options: fitted).planned(data) }
        if var centred = try centred(data) {  // where the glyph goes is known once it is drawn
            centred.renditions = []
            return centred
        }
        if case .streamedPNG(let streamed) = NormalizationRoute(data, options: options) {
            return try StreamedNormalization.outcome(data, route: streamed, options: options, rendering: false).icon
                .withStrokeWidthLint(options)
        }
        var icon = try planned(decodedWhole(data))
        if case .asDrawn(let lint)? = try restrokedDocument(data, planned: icon) { icon.lints.append(lint) }
        return icon
    }

    /// Normalizes a decoded image. Rendition sizes come from the SOURCE size
    /// (`image.info.pixelWidth/Height`) even when a shrink-on-load decode delivered fewer pixels;
    /// resampling starts from the pixels there are. See `RenditionPlan` for what the rule is
    /// applied to under each shape.
    ///
    /// A rendition whose glyph is exactly as large as its pixels is those pixels untouched, not
    /// resampled: with `fit`, `original` and nothing to trim, it is the decoded bitmap bit for bit.
    public func normalize(_ image: DecodedImage) throws(TabIconsError) -> NormalizedIcon {
        let (plan, glyph) = try prepare(image)
        let facts = GlyphFacts(glyph)
        if let document = image.vector, let region = plan.vectorRegion {
            // A vector's renditions: each drawn from the document at its own size (the plan's
            // region, after trim or the circle's crop), then the rendering intent, as for rasters.
            // Never resampled, never skipped.
            var icon = try NormalizedIcon.finished(
                plan: plan, info: image.info, facts: facts, options: options,
                survey: { InkSurvey.of(glyph) }
            ) { entry throws(TabIconsError) in
                let drawn = try document.render(width: entry.glyphWidth, height: entry.glyphHeight, region: region)
                return RenderIntentConversion.apply(options.render, to: drawn)
            }
            icon.vector = NormalizedVector(document: document, plan: plan, region: region, shape: options.shape)
            icon.lints += Lints.text(document)
            return icon
        }
        var resampler = Resampler(filter: options.filter)
        let resampledWidths = plan.rendered(allowUpscale: options.allowUpscale)
            .filter { $0.glyphWidth != glyph.width || $0.glyphHeight != glyph.height }
            .map(\.glyphWidth)
        if let widest = resampledWidths.max() {
            resampler.reserve(sourceWidth: glyph.width, sourceHeight: glyph.height, width: widest)
        }
        return try NormalizedIcon.finished(
            plan: plan, info: image.info, facts: facts, options: options,
            survey: { InkSurvey.of(glyph) }
        ) { entry in
            if entry.glyphWidth == glyph.width && entry.glyphHeight == glyph.height { return glyph }
            return resampler.resample(glyph, width: entry.glyphWidth, height: entry.glyphHeight)
        }
    }

    /// What both `normalize` and `planned` start from: the rule's plan, and the glyph (the
    /// decoded pixels cropped by trim or the circle, with the rendering intent applied). For a
    /// vector the pixels are the document drawn at the largest rendition's size (the decoded
    /// bitmap when it already is that size, as `normalize(_: Data)` decodes it).
    private func prepare(_ image: DecodedImage) throws(TabIconsError) -> (plan: RenditionPlan, glyph: Bitmap) {
        try options.validate()
        if let document = image.vector {
            let probe = try vectorProbe(image, document: document)
            let trimmed = options.trim ? try RenditionPlan.vectorTrimRegion(document, options: options) : .whole
            let plan = RenditionPlan(vector: document, probe: probe, trimmed: trimmed, options: options)
            return (plan, RenderIntentConversion.apply(options.render, to: probe.cropped(to: plan.crop)))
        }
        let plan = RenditionPlan(image: image, options: options)
        try plan.checkRenditionLimits(options.limits, allowUpscale: options.allowUpscale)
        return (plan, RenderIntentConversion.apply(options.render, to: image.bitmap.cropped(to: plan.crop)))
    }

    /// The whole document at the largest requested rendition's size, where trim and the lints look.
    private func vectorProbe(_ image: DecodedImage, document: SVGDocument) throws(TabIconsError) -> Bitmap {
        let largest = options.scales.map { options.box.vectorRenditionSize(width: 1, height: 1, scale: $0).width }.max() ?? 1
        let size = IconBox.fitted(width: document.size.width, height: document.size.height, longestSide: largest)
        if image.bitmap.width == size.width && image.bitmap.height == size.height { return image.bitmap }
        return try document.render(width: size.width, height: size.height)
    }
}
