import TabIconsCore
import Foundation

/// `--fit SIZE` (SPEC §3a): the glyph scaled so its optical size is SIZE points. The rule fits a
/// glyph into the box less twice the padding; the fit changes only that padding, so the glyph
/// stays within the box, a raster is never drawn past the rule's upscale limits (a side the rule
/// would skip or keep at its own size stays so), and the decode scale and point size recorded are
/// what was done. The optical size grows with the glyph's side, so the side is scaled by
/// SIZE ÷ measured and measured again, a few times at most (anti-aliasing and a glyph held at
/// its own size make it not quite proportional).
extension Normalizer {
    /// The most drawings made to find the padding (each at the run's largest scale, alone).
    static let opticalFitRounds = 4
    /// Close enough: a hundredth of what the set lint allows.
    static let opticalFitTolerance = 0.01

    /// The options `data` is made with under `--fit SIZE`: these with the padding that gives the
    /// glyph that optical size (nil without `.size`: `.set` is the batch's to make a size).
    func opticallyFitted(_ data: Data) throws(TabIconsError) -> NormalizeOptions? {
        guard case .size(let target)? = options.opticalFit else { return nil }
        var fitted = options
        fitted.opticalFit = nil
        let box = options.box.points
        // The side the rule fits the glyph into, kept within the box and above a tenth of it.
        var inner = box - 2 * options.padding.points(in: options.box)
        var best: (error: Double, inner: Double)?
        for _ in 0..<Self.opticalFitRounds {
            fitted.padding = Self.padding(box: box, inner: inner)
            guard let size = try Normalizer(options: fitted).opticalSize(data) else { break }
            let error = abs(size - target)
            if best == nil || error < best!.error { best = (error, inner) }
            guard error > Self.opticalFitTolerance else { break }
            let next = min(box, max(box / 10, inner * target / size))
            guard abs(next - inner) > 1e-4 else { break }  // held by the box or the rule
            inner = next
        }
        fitted.padding = Self.padding(box: box, inner: best?.inner ?? inner)
        return fitted
    }

    /// The padding that leaves `inner` of the box, in 1/4096 pt (a binary fraction: the box less
    /// twice it, plus twice it, is the box again exactly, so the point size stays the box's).
    private static func padding(box: Double, inner: Double) -> IconPadding {
        IconPadding(points: (max(0, box - inner) / 2 * 4096).rounded() / 4096)
    }

    /// The optical size of `data` as these options make it, measured on the largest rendition
    /// they draw (nil without ink or rendition).
    private func opticalSize(_ data: Data) throws(TabIconsError) -> Double? {
        var alone = options
        alone.scales = [options.scales.max() ?? 1]
        var icon = try Normalizer(options: alone).normalize(data)
        if icon.renditions.isEmpty {
            // The rule skips that scale for a small raster: the largest it draws.
            icon = try normalize(data)
        }
        guard let largest = icon.renditions.max(by: { $0.scale < $1.scale }) else { return nil }
        let size = IconMeasures.measured(largest.bitmap, scale: largest.scale, box: options.box).opticalSize
        return size > 0 ? size : nil
    }
}
