import TabIconsCore
import TabIconsCodecs
import Foundation

/// How many bytes normalizing an input will hold at once, from its header, without decoding: what
/// a batch weighs against its memory budget. It charges the path the input will really take: a
/// streamed PNG (`StreamedNormalization`) holds its input, libpng's working set, one row, the
/// resampler's windows and the renditions, never the source's RGBA; everything else
/// holds what `DecodeMemoryEstimate` counts for a whole-image decode (after shrink on load).
extension Normalizer {
    package func normalizeMemoryEstimate(_ data: Data) -> Int {
        StreamedNormalization.memoryEstimate(data, options: options)
            ?? DecodeMemoryEstimate.bytes(data, longestSideNeeded: longestSideNeeded, limits: options.limits)
    }
}

extension StreamedNormalization {
    /// The streamed estimate, or nil when `data`'s route with `options` (`NormalizationRoute`,
    /// the one the normalizer takes) is not the streamed one.
    static func memoryEstimate(_ data: Data, options: NormalizeOptions) -> Int? {
        guard case .streamedPNG(let route) = NormalizationRoute(data, options: options) else { return nil }
        let header = route.chunks.header
        return data.count + route.chunks.libpngWorkingBytes
            + heldBytes(
                width: header.width, height: header.height, bitDepth: header.bitDepth,
                isInterlaced: header.isInterlaced, rendered: route.rendered, options: options)
    }

    /// What a streamed normalization holds besides its input and libpng: `PNGRowDecoder`'s rows
    /// (and an Adam7 image's even rows), the one final row, the resampler's windows, and each
    /// rendition once more as the finished glyph and its square canvas.
    static func heldBytes(
        width: Int, height: Int, bitDepth: Int, isInterlaced: Bool,
        rendered: [RenditionPlan.Entry], options: NormalizeOptions
    ) -> Int {
        let sizes = rendered.map { (width: $0.glyphWidth, height: $0.glyphHeight) }
        let renditions = rendered.reduce(0) { total, entry in
            total + 4 * (entry.glyphWidth * entry.glyphHeight + entry.canvasWidth * entry.canvasHeight)
        }
        return PNGRowDecoder.heldBytes(
            width: width, height: height, bitDepth: bitDepth, isInterlaced: isInterlaced, streamed: true)
            + width * 4 + renditions
            + StreamedResampler.heldBytes(sourceWidth: width, sourceHeight: height, sizes: sizes, filter: options.filter)
    }
}
