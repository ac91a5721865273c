import TabIcons
import Foundation

/// What one input becomes before anything touches the disk: its manifest row and its files'
/// bytes (`IconFiles`). The same value comes from `render` in process and from a jailed worker
/// (which runs `render` itself), so the batch, the preview and the bytes on disk cannot tell
/// which made it.
struct RenderedIcon: Sendable {
    let row: Manifest.Icon
    /// The renditions' files in `row.renditions`' order, then the image set's `Contents.json`.
    let files: [IconFiles.File]

    /// The body of the batch for one input: normalize, encode, name, the manifest row.
    static func render(_ data: Data, input: String, plan: OutputPlan.Icon, normalizer: Normalizer,
                       format: OutputFormat, contentHash: ContentHash) throws(TabIconsError) -> RenderedIcon {
        var icon = try normalizer.normalize(data)
        var vector: [UInt8]?
        if let target = plan.vectorTarget, let converted = try normalizer.vectorFile(data, icon: icon, target: target) {
            switch converted {
            case .success(let bytes): vector = bytes
            case .failure(let unsupported):
                icon.lints.append(Lint(.vectorFallback, "kept as PNG renditions: the \(target == .vectorDrawable ? "VectorDrawable" : "SVG") cannot hold \(unsupported.feature)"))
            }
        }
        let files = try IconFiles(icon, plan: plan, format: format, vector: vector)
        return RenderedIcon(row: files.manifestIcon(input: input, plan: plan, icon: icon, contentHash: contentHash),
                            files: files.files)
    }

    /// `inspect`'s body for one input: the row without renditions (`IconInspector`).
    static func inspect(_ data: Data, input: String, name: String, box: IconBox,
                        limits: DecodeOptions.Limits) throws(TabIconsError) -> Manifest.Icon {
        let report = try IconInspector(box: box, limits: limits).inspect(data)
        return Manifest.Icon(input: input, name: name, icon: report.planned, contentHash: report.contentHash, renditions: nil)
    }
}
