import TabIconsCore
import TabIconsCodecs
/// `Resampler` fed one source row at a time, for several output sizes at once: what lets a
/// decoder hand its rows straight to the resampler, so the source is never held whole, and
/// neither is its horizontally filtered copy.
///
/// Each row is premultiplied once and filtered horizontally into each size's window: the last
/// rows the vertical pass still needs (`windowRows`: the widest span from an output row's first
/// tap to the row that completes it). As soon as an output row's taps are all in, it is filtered
/// vertically and unpremultiplied into the result, so what is held follows the output sizes and
/// the kernel's reach, not the source. A window keeps every row twice (at `y % rows` and
/// `y % rows + rows`), so any span of consecutive rows lies contiguous in memory, which the
/// column kernel needs; when that would hold as much as the whole intermediate, the whole
/// intermediate is kept instead. The row and column kernels are `Resampler`'s own
/// (`horizontalRow`, `verticalRow`, `unpremultiplyRows`), so the result is byte for byte what
/// resampling the whole decoded bitmap gives.
struct StreamedResampler {
    typealias Pixel = Resampler.Pixel

    /// One output size: its weights (nil for an axis that does not change), its window of
    /// horizontally filtered rows, and its finished rows.
    private struct Lane {
        let width: Int
        let height: Int
        let horizontal: ResampleWeights?
        let vertical: ResampleWeights?
        /// Rows of the window; `isRing` when they are kept twice over a ring of `rows`.
        let rows: Int
        let isRing: Bool
        var window: [Pixel]
        var output: [UInt8]
        /// The next output row to finish.
        var next = 0
    }

    let filter: NormalizeOptions.Filter
    let sourceWidth: Int
    let sourceHeight: Int
    private var lanes: [Lane]
    private var premultiplied: [Pixel]
    private var accumulators: [Pixel]
    /// Source rows pushed so far.
    private(set) var rows = 0

    /// Ready for `sourceHeight` rows of `sourceWidth` pixels, to be resampled to each of `sizes`
    /// (duplicates are resampled once).
    init(filter: NormalizeOptions.Filter, sourceWidth: Int, sourceHeight: Int, sizes: [(width: Int, height: Int)]) {
        precondition(
            sourceWidth > 0 && sourceHeight > 0 && sizes.allSatisfy { $0.width > 0 && $0.height > 0 },
            "StreamedResampler needs positive sizes")
        self.filter = filter
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        lanes = Self.distinct(sizes).map { size in
            let layout = Self.layout(sourceWidth: sourceWidth, sourceHeight: sourceHeight, size: size, filter: filter)
            return Lane(
                width: size.width, height: size.height,
                horizontal: size.width == sourceWidth
                    ? nil
                    : ResampleWeights.shared(inSize: sourceWidth, outSize: size.width, filter: filter),
                vertical: layout.vertical, rows: layout.rows, isRing: layout.isRing,
                window: [Pixel](repeating: .zero, count: layout.windowPixels),
                output: [UInt8](repeating: 0, count: size.width * size.height * 4))
        }
        premultiplied = [Pixel](repeating: .zero, count: Resampler.paddedRowLength(sourceWidth))
        accumulators = [Pixel](repeating: .zero, count: sizes.map(\.width).max() ?? 0)
    }

    private static func distinct(_ sizes: [(width: Int, height: Int)]) -> [(width: Int, height: Int)] {
        var seen = Set<[Int]>()
        return sizes.filter { seen.insert([$0.width, $0.height]).inserted }
    }

    /// How one size's window is kept: its vertical weights, its rows, whether they form a ring,
    /// and the pixels it holds.
    private static func layout(
        sourceWidth: Int, sourceHeight: Int, size: (width: Int, height: Int),
        filter: NormalizeOptions.Filter
    )
        -> (vertical: ResampleWeights?, rows: Int, isRing: Bool, windowPixels: Int)
    {
        guard size.height != sourceHeight else { return (nil, 1, false, size.width) }  // one row, unpremultiplied as it comes
        let vertical = ResampleWeights.shared(inSize: sourceHeight, outSize: size.height, filter: filter)
        // Output row j is finished once the source row before `completes` arrives (the furthest
        // end of any row up to j: rows are finished in order); it needs rows from starts[j].
        var completes = 0, span = 1
        for j in 0..<vertical.outSize {
            completes = max(completes, vertical.starts[j] + max(vertical.counts[j], 1))
            span = max(span, completes - vertical.starts[j])
        }
        if 2 * span >= sourceHeight { return (vertical, sourceHeight, false, size.width * sourceHeight) }
        return (vertical, span, true, 2 * span * size.width)
    }

