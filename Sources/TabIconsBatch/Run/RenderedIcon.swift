import TabIcons
import Foundation

/// What one input becomes in the engine before the batch names or writes anything: the figures
/// the normalizer learned and the encoded renditions (or the vector), from `make` in process or
/// in a jailed worker. The batch alone turns them into the row and the files (`row`).
struct RenderedIcon: Sendable, Equatable {
    enum Work: Sendable, Equatable {
        /// Normalized and encoded; with a vector target, an SVG input becomes that file instead,
        /// unless the target cannot hold its drawing (then PNGs and a `vector-fallback` lint).
        case render(OutputFormat, vector: VectorConversion.Target?)
        /// The normalizer's plan only (`inspect`): decode scale, point size and lints, nothing drawn;
        /// with `symbols` (`inspect --symbols`), the symbol made and dropped, a `symbol-fallback` lint
        /// saying why an input could not become one.
        case plan(symbols: SymbolWeights? = nil)
    }

    /// The row's figures of the source and its placement (`Manifest.Icon`'s keys of the same names).
    struct Figures: Sendable, Equatable {
        var format: ImageFormat
        var pixelWidth: Int
        var pixelHeight: Int
        var orientation: Orientation
        var hasAlpha: Bool
        var animated: Bool
        var vector: Bool
        var decodeScale: Double
        var pointWidth: Double
        var pointHeight: Double
        var intent: IconIntent
        var lints: [Lint]
        /// What the eye sees (SPEC §3a), from the rendition at the run's largest scale.
        var measures: IconMeasures
    }

    /// One encoded rendition, in the order of the run's scales (a skipped upscale has none).
    struct Rendition: Sendable, Equatable {
        let scale: Double
        let pixelWidth: Int
        let pixelHeight: Int
        let bytes: [UInt8]
    }

    var figures: Figures
    var renditions: [Rendition]
    /// The vector file's bytes (`--vector`), in place of renditions.
    var vector: [UInt8]?

    /// The body of the engine for one input's bytes, in process or in a worker.
    static func make(_ data: Data, normalizer: Normalizer, work: Work) throws(TabIconsError) -> RenderedIcon {
        guard case .render(let format, let target) = work else {
            var planned = try normalizer.planned(data)
            let measured = try measures(data, planned, normalizer).drawn(try normalizer.drawnStrokeWeight(data, icon: planned))
            if case .plan(let symbols?) = work {
                switch try normalizer.vectorFile(data, icon: planned, target: .symbol(symbols)) {
                case .failure(let unsupported)?:
                    planned.lints.append(Self.symbolFallback(unsupported))
                case nil:
                    planned.lints.append(Self.rasterSymbolFallback(planned.source.format.rawValue))
                case .success?:
                    break
                }
            }
            return RenderedIcon(figures: Figures(planned, measures: measured), renditions: [])
        }
        // `--vector`: the vector from the plan alone (no rendition drawn), the PNGs only when the
        // format cannot hold the drawing.
        var fallback: Lint?
        if let target {
            let planned = try normalizer.planned(data)
            switch try normalizer.vectorFile(data, icon: planned, target: target) {
            case .success(let bytes)?:
                let measured = try measures(data, planned, normalizer).drawn(
                    try normalizer.drawnStrokeWeight(data, icon: planned))
                return RenderedIcon(figures: Figures(planned, measures: measured), renditions: [], vector: bytes)
            case .failure(let unsupported)?:
                if case .symbol = target {
                    fallback = Self.symbolFallback(unsupported)
                } else {
                    fallback = Lint(
                        .vectorFallback,
                        "kept as PNG renditions: the \(target == .vectorDrawable ? "VectorDrawable" : "SVG") cannot hold \(unsupported.feature)"
                    )
                }
            case nil:
                break
            }
        }
        var icon = try normalizer.normalize(data)
        if let fallback { icon.lints.append(fallback) }
        let renditions = try icon.renditions.map { rendition throws(TabIconsError) in
            Rendition(
                scale: rendition.scale, pixelWidth: rendition.bitmap.width, pixelHeight: rendition.bitmap.height,
                bytes: try format.encode(rendition.bitmap))
        }
        let measured = measures(icon, normalizer.options.box).drawn(try normalizer.drawnStrokeWeight(data, icon: icon))
        return RenderedIcon(figures: Figures(icon, measures: measured), renditions: renditions)
    }

