import TabIconsCore
import TabIconsCodecs
import Foundation

/// Normalization of a PNG read row by row into the resampler's horizontal pass, so that the
/// source's full RGBA never exists: peak memory follows the renditions' size, not the source's.
/// An optimization, not a second behaviour: the renditions, lints and `ImageInfo` are byte for byte
/// those of decoding the whole image and calling `Normalizer.normalize(_: DecodedImage)` (the
/// tests compare both over PngSuite and TestImages), and a file that fails mid-stream fails with
/// the same code and words, having produced nothing.
///
/// What streams (`streams(options:)` and `streamedEntries`), and why the rest does not:
/// - binary PNG input (not base64 / `data:` text), any depth and interlace: `PNGRowDecoder` makes
///   16-bit rows 8-bit as they are read and holds only the even rows of an Adam7 image;
/// - shape `fit` or `square` without `trim`: `trim` needs the whole image's content bounds before
///   the first row can be placed, and `circle` crops first; both keep the whole-image path;
/// - every rendered size at most the source's on both axes and none equal to it on both: a
///   rendition at the source's own size is the decoded pixels untouched, which only the whole
///   image gives, and an upscale (`allowUpscale`) would hold more than the source.
/// Every rendering intent streams: the conversion is per pixel, applied to each row as it comes.
/// What the lints and `ImageInfo` need (transparency, the visible bounds for `padding`) is
/// gathered on the way (`GlyphFacts`).
enum StreamedNormalization {
    /// The streamed result, or nil when `data`'s route is not the streamed one.
    static func normalize(_ data: Data, options: NormalizeOptions) throws(TabIconsError) -> NormalizedIcon? {
        try outcome(data, options: options)?.icon
    }

    /// The streamed normalization of `data`, or nil when its route (`NormalizationRoute`) is
    /// not the streamed one (then the caller decodes the whole image). Throws as the whole-image
    /// path would for the same bytes.
    static func outcome(_ data: Data, options: NormalizeOptions, rendering: Bool = true) throws(TabIconsError) -> Outcome? {
        guard case .streamedPNG(let route) = NormalizationRoute(data, options: options) else { return nil }
        return try outcome(data, route: route, options: options, rendering: rendering)
    }

    /// `data` normalized on the streamed route the header probe chose, with the bytes it held
    /// (`Outcome`); without `rendering` (`Normalizer.planned(Data)`, what `inspect` reports) the
    /// rows are read and judged, never resampled.
    static func outcome(
        _ data: Data, route: NormalizationRoute.StreamedPNG, options: NormalizeOptions,
        rendering: Bool = true
    ) throws(TabIconsError) -> Outcome {
        try options.limits.check(inputBytes: data.count)
        return try data.withUnsafeBytesTyped { bytes throws(TabIconsError) -> Outcome in
            let decoder = try PNGRowDecoder(bytes, limits: options.limits, scanned: route.chunks)
            let held = heldBytes(
                width: decoder.width, height: decoder.height, bitDepth: decoder.bitDepth,
                isInterlaced: decoder.isInterlaced, rendered: route.rendered, options: options)
            try DecodeMemoryEstimate.check(
                bytes.count + held + decoder.chunks.libpngWorkingBytes,
                decoding: "a \(decoder.width)×\(decoder.height) PNG read row by row",
                limits: options.limits, format: .png)
            return try normalize(decoder, plan: route.plan, rendered: route.rendered, options: options, rendering: rendering)
        }
    }

    /// Whether these options can stream at all (before looking at a file).
    static func streams(options: NormalizeOptions) -> Bool {
        !options.trim && options.shape != .circle
    }

    /// The rule's plan for a `width × height` source decoded whole and untrimmed.
    static func plan(width: Int, height: Int, options: NormalizeOptions) -> RenditionPlan {
        let full = PixelRect(x: 0, y: 0, width: width, height: height)
        return RenditionPlan(sourceWidth: width, sourceHeight: height, decoded: full, trimmed: full, options: options)
    }

    /// The entries to render when every one of them can be resampled from streamed rows; nil when
    /// one is the source's own size or larger than it on an axis.
    static func streamedEntries(
        _ plan: RenditionPlan, width: Int, height: Int,
        options: NormalizeOptions
    ) -> [RenditionPlan.Entry]? {
        let rendered = plan.rendered(allowUpscale: options.allowUpscale)
        let resampledOnly = rendered.allSatisfy { entry in
            entry.glyphWidth <= width && entry.glyphHeight <= height
                && (entry.glyphWidth != width || entry.glyphHeight != height)
        }
        return resampledOnly ? rendered : nil
    }

