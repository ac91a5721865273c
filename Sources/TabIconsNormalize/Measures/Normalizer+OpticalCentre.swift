import TabIconsCore
import TabIconsCodecs
import Foundation

/// `--centre optical` (SPEC §3a): a glyph the `off-centre` lint would flag moved toward the box's
/// centre, at most 1 pt an axis (`IconMeasures.centringShift`), measured on the rendition at the
/// largest scale as made. A vector is drawn again with its glyph moved (the placement the vector
/// file is written from too, so they agree); a raster's renditions are moved by whole pixels at
/// each scale (no resampling, so no blur: the move is rounded to the pixel there).
extension Normalizer {
    /// `normalize(data)` with the glyph centred; nil without `--centre optical`.
    func centred(_ data: Data) throws(TabIconsError) -> NormalizedIcon? {
        guard let threshold = options.opticalCentre else { return nil }
        var plain = options
        plain.opticalCentre = nil
        var icon = try Normalizer(options: plain).normalize(data)
        guard let largest = icon.renditions.max(by: { $0.scale < $1.scale }) else { return icon }
        let shift = IconMeasures.measured(largest.bitmap, scale: largest.scale, box: options.box)
            .centringShift(threshold: threshold)
        guard shift.x != 0 || shift.y != 0 else { return icon }
        if var vector = icon.vector {
            vector.placement.glyphX += shift.x
            vector.placement.glyphY += shift.y
            if case .success(let redrawn) = try VectorConversion.redrawn(
                data, document: vector.document, placement: vector.placement, strokeWidth: options.strokeWidth,
                limits: options.limits)
            {
                icon.renditions = try drawing(redrawn.svg).renditions
                icon.vector = vector
                return icon
            }
        }
        // A raster, or a drawing the vector converter cannot read: its pixels moved.
        icon.renditions = icon.renditions.map { rendition in
            var moved = rendition
            moved.bitmap = rendition.bitmap.moved(
                x: Int((shift.x * rendition.scale).rounded()), y: Int((shift.y * rendition.scale).rounded()))
            return moved
        }
        return icon
    }
}

extension Bitmap {
    /// The pixels moved by whole pixels, what moves past an edge cut, the uncovered part transparent.
    func moved(x dx: Int, y dy: Int) -> Bitmap {
        guard dx != 0 || dy != 0 else { return self }
        var moved = self
        moved.pixels = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<height {
            let from = y - dy
            guard from >= 0, from < height else { continue }
            for x in 0..<width {
                let source = x - dx
                guard source >= 0, source < width else { continue }
                for channel in 0..<4 {
                    moved.pixels[(y * width + x) * 4 + channel] = pixels[(from * width + source) * 4 + channel]
                }
            }
        }
        return moved
    }
}
