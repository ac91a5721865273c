import TabIcons
import Foundation

/// What one input becomes before anything touches the disk: its manifest row and its files'
/// bytes (`IconFiles`). The same value comes from `render` in process and from a jailed worker
/// (which runs `render` itself), so the batch, the preview and the bytes on disk cannot tell
/// which made it.
struct RenderedIcon: Sendable {
    let row: Manifest.Icon
    /// The renditions' files in `row.renditions`' order, or the vector.
    let files: [IconFiles.File]

    /// The body of the batch for one input: normalize, encode, name, the manifest row.
    static func render(
        _ data: Data, input: String, plan: OutputPlan.Icon, normalizer: Normalizer,
        format: OutputFormat, contentHash: ContentHash
    ) throws(TabIconsError) -> RenderedIcon {
        // `--vector`: the vector from the plan alone (no rendition drawn), the PNGs only when the
        // format cannot hold the drawing.
        var fallback: Lint?
        if let target = plan.vectorTarget {
            let planned = try normalizer.planned(data)
            switch try normalizer.vectorFile(data, icon: planned, target: target) {
            case .success(let bytes)?:
                let files = try IconFiles(planned, plan: plan, format: format, vector: bytes)
                return RenderedIcon(
                    row: files.manifestIcon(input: input, plan: plan, icon: planned, contentHash: contentHash),
                    files: files.files)
            case .failure(let unsupported)?:
                fallback = Lint(
                    .vectorFallback,
                    "kept as PNG renditions: the \(target == .vectorDrawable ? "VectorDrawable" : "SVG") cannot hold \(unsupported.feature)"
                )
            case nil:
                break
            }
        }
        var icon = try normalizer.normalize(data)
        if let fallback { icon.lints.append(fallback) }
        let files = try IconFiles(icon, plan: plan, format: format)
        return RenderedIcon(
            row: files.manifestIcon(input: input, plan: plan, icon: icon, contentHash: contentHash),
            files: files.files)
    }

    /// `inspect`'s body for one input: the row without renditions (`IconInspector`).
    static func inspect(
        _ data: Data, input: String, name: String, box: IconBox,
        limits: DecodeOptions.Limits
    ) throws(TabIconsError) -> Manifest.Icon {
        let report = try IconInspector(box: box, limits: limits).inspect(data)
        return Manifest.Icon(input: input, name: name, icon: report.planned, contentHash: report.contentHash, renditions: nil)
    }
}
