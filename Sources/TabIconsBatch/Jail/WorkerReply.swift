import TabIcons
import Foundation

/// A worker's answer to one `WorkerRequest`, in `WorkerWire`'s framing: what it made of the input
/// (`RenderedIcon`: figures, encoded renditions, the vector), or the error the library threw.
///
/// The batch trusts none of it: every length is checked, every name must be one the batch knows,
/// renditions only at the request's scales, each once and in order, a vector only where one was
/// asked for. Names, paths, sizes and hashes of the files are the batch's own, never the worker's.
enum WorkerReply: Sendable {
    case rendered(RenderedIcon)
    case failed(TabIconsError)

    static let renderedKind: UInt8 = 1
    static let failedKind: UInt8 = 2

    var encoded: [UInt8] {
        var writer = WorkerWire.Writer()
        switch self {
        case .rendered(let icon):
            let figures = icon.figures
            writer.string(figures.format.rawValue)
            for value in [figures.pixelWidth, figures.pixelHeight, figures.orientation.rawValue] { writer.int(value) }
            for flag in [figures.hasAlpha, figures.animated, figures.vector] { writer.bool(flag) }
            for value in [figures.decodeScale, figures.pointWidth, figures.pointHeight] { writer.double(value) }
            writer.string(figures.intent.rawValue)
            writer.int(figures.lints.count)
            for lint in figures.lints {
                writer.string(lint.code.rawValue)
                writer.string(lint.message)
            }
            let m = figures.measures
            for value in [m.strokeWeight, m.opticalSize] + m.centre + m.boundsCentre + [m.coverage] { writer.double(value) }
            writer.int(icon.renditions.count)
            for rendition in icon.renditions {
                writer.double(rendition.scale)
                writer.int(rendition.pixelWidth)
                writer.int(rendition.pixelHeight)
                writer.data(rendition.bytes)
            }
            writer.bool(icon.vector != nil)
            if let vector = icon.vector { writer.data(vector) }
            return WorkerWire.frame(kind: Self.renderedKind, fields: writer.bytes)
        case .failed(let error):
            writer.string(error.code.rawValue)
            writer.string(error.message)
            writer.optionalString(error.format?.rawValue)
            return WorkerWire.frame(kind: Self.failedKind, fields: writer.bytes)
        }
    }

    /// The reply to `request` from its bytes, checked against the request.
    init(kind: UInt8, fields: [UInt8], answering request: WorkerRequest) throws(WorkerWire.Malformed) {
        var reader = WorkerWire.Reader(fields)
        switch kind {
        case Self.renderedKind:
            let figures = try Self.figures(&reader)
            var renditions: [RenderedIcon.Rendition] = []
            var scales = request.options.scales[...]
            for _ in 0..<(try reader.count(minimumSize: 28)) {
                let scale = try reader.double()
                // The request's scales in their order, each once (a skipped upscale leaves a gap).
                guard case .render = request.work, let position = scales.firstIndex(of: scale) else {
                    throw WorkerWire.Malformed("a rendition at a scale not asked for, or twice")
                }
                scales = scales[(position + 1)...]
                let (width, height) = (try reader.int(), try reader.int())
                guard width > 0, height > 0 else { throw WorkerWire.Malformed("a rendition of no pixels") }
                renditions.append(.init(scale: scale, pixelWidth: width, pixelHeight: height, bytes: Array(try reader.data())))
            }
            let vector = try reader.bool() ? Array(try reader.data()) : nil
            if vector != nil {
                guard case .render(_, vector: _?) = request.work, renditions.isEmpty else {
                    throw WorkerWire.Malformed("a vector where none was asked for")
                }
            }
            try reader.end()
            self = .rendered(RenderedIcon(figures: figures, renditions: renditions, vector: vector))
        case Self.failedKind:
            let code: TabIconsError.Code = try reader.named("error code")
            let message = try reader.string()
            let format: ImageFormat? = try reader.bool() ? try reader.named("format") : nil
            try reader.end()
            self = .failed(TabIconsError(code, message, format: format))
        default:
            throw WorkerWire.Malformed("a reply of kind \(kind)")
        }
    }

    private static func figures(_ reader: inout WorkerWire.Reader) throws(WorkerWire.Malformed) -> RenderedIcon.Figures {
        let format: ImageFormat = try reader.named("format")
        let (width, height) = (try reader.int(), try reader.int())
        guard let orientation = Orientation(rawValue: try reader.int()) else {
            throw WorkerWire.Malformed("an unknown orientation")
        }
        let (hasAlpha, animated, vector) = (try reader.bool(), try reader.bool(), try reader.bool())
        let (decodeScale, pointWidth, pointHeight) = (try reader.double(), try reader.double(), try reader.double())
        guard width >= 0, height >= 0, [decodeScale, pointWidth, pointHeight].allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw WorkerWire.Malformed("a negative or infinite size")
        }
        let intent: IconIntent = try reader.named("intent")
        var lints: [Lint] = []
        for _ in 0..<(try reader.count(minimumSize: 8)) { lints.append(Lint(try reader.named("lint"), try reader.string())) }
        var numbers: [Double] = []
        for _ in 0..<7 { numbers.append(try reader.double()) }
        guard numbers.allSatisfy({ $0.isFinite && abs($0) <= 1e6 }), numbers[0] >= 0, numbers[1] >= 0, numbers[6] >= 0 else {
            throw WorkerWire.Malformed("measures that are negative or infinite")
        }
        let measures = IconMeasures(
            strokeWeight: numbers[0], opticalSize: numbers[1], centre: [numbers[2], numbers[3]],
            boundsCentre: [numbers[4], numbers[5]], coverage: numbers[6])
        return RenderedIcon.Figures(
            format: format, pixelWidth: width, pixelHeight: height, orientation: orientation, hasAlpha: hasAlpha,
            animated: animated, vector: vector, decodeScale: decodeScale, pointWidth: pointWidth,
            pointHeight: pointHeight, intent: intent, lints: lints, measures: measures)
    }
}
