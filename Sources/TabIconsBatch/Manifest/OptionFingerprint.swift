import TabIcons

/// Every option of a batch that changes output bytes or which files are written, and the tool's
/// version: the manifest's `"options"` (SPEC §6a). An icon is carried over only when its content
/// hash and this fingerprint are unchanged. `--jobs`, `--quiet` and `--json` change nothing on
/// disk and are not part of it; the decode limits are (a tighter one may refuse an input).
public struct OptionFingerprint: Sendable, Equatable, Codable {
    /// The options, keys in the order the manifest writes them; nil for a fingerprint read back
    /// that is not this version's (another tool's keys), which equals no fingerprint.
    private let fields: Fields?

    private struct Fields: Sendable, Equatable, Codable {
        var tool: String
        var layout: String
        var format: String
        var quality: Double?
        var box: Double
        var scales: [Double]
        var shape: String
        var trim: Bool
        var render: String
        var filter: String
        var allowUpscale: Bool
        var padding: String
        var maxPixels: Int
        var maxSide: Int
        var maxInputBytes: Int
        var maxSVGBytes: Int
        var maxSVGElements: Int
        /// Recorded only when on, so the fingerprints of runs without `--vector` stay what they were.
        var vector: Bool?
        /// `--stroke-width`, recorded only when given (as `vector`).
        var strokeWidth: Double?
        /// `--fit`, only when not `box`: `optical` (the set's), or the optical size an icon was fitted to.
        var fit: String?
        /// `--centre optical`, only then: the off-centre threshold it moves glyphs past.
        var centre: Double?
        /// `--symbols`, only then: the template's version and the weights' factors.
        var symbols: Symbols?

        enum CodingKeys: String, CodingKey {
            case tool, layout, format, quality, box, scales, shape, trim, render, filter, allowUpscale, padding
            case maxPixels, maxSide, maxInputBytes, maxSVGBytes, maxSVGElements, vector, strokeWidth, fit, centre, symbols
        }
    }

    package init(
        options: NormalizeOptions, layout: OutputLayout, format: OutputFormat, vector: Bool = false,
        symbols: SymbolWeights? = nil
    ) {
        let quality: Double? = if case .webp(let quality) = format { quality.map(Double.init) } else { nil }
        // The format's name is its file extension (`OutputFormat.fileExtension`).
        fields = Fields(
            tool: TabIconsVersion.tool, layout: layout.rawValue, format: format.fileExtension, quality: quality,
            box: options.box.points,
            scales: options.scales, shape: options.shape.rawValue, trim: options.trim, render: options.render.rawValue,
            filter: options.filter.rawValue, allowUpscale: options.allowUpscale, padding: options.padding.description,
            maxPixels: options.limits.maxPixels, maxSide: options.limits.maxSide,
            maxInputBytes: options.limits.maxInputBytes, maxSVGBytes: options.limits.maxSVGBytes,
            maxSVGElements: options.limits.maxSVGElements, vector: vector ? true : nil,
            strokeWidth: options.strokeWidth.map(NumberText.rounded),
            fit: options.opticalFit.map {
                switch $0 {
                case .set: "optical"
                case .size(let size): NumberText.decimal(size)
                }
            }, centre: options.opticalCentre.map(NumberText.rounded),
            symbols: symbols.map {
                Symbols(
                    template: SymbolTemplate.version, ultralight: NumberText.rounded($0.ultralight),
                    black: NumberText.rounded($0.black))
            })
    }

    public init(from decoder: any Decoder) throws {
        fields = try? Fields(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws { try fields?.encode(to: encoder) }

    public static func == (a: Self, b: Self) -> Bool { a.fields != nil && a.fields == b.fields }

    /// What an assembly of rendered icons needs to place them as the run did (`FragmentAssembly`).
    package var layout: OutputLayout? { fields.flatMap { OutputLayout(rawValue: $0.layout) } }
    package var fileExtension: String? { fields?.format }
    package var vector: Bool { fields?.vector == true }

    /// The object the manifest writes: every key, `quality` null when the format has none.
    package var jsonValue: JSONValue {
        guard let f = fields else { return .null }
        return .object(
            keys: [
                (Fields.CodingKeys.tool, .string(f.tool)), (.layout, .string(f.layout)), (.format, .string(f.format)),
                (.quality, f.quality.map(JSONValue.double) ?? .null), (.box, .double(f.box)),
                (.scales, .array(f.scales.map(JSONValue.double))), (.shape, .string(f.shape)), (.trim, .bool(f.trim)),
                (.render, .string(f.render)), (.filter, .string(f.filter)), (.allowUpscale, .bool(f.allowUpscale)),
                (.padding, .string(f.padding)), (.maxPixels, .int(f.maxPixels)), (.maxSide, .int(f.maxSide)),
                (.maxInputBytes, .int(f.maxInputBytes)), (.maxSVGBytes, .int(f.maxSVGBytes)),
                (.maxSVGElements, .int(f.maxSVGElements))
            ] + (f.vector == true ? [(.vector, .bool(true))] : [])
                + (f.strokeWidth.map { [(.strokeWidth, .double($0))] } ?? []) + (f.fit.map { [(.fit, .string($0))] } ?? [])
                + (f.centre.map { [(.centre, .double($0))] } ?? [])
                + (f.symbols.map {
                    [
                        (
                            .symbols,
                            .object([
                                ("template", .string($0.template)), ("ultralight", .double($0.ultralight)),
                                ("black", .double($0.black))
                            ])
                        )
                    ]
                } ?? []))
    }

    /// `--symbols`' weights as the fingerprint records them (nil without `--symbols`).
    package var symbols: SymbolWeights? {
        fields?.symbols.map { SymbolWeights(ultralight: $0.ultralight, black: $0.black) }
    }

    /// What `--symbols` records: `{"template": "3.0", "ultralight": 0.4, "black": 1.8}`.
    private struct Symbols: Sendable, Equatable, Codable {
        var template: String
        var ultralight: Double
        var black: Double
    }

}