    /// What one streamed normalization produced, and the bytes it held to do it (its own buffers
    /// and libpng's, counted): what `DecodeMemoryEstimate` is tested against.
    struct Outcome {
        var icon: NormalizedIcon
        var heldBytes: Int
    }

    /// Reads every row of `decoder` into the horizontal passes, then finishes each rendition.
    static func normalize(
        _ decoder: PNGRowDecoder, plan: RenditionPlan, rendered: [RenditionPlan.Entry],
        options: NormalizeOptions, rendering: Bool = true
    ) throws(TabIconsError) -> Outcome {
        let width = decoder.width, height = decoder.height
        try decoder.start()
        let sizes = rendered.map { (width: $0.glyphWidth, height: $0.glyphHeight) }
        var resampler =
            rendering ? StreamedResampler(filter: options.filter, sourceWidth: width, sourceHeight: height, sizes: sizes) : nil
        var gathered = GlyphGatherer(width: width, height: height)
        var inks = InkSurvey()
        var row = [UInt8](repeating: 0, count: width * 4)
        for _ in 0..<height {
            try row.withUnsafeMutableBufferPointer { buffer throws(TabIconsError) in
                guard let base = buffer.baseAddress else { return }
                try decoder.readRows(into: base, count: 1)
            }
            if decoder.hasAlpha, !gathered.sourceHasTransparentPixels {
                gathered.sourceHasTransparentPixels = row.withUnsafeBufferPointer { GlyphGatherer.hasTransparentPixels($0) }
            }
            if options.render == .auto {
                row.withUnsafeBufferPointer { inks.add($0) }
            }
            if options.render.convertsPixels {
                row = RenderIntentConversion.apply(options.render, to: Bitmap(width: width, height: 1, pixels: row)).pixels
            }
            row.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                gathered.add(base)
                resampler?.push(base)
            }
        }

        let info = ImageInfo(
            format: .png, pixelWidth: width, pixelHeight: height, hasAlpha: decoder.hasAlpha,
            hasTransparentPixels: decoder.hasAlpha && gathered.sourceHasTransparentPixels,
            orientation: .up, isAnimated: decoder.isAnimated,
            bitDepth: decoder.bitDepth, colorModel: decoder.colorModel)
        let icon = try NormalizedIcon.finished(
            plan: plan, info: info, facts: gathered.facts, options: options,
            survey: { inks },
            glyph: resampler.map { finished in
                { entry in finished.resampled(width: entry.glyphWidth, height: entry.glyphHeight) }
            })
        let held =
            decoder.libpngPeakBytes + row.count
            + PNGRowDecoder.heldBytes(
                width: width, height: height, bitDepth: decoder.bitDepth,
                isInterlaced: decoder.isInterlaced, streamed: true)
            + StreamedResampler.heldBytes(sourceWidth: width, sourceHeight: height, sizes: sizes, filter: options.filter)
            + icon.pixelBytes
        return Outcome(icon: icon, heldBytes: held)
    }
}

/// The glyph's facts for the lints, and the source's transparency, gathered row by row with the
/// rules a whole bitmap is judged by (`Bitmap.hasTransparentPixels`, `ContentBounds`).
private struct GlyphGatherer {
    let width: Int
    let height: Int
    var sourceHasTransparentPixels = false
    private var glyphHasTransparentPixels = false
    private var minX = Int.max, maxX = -1, minY = -1, maxY = -1
    private var y = 0

    init(width: Int, height: Int) {
        (self.width, self.height) = (width, height)
    }

    /// Any alpha below 255 in an RGBA row.
    static func hasTransparentPixels(_ row: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 3
        while i < row.count {
            if row[i] != 255 { return true }
            i += 4
        }
        return false
    }

    /// The next glyph row (after the rendering intent).
    mutating func add(_ row: UnsafePointer<UInt8>) {
        if !glyphHasTransparentPixels {
            glyphHasTransparentPixels = Self.hasTransparentPixels(UnsafeBufferPointer(start: row, count: width * 4))
        }
        if let extent = ContentBounds.extent(ofRow: row, width: width, alphaAbove: Lints.visibleAlpha) {
            minX = min(minX, extent.lowerBound)
            maxX = max(maxX, extent.upperBound)
            if minY < 0 { minY = y }
            maxY = y
        }
        y += 1
    }

    var facts: GlyphFacts {
        let bounds = maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        return GlyphFacts(
            width: width, height: height, hasTransparentPixels: glyphHasTransparentPixels,
            visibleBounds: bounds)
    }
}
