import TabIcons

/// Every option of a batch that changes output bytes or which files are written, and the tool's
/// version: the manifest's `"options"` (SPEC §6a). An icon is carried over from the previous run
/// only when its content hash and this fingerprint are unchanged, so a new `--filter`, a new
/// layout or a new release of tabicon redoes every icon. `--jobs`, `--quiet` and `--json` change
/// nothing on disk and are not part of it. The decode limits are: a tighter limit may refuse an
/// input the previous run accepted.
public struct OptionFingerprint: Sendable, Equatable {
    package let json: JSONValue

    package init(json: JSONValue) { self.json = json }

    /// `vector` (`--vector`) is recorded only when on, so the fingerprints of runs without it stay
    /// what they were.
    package init(options: NormalizeOptions, layout: OutputLayout, format: OutputFormat, vector: Bool = false) {
        let formatName: String
        var quality: JSONValue = .null
        switch format {
        case .png: formatName = "png"
        case .webp(let q):
            formatName = "webp"
            if let q { quality = .double(Double(q)) }
        }
        json = .object(
            [
                ("tool", .string("tabicon \(TabIconsVersion.current)")),
                ("layout", .string(layout.rawValue)), ("format", .string(formatName)), ("quality", quality),
                ("box", .double(options.box.points)), ("scales", .array(options.scales.map { .double($0) })),
                ("shape", .string(options.shape.rawValue)), ("trim", .bool(options.trim)),
                ("render", .string(options.render.rawValue)), ("filter", .string(options.filter.rawValue)),
                ("allowUpscale", .bool(options.allowUpscale)), ("padding", .string(options.padding.description)),
                ("maxPixels", .int(options.limits.maxPixels)), ("maxSide", .int(options.limits.maxSide)),
                ("maxInputBytes", .int(options.limits.maxInputBytes)),
                ("maxSVGBytes", .int(options.limits.maxSVGBytes)), ("maxSVGElements", .int(options.limits.maxSVGElements))
            ] + (vector ? [("vector", .bool(true))] : []))
    }
}
