import TabIconsCore
import TabIconsCodecs
import Foundation

/// `--stroke-width` (SPEC §3a): an SVG's strokes redrawn so that, placed as the normalizer places
/// it, its stroke weight (`VectorDrawing.strokeWeight`: the median of the stroke widths on the
/// canvas, by length) is `options.strokeWidth` points. The redrawn drawing is written as the
/// sanitized SVG `--vector` writes and the renditions are drawn from it, so the PNGs, the vector
/// file (`vectorFile`, which redraws the same way) and the measures agree.
extension Normalizer {
    /// What `--stroke-width` does to one input.
    package enum Restroke: Sendable, Equatable {
        /// The redrawn document: a sanitized SVG of the canvas's size in points.
        case redrawn([UInt8])
        /// Left as drawn, and why (the `stroke-width-not-applied` lint).
        case asDrawn(Lint)
    }

    /// What `--stroke-width` does to the input (nil without the option).
    package func restrokedDocument(_ data: Data, planned: NormalizedIcon) throws(TabIconsError) -> Restroke? {
        guard let width = options.strokeWidth else { return nil }
        let asked = NumberText.decimal(width)
        guard let vector = planned.vector else { return .asDrawn(planned.withStrokeWidthLint(options).lints.last!) }
        switch try VectorConversion.redrawn(
            data, document: vector.document, placement: vector.placement, strokeWidth: width, limits: options.limits)
        {
        case .success(let redrawn):
            guard redrawn.weight != nil else {
                return .asDrawn(
                    Lint(.strokeWidthNotApplied, "--stroke-width \(asked): the drawing has no strokes (it is filled)"))
            }
            return .redrawn(redrawn.svg)
        case .failure(let unsupported):
            return .asDrawn(
                Lint(
                    .strokeWidthNotApplied,
                    "--stroke-width \(asked): the drawing holds \(unsupported.feature), which tabicon cannot redraw"))
        }
    }

    /// `normalize(data)` with `--stroke-width` applied: nil without the option. The figures of the
    /// input (its format, size, decode scale, point size, lints) are the plan's; the pixels, and
    /// so the intent, are the redrawn document's.
    func restroked(_ data: Data) throws(TabIconsError) -> NormalizedIcon? {
        guard options.strokeWidth != nil else { return nil }
        var unchanged = options
        unchanged.strokeWidth = nil
        let plain = Normalizer(options: unchanged)
        let planned = try plain.planned(data)
        switch try restrokedDocument(data, planned: planned) {
        case .redrawn(let svg)?:
            let drawn = try drawing(svg)
            var icon = planned
            icon.renditions = drawn.renditions
            icon.skippedScales = drawn.skippedScales
            icon.intent = drawn.intent
            return icon
        case .asDrawn(let lint)?:
            var icon = try plain.normalize(data)
            icon.lints.append(lint)
            return icon
        case nil:
            return nil
        }
    }

    /// The renditions of a redrawn document: the placed canvas (padding, square, circle included),
    /// drawn to fill the box as it is.
    func drawing(_ svg: [UInt8]) throws(TabIconsError) -> NormalizedIcon {
        try Normalizer(
            options: NormalizeOptions(
                box: options.box, scales: options.scales, shape: .fit, render: options.render, filter: options.filter,
                allowUpscale: options.allowUpscale, limits: options.limits)
        ).normalize(Data(svg))
    }
}

extension NormalizedIcon {
    /// A streamed PNG's plan with `--stroke-width`'s lint (a raster is never redrawn).
    func withStrokeWidthLint(_ options: NormalizeOptions) -> NormalizedIcon {
        guard let width = options.strokeWidth else { return self }
        var icon = self
        icon.lints.append(
            Lint(.strokeWidthNotApplied, "--stroke-width \(NumberText.decimal(width)): a raster's strokes cannot be redrawn"))
        return icon
    }
}

extension Normalizer {
    /// A vector's stroke weight from its drawing (SPEC §3a: each stroke's width × every transform
    /// and the fit, the median by length), exact where the rendition's ink can only estimate it:
    /// nil for a raster, a drawing without strokes or one the converter cannot read. With
    /// `--stroke-width` the drawing was redrawn to weigh that.
    package func drawnStrokeWeight(_ data: Data, icon: NormalizedIcon) throws(TabIconsError) -> Double? {
        guard let vector = icon.vector,
            let weight = try VectorConversion.strokeWeight(
                data, document: vector.document, placement: vector.placement, limits: options.limits)
        else { return nil }
        return ((options.strokeWidth ?? weight) * 100).rounded() / 100
    }
}
