/// `Resampler` fed one source row at a time, for several output widths at once: what lets a
/// decoder hand its rows straight to the horizontal pass, so the source is never held whole.
///
/// Each row is premultiplied once and filtered into one intermediate per distinct output width
/// (`width × sourceHeight` pixels: for a 9990-row source and 25/50/75 px renditions, 24 MB instead
/// of the 400 MB RGBA); the vertical pass then runs on each intermediate as `Resampler` does. The
/// row and vertical kernels are `Resampler`'s own (`horizontalRow`, `verticalStage`), so the
/// result is byte for byte what resampling the whole decoded bitmap gives.
struct StreamedResampler {
    typealias Pixel = Resampler.Pixel

    /// One output width's horizontal pass: its weights (nil when the width does not change) and
    /// every source row filtered so far.
    private struct Lane {
        let width: Int
        let weights: ResampleWeights?
        var intermediate: [Pixel]
    }

    let filter: NormalizeOptions.Filter
    let sourceWidth: Int
    let sourceHeight: Int
    private var lanes: [Lane]
    private var premultiplied: [Pixel]
    /// Source rows pushed so far.
    private(set) var rows = 0

    /// Ready for `sourceHeight` rows of `sourceWidth` pixels, to be resampled to each of `widths`
    /// (duplicates are filtered once).
    init(filter: NormalizeOptions.Filter, sourceWidth: Int, sourceHeight: Int, widths: [Int]) {
        precondition(sourceWidth > 0 && sourceHeight > 0 && widths.allSatisfy { $0 > 0 },
                     "StreamedResampler needs positive sizes")
        self.filter = filter
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        var seen = Set<Int>()
        lanes = widths.filter { seen.insert($0).inserted }.map { width in
            Lane(width: width,
                 weights: width == sourceWidth ? nil : ResampleWeights.shared(inSize: sourceWidth, outSize: width, filter: filter),
                 intermediate: [Pixel](repeating: .zero, count: width * sourceHeight))
        }
        premultiplied = [Pixel](repeating: .zero, count: Resampler.paddedRowLength(sourceWidth))
    }

    /// The bytes the resampler holds: what a memory estimate of a streamed decode must charge.
    static func heldBytes(sourceWidth: Int, sourceHeight: Int, widths: [Int]) -> Int {
        let stride = MemoryLayout<Pixel>.stride
        return Set(widths).reduce(Resampler.paddedRowLength(sourceWidth) * stride) { $0 + $1 * sourceHeight * stride }
    }

    /// The next source row: `sourceWidth` straight-alpha RGBA pixels.
    mutating func push(_ row: UnsafePointer<UInt8>) {
        precondition(rows < sourceHeight, "StreamedResampler: more rows than the source has")
        let y = rows
        let width = sourceWidth
        premultiplied.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            Premultiplication.premultiply(row, count: width, into: base)
            for index in lanes.indices {
                let laneWidth = lanes[index].width
                let weights = lanes[index].weights
                lanes[index].intermediate.withUnsafeMutableBufferPointer { inter in
                    guard let out = inter.baseAddress.map({ $0 + y * laneWidth }) else { return }
                    if let weights {
                        Resampler.horizontalRow(UnsafePointer(base), weights: weights, into: out)
                    } else {
                        out.update(from: base, count: width)
                    }
                }
            }
        }
        rows += 1
    }

    /// The finished image at `width × height` (`width` one of those given at init), once every
    /// source row has been pushed.
    func resampled(width: Int, height: Int) -> Bitmap {
        precondition(rows == sourceHeight, "StreamedResampler: \(rows) of \(sourceHeight) rows pushed")
        guard let lane = lanes.first(where: { $0.width == width }) else {
            preconditionFailure("StreamedResampler: no lane for width \(width)")
        }
        var accumulators = [Pixel](repeating: .zero, count: width)
        return lane.intermediate.withUnsafeBufferPointer { inter in
            accumulators.withUnsafeMutableBufferPointer { acc in
                Resampler.verticalStage(inter, width: width, sourceHeight: sourceHeight, height: height,
                                        filter: filter, accumulators: acc)
            }
        }
    }
}
