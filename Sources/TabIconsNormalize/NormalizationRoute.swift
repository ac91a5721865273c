import TabIconsCore
import TabIconsCodecs
import Foundation

/// How one input's bytes are normalized, decided once from its header before anything is
/// decoded: `Normalizer.normalize(_: Data)`, `planned(_: Data)` (what `inspect` reports) and the
/// memory estimate a batch budgets with (`normalizeMemoryEstimate`) all follow this one answer,
/// so the estimate charges the route the normalization then takes.
///
/// Each route ends in the same finishing step (`NormalizedIcon.finished`: shape, skipped scales,
/// lints, intent); they differ only in where each rendition's glyph comes from.
enum NormalizationRoute {
    /// A binary PNG whose renditions are all resampled (`StreamedNormalization`): read row by
    /// row, the source's RGBA never held.
    case streamedPNG(StreamedPNG)
    /// Decoded whole with the shrink-on-load hint (`ImageDecoder`), then resampled
    /// (`Normalizer.normalize(_: DecodedImage)`). Also the route of bytes no decoder will take,
    /// and of a PNG whose header the decoder refuses: it reports them, in its own words.
    case raster
    /// An SVG (or base64 / `data:` text of one): parsed once, each rendition drawn at its own size.
    case vector

    /// What the streamed route knows from the header (`PNGChunks.probe`) and the plan.
    struct StreamedPNG {
        var chunks: PNGChunks
        var plan: RenditionPlan
        /// The entries to render, every one resampled from streamed rows.
        var rendered: [RenditionPlan.Entry]
    }

    init(_ data: Data, options: NormalizeOptions) {
        let binary = ImageFormat.sniff(data)
        if binary == .png, StreamedNormalization.streams(options: options), let streamed = Self.streamed(data, options: options) {
            self = .streamedPNG(streamed)
            return
        }
        // Text is unwrapped only when the bytes are no image themselves, as the decoder does.
        self = (binary ?? ImageFormat.sniffInput(data)) == .svg ? .vector : .raster
    }

    /// The streamed route's facts when every rendition of the PNG `data` can be resampled from
    /// streamed rows; nil when one is the source's own size or larger, or when the decoder will
    /// refuse the header.
    private static func streamed(_ data: Data, options: NormalizeOptions) -> StreamedPNG? {
        data.withUnsafeBytes { bytes -> StreamedPNG? in
            guard let chunks = PNGChunks.probe(bytes, limits: options.limits) else { return nil }
            let header = chunks.header
            let plan = StreamedNormalization.plan(width: header.width, height: header.height, options: options)
            guard
                let rendered = StreamedNormalization.streamedEntries(
                    plan, width: header.width, height: header.height,
                    options: options)
            else { return nil }
            return StreamedPNG(chunks: chunks, plan: plan, rendered: rendered)
        }
    }
}
