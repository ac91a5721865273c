import TabIconsCore
import TabIconsCodecs

extension NormalizedIcon {
    /// The one finishing step of every route (`NormalizationRoute`: raster, streamed PNG, vector)
    /// and of `planned`: each rendered entry's glyph (`glyph(entry)`; nil when only planning)
    /// placed on its shape and canvas (`ShapeRenderer.placed`), the scales skipped as upscales,
    /// the lints judged on `facts` (the glyph as laid out, before resampling), and the intent,
    /// whose ink survey (`survey`) is made only for `auto`. The routes differ only in where a glyph
    /// comes from: resampled from the decoded pixels, from streamed rows, or drawn from the document.
    static func finished(
        plan: RenditionPlan, info: ImageInfo, facts: GlyphFacts, options: NormalizeOptions,
        survey: () -> InkSurvey,
        glyph: ((RenditionPlan.Entry) throws(TabIconsError) -> Bitmap)?
    ) throws(TabIconsError) -> NormalizedIcon {
        var renditions: [Rendition] = []
        if let glyph {
            for entry in plan.rendered(allowUpscale: options.allowUpscale) {
                let placed = ShapeRenderer.placed(try glyph(entry), shape: options.shape, entry: entry)
                renditions.append(Rendition(scale: entry.scale, bitmap: placed))
            }
        }
        let skipped = plan.skippedScales(allowUpscale: options.allowUpscale)
        return NormalizedIcon(
            source: info, decodeScale: plan.decodeScale,
            pointWidth: plan.pointWidth, pointHeight: plan.pointHeight,
            renditions: renditions, skippedScales: skipped,
            lints: Lints.evaluate(glyph: facts, plan: plan, skippedScales: skipped, info: info, options: options),
            intent: IconIntent.decided(render: options.render, survey: survey))
    }
}
