import TabIcons
import Foundation

/// What the batch asks a worker to do with one input: `RenderedIcon.render` (normalize and
/// encode, for `normalize` and `preview`) or `RenderedIcon.inspect`, with everything the worker
/// needs, since it shares nothing else with the batch. Encoded in `WorkerWire`'s framing: the
/// input's bytes are the body, everything else the fields.
enum WorkerRequest: Sendable {
    /// `contentHash` is the batch's hash of `data`, which the worker takes instead of hashing a
    /// photo's bytes again (its row's hash is the batch's own in the end: `WorkerReply`).
    case render(
        input: String, plan: OutputPlan.Icon, options: NormalizeOptions, format: OutputFormat, contentHash: ContentHash,
        data: Data)
    case inspect(input: String, name: String, box: IconBox, limits: DecodeOptions.Limits, data: Data)

    static let renderKind: UInt8 = 1
    static let inspectKind: UInt8 = 2

    var data: Data {
        switch self {
        case .render(_, _, _, _, _, let data), .inspect(_, _, _, _, let data): data
        }
    }

    /// The header and fields; `data` follows them as the body.
    var head: [UInt8] {
        var writer = WorkerWire.Writer()
        switch self {
        case .render(let input, let plan, let options, let format, let contentHash, let data):
            writer.string(input)
            writer.string(plan.stem)
            writer.int(plan.renditionPaths.count)
            for (scale, path) in plan.renditionPaths {
                writer.double(scale)
                writer.string(path)
            }
            writer.optionalString(plan.contentsPath)
            writer.optionalString(plan.vectorPath)
            Self.write(options, into: &writer)
            switch format {
            case .png: writer.int(0)
            case .webp(let quality):
                writer.int(1)
                writer.bool(quality != nil)
                writer.double(Double(quality ?? 0))
            }
            writer.int(Int(Int64(bitPattern: contentHash.high)))
            writer.int(Int(Int64(bitPattern: contentHash.low)))
            return WorkerWire.frame(kind: Self.renderKind, fields: writer.bytes, bodyLength: data.count)
        case .inspect(let input, let name, let box, let limits, let data):
            writer.string(input)
            writer.string(name)
            writer.double(box.points)
            Self.write(limits, into: &writer)
            return WorkerWire.frame(kind: Self.inspectKind, fields: writer.bytes, bodyLength: data.count)
        }
    }

    init(kind: UInt8, fields: [UInt8], body data: Data) throws(WorkerWire.Malformed) {
        var reader = WorkerWire.Reader(fields)
        switch kind {
        case Self.renderKind:
            let input = try reader.string()
            let stem = try reader.string()
            var paths: [(scale: Double, path: String)] = []
            for _ in 0..<(try reader.count(minimumSize: 12)) { paths.append((try reader.double(), try reader.string())) }
            let contentsPath = try reader.optionalString()
            let plan = OutputPlan.Icon(
                stem: stem, renditionPaths: paths, contentsPath: contentsPath, vectorPath: try reader.optionalString())
            let options = try Self.readOptions(&reader)
            let format: OutputFormat
            switch try reader.int() {
            case 0: format = .png
            case 1:
                let hasQuality = try reader.bool()
                let quality = Float(try reader.double())
                format = .webp(quality: hasQuality ? quality : nil)
            default: throw WorkerWire.Malformed("an unknown output format")
            }
            let contentHash = ContentHash(
                high: UInt64(bitPattern: Int64(try reader.int())), low: UInt64(bitPattern: Int64(try reader.int())))
            self = .render(input: input, plan: plan, options: options, format: format, contentHash: contentHash, data: data)
        case Self.inspectKind:
            let input = try reader.string()
            let name = try reader.string()
            guard let box = IconBox(points: try reader.double()) else { throw WorkerWire.Malformed("a box that is not one") }
            let limits = try Self.readLimits(&reader)
            self = .inspect(input: input, name: name, box: box, limits: limits, data: data)
        default:
            throw WorkerWire.Malformed("an unknown request kind \(kind)")
        }
        try reader.end()
    }

    private static func write(_ options: NormalizeOptions, into writer: inout WorkerWire.Writer) {
        writer.double(options.box.points)
        writer.int(options.scales.count)
        for scale in options.scales { writer.double(scale) }
        writer.string(options.shape.rawValue)
        writer.bool(options.trim)
        writer.string(options.render.rawValue)
        writer.string(options.filter.rawValue)
        writer.bool(options.allowUpscale)
        writer.double(options.padding.value)
        writer.bool(options.padding.isPercent)
        write(options.limits, into: &writer)
    }

    private static func write(_ limits: DecodeOptions.Limits, into writer: inout WorkerWire.Writer) {
        for value in [limits.maxPixels, limits.maxSide, limits.maxInputBytes, limits.maxSVGBytes, limits.maxSVGElements] {
            writer.int(value)
        }
    }

    private static func readOptions(_ reader: inout WorkerWire.Reader) throws(WorkerWire.Malformed) -> NormalizeOptions {
        guard let box = IconBox(points: try reader.double()) else { throw WorkerWire.Malformed("a box that is not one") }
        var scales: [Double] = []
        for _ in 0..<(try reader.count(minimumSize: 8)) { scales.append(try reader.double()) }
        guard let shape = NormalizeOptions.Shape(rawValue: try reader.string()) else {
            throw WorkerWire.Malformed("an unknown shape")
        }
        let trim = try reader.bool()
        guard let render = NormalizeOptions.Render(rawValue: try reader.string()) else {
            throw WorkerWire.Malformed("an unknown render")
        }
        guard let filter = NormalizeOptions.Filter(rawValue: try reader.string()) else {
            throw WorkerWire.Malformed("an unknown filter")
        }
        let allowUpscale = try reader.bool()
        let paddingValue = try reader.double()
        let padding = try reader.bool() ? IconPadding(percent: paddingValue) : IconPadding(points: paddingValue)
        return NormalizeOptions(
            box: box, scales: scales, shape: shape, trim: trim, render: render, filter: filter,
            allowUpscale: allowUpscale, limits: try readLimits(&reader), padding: padding)
    }

    private static func readLimits(_ reader: inout WorkerWire.Reader) throws(WorkerWire.Malformed) -> DecodeOptions.Limits {
        DecodeOptions.Limits(
            maxPixels: try reader.int(), maxSide: try reader.int(), maxInputBytes: try reader.int(),
            maxSVGBytes: try reader.int(), maxSVGElements: try reader.int())
    }
}