    /// `--symbols`' word on a drawing a symbol cannot hold.
    static func symbolFallback(_ unsupported: VectorUnsupported) -> Lint {
        Lint(.symbolFallback, "kept as an image set: a symbol cannot hold \(unsupported.feature)")
    }

    /// `--symbols`' word on a raster input (`format`: its manifest `format`).
    static func rasterSymbolFallback(_ format: String) -> Lint {
        Lint(.symbolFallback, "kept as an image set: a symbol is drawn from an SVG, not a \(format.uppercased()) image")
    }

    /// The measures of the rendition at the largest scale `icon` has (SPEC §3a).
    static func measures(_ icon: NormalizedIcon, _ box: IconBox) -> IconMeasures {
        guard let largest = icon.renditions.max(by: { $0.scale < $1.scale }) else {
            return IconMeasures.measured(Bitmap(width: 1, height: 1), scale: 1, box: box)
        }
        return IconMeasures.measured(largest.bitmap, scale: largest.scale, box: box)
    }

    /// The same for an icon only planned (`inspect`, a vector written as such): drawn at the
    /// largest scale its plan renders, alone, as it would be among the others.
    static func measures(_ data: Data, _ planned: NormalizedIcon, _ normalizer: Normalizer) throws(TabIconsError)
        -> IconMeasures
    {
        var options = normalizer.options
        guard let largest = options.scales.filter({ !planned.skippedScales.contains($0) }).max() else {
            return measures(planned, options.box)
        }
        options.scales = [largest]
        return measures(try Normalizer(options: options).normalize(data), options.box)
    }

    /// The input's manifest row and the files it writes, at `plan`'s paths, renditions first in
    /// the row's order. `planOnly` (`Work.plan`) makes a row without renditions (`inspect`'s).
    func row(input: String, plan: OutputPlan.Icon, contentHash: ContentHash, planOnly: Bool) -> (Manifest.Icon, [IconFile]) {
        var files: [IconFile] = []
        var entries: [Manifest.RenditionEntry] = []
        for rendition in renditions {
            guard let path = plan.path(forScale: rendition.scale) else { continue }
            files.append((path, rendition.bytes))
            entries.append(
                Manifest.RenditionEntry(
                    scale: rendition.scale, path: path, pixelWidth: rendition.pixelWidth, pixelHeight: rendition.pixelHeight,
                    bytes: rendition.bytes.count, hash: ContentHash(of: rendition.bytes).description))
        }
        let f = figures
        var row = Manifest.Icon(
            input: input, name: OutputLayout.iconName(stem: plan.stem), format: f.format, pixelWidth: f.pixelWidth,
            pixelHeight: f.pixelHeight, orientation: f.orientation, hasAlpha: f.hasAlpha, animated: f.animated,
            vector: f.vector, contentHash: contentHash, decodeScale: f.decodeScale, pointWidth: f.pointWidth,
            pointHeight: f.pointHeight, intent: f.intent, renditions: planOnly ? nil : entries, lints: f.lints)
        row.measures = f.measures
        if let vector, let path = plan.vectorPath {
            if plan.symbolContentsPath != nil {
                row.symbolFile = Manifest.FileEntry(path: path, of: vector)
            } else {
                row.vectorFile = Manifest.FileEntry(path: path, of: vector)
            }
            files.append((path, vector))
        }
        return (row, files)
    }
}

/// One file a unit writes: its path below `--out` and its bytes.
typealias IconFile = (path: String, bytes: [UInt8])

extension RenderedIcon.Figures {
    init(_ icon: NormalizedIcon, measures: IconMeasures) {
        let source = icon.source
        self.init(
            format: source.format, pixelWidth: source.pixelWidth, pixelHeight: source.pixelHeight,
            orientation: source.orientation, hasAlpha: source.hasAlpha, animated: source.isAnimated,
            vector: source.isVector, decodeScale: icon.decodeScale, pointWidth: icon.pointWidth,
            pointHeight: icon.pointHeight, intent: icon.intent, lints: icon.lints, measures: measures)
    }
}
