import TabIcons
import Foundation

/// What the batch asks a worker to make of one input (`RenderedIcon.make`), with everything the
/// worker needs: the options, the work, and the input's bytes as the body. Nothing names the
/// input or its outputs: the batch names and places what comes back (`RenderedIcon.row`).
struct WorkerRequest: Sendable {
    let options: NormalizeOptions
    let work: RenderedIcon.Work
    let data: Data

    static let kind: UInt8 = 1

    /// The header and fields; `data` follows them as the body.
    var head: [UInt8] {
        var writer = WorkerWire.Writer()
        Self.write(options, into: &writer)
        switch work {
        case .plan(let symbols):
            writer.int(0)
            writer.bool(symbols != nil)
            writer.weights(symbols ?? SymbolWeights(ultralight: 0, black: 0))
        case .render(let format, let vector):
            writer.int(1)
            switch format {
            case .png: writer.int(0)
            case .webp(let quality):
                writer.int(1)
                writer.bool(quality != nil)
                writer.double(Double(quality ?? 0))
            }
            switch vector {
            case nil: writer.int(0)
            case .svg: writer.int(1)
            case .vectorDrawable: writer.int(2)
            case .symbol(let weights):
                writer.int(3)
                writer.weights(weights)
            }
        }
        return WorkerWire.frame(kind: Self.kind, fields: writer.bytes, bodyLength: data.count)
    }
}

extension WorkerRequest {
    init(kind: UInt8, fields: [UInt8], body data: Data) throws(WorkerWire.Malformed) {
        guard kind == Self.kind else { throw WorkerWire.Malformed("an unknown request kind \(kind)") }
        var reader = WorkerWire.Reader(fields)
        options = try Self.readOptions(&reader)
        switch try reader.int() {
        case 0:
            let asked = try reader.bool()
            let weights = try reader.weights()
            work = .plan(symbols: asked ? weights : nil)
        case 1:
            let format: OutputFormat
            switch try reader.int() {
            case 0: format = .png
            case 1:
                let hasQuality = try reader.bool()
                let quality = Float(try reader.double())
                format = .webp(quality: hasQuality ? quality : nil)
            default: throw WorkerWire.Malformed("an unknown output format")
            }
            let vector: VectorConversion.Target?
            switch try reader.int() {
            case 0: vector = nil
            case 1: vector = .svg
            case 2: vector = .vectorDrawable
            case 3: vector = .symbol(try reader.weights())
            default: throw WorkerWire.Malformed("an unknown vector target")
            }
            work = .render(format, vector: vector)
        default: throw WorkerWire.Malformed("an unknown work")
        }
        try reader.end()
        self.data = data
    }

    private static func write(_ options: NormalizeOptions, into writer: inout WorkerWire.Writer) {
        writer.double(options.box.points)
        writer.int(options.scales.count)
        for scale in options.scales { writer.double(scale) }
        for name in [options.shape.rawValue, options.render.rawValue, options.filter.rawValue] { writer.string(name) }
        for flag in [options.trim, options.allowUpscale, options.padding.isPercent] { writer.bool(flag) }
        writer.double(options.padding.value)
        writer.bool(options.strokeWidth != nil)
        writer.double(options.strokeWidth ?? 0)
        switch options.opticalFit {
        case nil: writer.int(0)
        case .size(let size)?:
            writer.int(1)
            writer.double(size)
        case .set?: writer.int(2)
        }
        writer.bool(options.opticalCentre != nil)
        writer.double(options.opticalCentre ?? 0)
        let limits = options.limits
        for value in [limits.maxPixels, limits.maxSide, limits.maxInputBytes, limits.maxSVGBytes, limits.maxSVGElements] {
            writer.int(value)
        }
    }

    private static func readOptions(_ reader: inout WorkerWire.Reader) throws(WorkerWire.Malformed) -> NormalizeOptions {
        guard let box = IconBox(points: try reader.double()) else { throw WorkerWire.Malformed("a box that is not one") }
        var scales: [Double] = []
        for _ in 0..<(try reader.count(minimumSize: 8)) { scales.append(try reader.double()) }
        let shape: NormalizeOptions.Shape = try reader.named("shape")
        let render: NormalizeOptions.Render = try reader.named("render")
        let filter: NormalizeOptions.Filter = try reader.named("filter")
        let (trim, allowUpscale, isPercent) = (try reader.bool(), try reader.bool(), try reader.bool())
        let paddingValue = try reader.double()
        let padding = isPercent ? IconPadding(percent: paddingValue) : IconPadding(points: paddingValue)
        let (hasStrokeWidth, strokeWidth) = (try reader.bool(), try reader.double())
        let opticalFit: NormalizeOptions.OpticalFit? =
            switch try reader.int() {
            case 0: nil
            case 1: .size(try reader.double())
            case 2: .set
            default: throw WorkerWire.Malformed("an unknown fit")
            }
        let (hasCentre, centre) = (try reader.bool(), try reader.double())
        let limits = DecodeOptions.Limits(
            maxPixels: try reader.int(), maxSide: try reader.int(), maxInputBytes: try reader.int(),
            maxSVGBytes: try reader.int(), maxSVGElements: try reader.int())
        return NormalizeOptions(
            box: box, scales: scales, shape: shape, trim: trim, render: render, filter: filter,
            allowUpscale: allowUpscale, limits: limits, padding: padding, strokeWidth: hasStrokeWidth ? strokeWidth : nil,
            opticalFit: opticalFit,
            opticalCentre: hasCentre ? centre : nil)
    }
}

/// A symbol's weights, as the plan and the render both send them.
extension WorkerWire.Writer {
    fileprivate mutating func weights(_ weights: SymbolWeights) {
        double(weights.ultralight)
        double(weights.black)
    }
}

extension WorkerWire.Reader {
    fileprivate mutating func weights() throws(WorkerWire.Malformed) -> SymbolWeights {
        SymbolWeights(ultralight: try double(), black: try double())
    }
}
