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
        // A PNG read row by row when it can be: the same result without the source's RGBA.
        if let streamed = try StreamedNormalization.normalize(data, options: options) { return streamed }
        let hint = RenditionPlan.longestSideNeeded(options)
        var image = try ImageDecoder.decode(data, options: DecodeOptions(limits: options.limits, longestSideNeeded: hint))
        if image.vector == nil, options.trim || options.shape == .circle,
           let larger = RenditionPlan(image: image, options: options)
               .longestSideForSharperCrop(of: image, allowUpscale: options.allowUpscale) {
            image = try ImageDecoder.decode(data, options: DecodeOptions(limits: options.limits, longestSideNeeded: larger))
        }
        return try normalize(image)
    }

    /// The longest side `normalize(_: Data)` asks the decoder for (shrink on load), nil for full
    /// size: for callers that decode themselves and then call `normalize(_: DecodedImage)`.
    public var longestSideNeeded: Int? { RenditionPlan.longestSideNeeded(options) }

    /// What `normalize` would answer for `image` without rendering: decode scale, point size,
    /// skipped scales and lints from the same plan, and no renditions (what `tabicon inspect`
    /// reports; `undersized` is judged against these options' scales).
    public func planned(_ image: DecodedImage) throws(TabIconsError) -> NormalizedIcon {
        let (plan, glyph) = try prepare(image)
        let skipped = skippedScales(plan)
        var icon = NormalizedIcon(source: image.info, decodeScale: plan.decodeScale, pointWidth: plan.pointWidth,
                                  pointHeight: plan.pointHeight, renditions: [], skippedScales: skipped,
                                  lints: Lints.evaluate(glyph: glyph, plan: plan, skippedScales: skipped,
                                                        info: image.info, options: options),
                                  intent: IconIntent.decided(render: options.render, glyph: glyph))
        if let document = image.vector, let region = plan.vectorRegion {
            icon.vector = NormalizedVector(document: document, plan: plan, region: region, shape: options.shape)
        }
        return icon
    }

    /// `planned` for the bytes of an input, decoded as `normalize(_: Data)` decodes it: a PNG that
    /// streams is read row by row (its RGBA never held, SPEC §2 "Memory follows the limits") and
    /// judged without resampling; anything else decoded with the shrink-on-load hint.
    public func planned(_ data: Data) throws(TabIconsError) -> NormalizedIcon {
        try options.validate()
        if let streamed = try StreamedNormalization.planned(data, options: options) { return streamed }
        return try planned(ImageDecoder.decode(data, options: DecodeOptions(limits: options.limits, longestSideNeeded: longestSideNeeded)))
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
        if let document = image.vector, let region = plan.vectorRegion {
            return try normalizeVector(image, document: document, region: region, plan: plan, glyph: glyph)
        }
        let rendered = plan.entries.filter { RenditionPlan.isRendered($0, allowUpscale: options.allowUpscale) }

        var resampler = Resampler(filter: options.filter)
        let resampledWidths = rendered
            .filter { $0.glyphWidth != glyph.width || $0.glyphHeight != glyph.height }
            .map(\.glyphWidth)
        if let widest = resampledWidths.max() {
            resampler.reserve(sourceWidth: glyph.width, sourceHeight: glyph.height, width: widest)
        }
        var renditions: [Rendition] = []
        for entry in rendered {
            let bitmap: Bitmap
            if entry.glyphWidth == glyph.width && entry.glyphHeight == glyph.height {
                bitmap = glyph
            } else {
                bitmap = resampler.resample(glyph, width: entry.glyphWidth, height: entry.glyphHeight)
            }
            renditions.append(Rendition(scale: entry.scale, bitmap: ShapeRenderer.placed(bitmap, shape: options.shape, entry: entry)))
        }

        let skipped = skippedScales(plan)
        let lints = Lints.evaluate(glyph: glyph, plan: plan, skippedScales: skipped,
                                   info: image.info, options: options)
        return NormalizedIcon(source: image.info, decodeScale: plan.decodeScale,
                              pointWidth: plan.pointWidth, pointHeight: plan.pointHeight,
                              renditions: renditions, skippedScales: skipped, lints: lints,
                              intent: IconIntent.decided(render: options.render, glyph: glyph))
    }

    /// A vector's renditions: each drawn from the document at its own size (the plan's region,
    /// after trim or the circle's crop), then the rendering intent and the shape, as for rasters.
    /// Never resampled, never skipped.
    private func normalizeVector(_ image: DecodedImage, document: SVGDocument, region: SVGDocument.Region,
                                 plan: RenditionPlan, glyph: Bitmap) throws(TabIconsError) -> NormalizedIcon {
        var renditions: [Rendition] = []
        for entry in plan.entries {
            var bitmap = try document.render(width: entry.glyphWidth, height: entry.glyphHeight, region: region)
            bitmap = RenderIntentConversion.apply(options.render, to: bitmap)
            renditions.append(Rendition(scale: entry.scale, bitmap: ShapeRenderer.placed(bitmap, shape: options.shape, entry: entry)))
        }
        let lints = Lints.evaluate(glyph: glyph, plan: plan, skippedScales: [], info: image.info, options: options)
        var icon = NormalizedIcon(source: image.info, decodeScale: plan.decodeScale,
                                  pointWidth: plan.pointWidth, pointHeight: plan.pointHeight,
                                  renditions: renditions, skippedScales: [], lints: lints,
                                  intent: IconIntent.decided(render: options.render, glyph: glyph))
        icon.vector = NormalizedVector(document: document, plan: plan, region: region, shape: options.shape)
        return icon
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

    /// The requested scales the plan skips as upscales, in the order they were asked for.
    private func skippedScales(_ plan: RenditionPlan) -> [Double] {
        plan.entries.filter { !RenditionPlan.isRendered($0, allowUpscale: options.allowUpscale) }.map(\.scale)
    }
}