    /// The bytes a streamed resampling to `sizes` holds (windows, finished rows, the premultiplied
    /// row, accumulators): what a memory estimate of a streamed decode must charge.
    static func heldBytes(
        sourceWidth: Int, sourceHeight: Int, sizes: [(width: Int, height: Int)],
        filter: NormalizeOptions.Filter
    ) -> Int {
        let stride = MemoryLayout<Pixel>.stride
        let lanes = distinct(sizes).reduce(0) { total, size in
            let layout = layout(sourceWidth: sourceWidth, sourceHeight: sourceHeight, size: size, filter: filter)
            return total + layout.windowPixels * stride + size.width * size.height * 4
        }
        return lanes + (Resampler.paddedRowLength(sourceWidth) + (sizes.map(\.width).max() ?? 0)) * stride
    }

    /// The next source row: `sourceWidth` straight-alpha RGBA pixels.
    mutating func push(_ row: UnsafePointer<UInt8>) {
        precondition(rows < sourceHeight, "StreamedResampler: more rows than the source has")
        let y = rows
        let width = sourceWidth
        premultiplied.withUnsafeMutableBufferPointer { premultipliedBuffer in
            accumulators.withUnsafeMutableBufferPointer { accumulatorBuffer in
                guard let source = premultipliedBuffer.baseAddress, let acc = accumulatorBuffer.baseAddress else { return }
                Premultiplication.premultiply(row, count: width, into: source)
                for index in lanes.indices {
                    Self.feed(&lanes[index], row: UnsafePointer(source), y: y, sourceWidth: width, accumulators: acc)
                }
            }
        }
        rows += 1
    }

    /// Source row `y` (premultiplied) into one lane: filtered horizontally into its window, then
    /// every output row it completes finished.
    private static func feed(
        _ lane: inout Lane, row: UnsafePointer<Pixel>, y: Int, sourceWidth: Int,
        accumulators: UnsafeMutablePointer<Pixel>
    ) {
        let width = lane.width, slot = lane.isRing ? y % lane.rows : (lane.vertical == nil ? 0 : y)
        let (horizontal, vertical, isRing, ringRows) = (lane.horizontal, lane.vertical, lane.isRing, lane.rows)
        var next = lane.next
        lane.window.withUnsafeMutableBufferPointer { windowBuffer in
            lane.output.withUnsafeMutableBufferPointer { outputBuffer in
                guard let window = windowBuffer.baseAddress, let output = outputBuffer.baseAddress else { return }
                let filtered = window + slot * width
                if let horizontal {
                    Resampler.horizontalRow(row, weights: horizontal, into: filtered)
                } else {
                    filtered.update(from: row, count: sourceWidth)
                }
                if isRing { (filtered + ringRows * width).update(from: filtered, count: width) }
                guard let vertical else {
                    Resampler.unpremultiplyRows(
                        UnsafeBufferPointer(start: filtered, count: width), pixels: width,
                        into: UnsafeMutableBufferPointer(start: output + y * width * 4, count: width * 4))
                    return
                }
                vertical.coefficients.withUnsafeBufferPointer { coefficients in
                    guard let c0 = coefficients.baseAddress else { return }
                    // Finish, in order, every output row whose taps have all arrived.
                    while next < vertical.outSize, vertical.starts[next] + max(vertical.counts[next], 1) <= y + 1 {
                        let start = vertical.starts[next]
                        let first = window + (isRing ? start % ringRows : start) * width
                        Resampler.verticalRow(
                            UnsafePointer(first), rowLength: width,
                            coefficients: c0 + next * vertical.taps, count: max(vertical.counts[next], 1),
                            accumulators: accumulators, into: output + next * width * 4)
                        next += 1
                    }
                }
            }
        }
        lane.next = next
    }

    /// The finished image at `width × height` (one of the sizes given at init), once every source
    /// row has been pushed.
    func resampled(width: Int, height: Int) -> Bitmap {
        precondition(rows == sourceHeight, "StreamedResampler: \(rows) of \(sourceHeight) rows pushed")
        guard let lane = lanes.first(where: { $0.width == width && $0.height == height }) else {
            preconditionFailure("StreamedResampler: no lane for \(width)×\(height)")
        }
        return Bitmap(width: width, height: height, pixels: lane.output)
    }
}
