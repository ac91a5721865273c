import TabIconsCore
import TabIconsCodecs
internal import CResampleKernels

/// Separable two-pass resampling of a premultiplied image: horizontal first (every source row to the
/// output width), then vertical (to the output height), in integer arithmetic throughout.
///
/// Why this shape: the weights are precomputed per axis (`ResampleWeights`), the inner loops are
/// plain multiply-adds over contiguous buffers with no allocation, and the scratch buffers live in
/// the resampler so rendering 1×, 2× and 3× from one source allocates them once. Integer maths
/// makes the result the same on every run and thread count.
///
/// Precision: each source row is premultiplied exactly (`Premultiplication`, 0…65025 scale) as the
/// horizontal pass reaches it, so no premultiplied copy of a large source is held; the horizontal
/// pass keeps its results on that scale in `Int32` without clamping (a negative lobe's undershoot
/// survives to the vertical pass, as in a floating-point filter); only the final unpremultiply
/// rounds to 8 bits. An axis whose size does not change is not filtered at all (a blurring kernel
/// such as Mitchell would otherwise soften it for nothing).
struct Resampler {
    /// One pixel's four premultiplied samples; the unit every pass works in.
    typealias Pixel = SIMD4<Int32>

    let filter: NormalizeOptions.Filter
    /// One source row, premultiplied (`source.width` pixels).
    private var sourceRow: [Pixel] = []
    /// The horizontal pass's output: `width × source.height` pixels on the 0…65025 scale.
    private var intermediate: [Pixel] = []
    /// One output row of vertical-pass accumulators (`width` pixels).
    private var accumulators: [Pixel] = []

    init(filter: NormalizeOptions.Filter) {
        self.filter = filter
    }

    /// Sizes the scratch buffers for outputs up to `width` wide from a `sourceWidth × sourceHeight`
    /// source, so a series of renditions allocates them once whatever their order.
    mutating func reserve(sourceWidth: Int, sourceHeight: Int, width: Int) {
        if sourceRow.count < Self.paddedRowLength(sourceWidth) {
            sourceRow = [Pixel](repeating: .zero, count: Self.paddedRowLength(sourceWidth))
        }
        if intermediate.count < width * sourceHeight {
            intermediate = [Pixel](repeating: .zero, count: width * sourceHeight)
        }
        if accumulators.count < width { accumulators = [Pixel](repeating: .zero, count: width) }
    }

    /// `source` (straight alpha) resampled to `width × height`, as straight-alpha RGBA.
    mutating func resample(_ source: Bitmap, width: Int, height: Int) -> Bitmap {
        precondition(width > 0 && height > 0, "Resampler needs a positive output size")
        reserve(sourceWidth: source.width, sourceHeight: source.height, width: width)
        // Work on local arrays so the passes can hold pointers into all of them at once.
        var row = sourceRow, inter = intermediate, acc = accumulators
        (sourceRow, intermediate, accumulators) = ([], [], [])  // keep them uniquely referenced
        defer { (sourceRow, intermediate, accumulators) = (row, inter, acc) }

        let horizontal =
            width == source.width
            ? nil : ResampleWeights.shared(inSize: source.width, outSize: width, filter: filter)
        source.pixels.withUnsafeBufferPointer { src in
            row.withUnsafeMutableBufferPointer { rowBuffer in
                inter.withUnsafeMutableBufferPointer { interBuffer in
                    Self.horizontalPass(
                        src, sourceWidth: source.width, rows: source.height, weights: horizontal,
                        outWidth: width, row: rowBuffer, into: interBuffer)
                }
            }
        }
        return inter.withUnsafeBufferPointer { interBuffer in
            acc.withUnsafeMutableBufferPointer { accBuffer in
                Self.verticalStage(
                    interBuffer, width: width, sourceHeight: source.height, height: height,
                    filter: filter, accumulators: accBuffer)
            }
        }
    }

    /// The second half of a resampling: `sourceHeight` rows of `width` horizontally filtered
    /// pixels (`intermediate`) filtered to `height` rows, or only unpremultiplied when the height
    /// does not change. Shared by whole-image and streamed resampling (`StreamedResampler`), so
    /// both give the same bytes.
    static func verticalStage(
        _ intermediate: UnsafeBufferPointer<Pixel>, width: Int, sourceHeight: Int, height: Int,
        filter: NormalizeOptions.Filter,
        accumulators: UnsafeMutableBufferPointer<Pixel>
    ) -> Bitmap {
        let count = width * height * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            if height == sourceHeight {
                Self.unpremultiplyRows(intermediate, pixels: width * height, into: out)
            } else {
                let weights = ResampleWeights.shared(inSize: sourceHeight, outSize: height, filter: filter)
                Self.verticalPass(
                    intermediate, rowLength: width, weights: weights,
                    accumulators: accumulators, into: out)
            }
            initialized = count
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// Rounds fixed-point sums back to the sample scale; halves round up (towards +∞).
    ///
    /// `Int32` lanes are enough, and the results are those of wider arithmetic: a sample is at
    /// most 65025 and a tap row's positive weights sum to at most 1.29 (Lanczos-3; the other
    /// filters less), so a horizontal sum stays under 1.4 × 10⁹ and a vertical one, whose
    /// inputs ring at most 29 % past the scale, under 1.9 × 10⁹ — both below 2³¹.
    @inline(__always)
    private static func descale(_ sum: Pixel) -> Pixel {
        (sum &+ Pixel(repeating: 1 << (ResampleWeights.precisionBits - 1)))
            &>> Pixel(repeating: Int32(ResampleWeights.precisionBits))
    }

    /// Every source row premultiplied into `row`, then filtered to `outWidth` pixels (or copied
    /// when `weights` is nil: the width does not change).
    private static func horizontalPass(
        _ src: UnsafeBufferPointer<UInt8>, sourceWidth: Int, rows: Int,
        weights: ResampleWeights?, outWidth: Int,
        row: UnsafeMutableBufferPointer<Pixel>,
        into dst: UnsafeMutableBufferPointer<Pixel>
    ) {
        guard let srcBase = src.baseAddress, let rowBase = row.baseAddress, let dstBase = dst.baseAddress else { return }
        guard let weights else {
            for y in 0..<rows {
                Premultiplication.premultiply(srcBase + y * sourceWidth * 4, count: sourceWidth, into: dstBase + y * outWidth)
            }
            return
        }
        for y in 0..<rows {
            Premultiplication.premultiply(srcBase + y * sourceWidth * 4, count: sourceWidth, into: rowBase)
            horizontalRow(UnsafePointer(rowBase), weights: weights, into: dstBase + y * outWidth)
        }
    }

    /// The length of a premultiplied source row buffer for `horizontalRow`: the row, then as many
    /// zero pixels again, which a tap row can reach past the end (at most `taps` ≤ width of them).
    static func paddedRowLength(_ sourceWidth: Int) -> Int { 2 * sourceWidth }

    /// One premultiplied row filtered to `weights.outSize` pixels: the horizontal pass's unit,
    /// which streamed resampling calls row by row as a decoder delivers them. `row` holds
    /// `paddedRowLength(weights.inSize)` pixels, the padding zero.
    ///
    /// Every output runs the full `taps` (its tap row is zero-padded), so the loop has one trip
    /// count for the whole row; the loop itself is `CResampleKernels`' (AVX2 where the CPU has it).
    /// The sums are exact integer sums in any order, so the bytes are those of a plain one-tap
    /// loop; a padded tap adds a zero weight times a padding pixel.
    static func horizontalRow(
        _ row: UnsafePointer<Pixel>, weights: ResampleWeights,
        into out: UnsafeMutablePointer<Pixel>
    ) {
        weights.coefficients.withUnsafeBufferPointer { coefficients in
            weights.starts.withUnsafeBufferPointer { starts in
                UnsafeRawPointer(row).withMemoryRebound(to: Int32.self, capacity: 4) { samples in
                    UnsafeMutableRawPointer(out).withMemoryRebound(to: Int32.self, capacity: 4) { result in
                        tabicons_resample_row(
                            samples, coefficients.baseAddress, starts.baseAddress,
                            Int32(weights.taps), Int32(weights.outSize),
                            Int32(ResampleWeights.precisionBits), result)
                    }
                }
            }
        }
    }

    /// The intermediate rows filtered to `weights.outSize` rows and unpremultiplied into `out`.
    static func verticalPass(
        _ src: UnsafeBufferPointer<Pixel>, rowLength: Int,
        weights: ResampleWeights, accumulators acc: UnsafeMutableBufferPointer<Pixel>,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard let outBase = out.baseAddress, let srcBase = src.baseAddress, let accBase = acc.baseAddress else { return }
        weights.coefficients.withUnsafeBufferPointer { coefficients in
            guard let c0 = coefficients.baseAddress else { return }
            for y in 0..<weights.outSize {
                verticalRow(
                    srcBase + weights.starts[y] * rowLength, rowLength: rowLength,
                    coefficients: c0 + y * weights.taps, count: max(weights.counts[y], 1),
                    accumulators: accBase, into: outBase + y * rowLength * 4)
            }
        }
    }

    /// One output row of the vertical pass: `count` horizontally filtered rows from `first`
    /// (`rowLength` pixels apart) weighted by `coefficients`, descaled and unpremultiplied into
    /// `out`. Shared with streamed resampling, which keeps only the rows a window needs.
    static func verticalRow(
        _ first: UnsafePointer<Pixel>, rowLength: Int, coefficients: UnsafePointer<Int32>,
        count: Int, accumulators: UnsafeMutablePointer<Pixel>, into out: UnsafeMutablePointer<UInt8>
    ) {
        UnsafeRawPointer(first).withMemoryRebound(to: Int32.self, capacity: 4) { lines in
            UnsafeMutableRawPointer(accumulators).withMemoryRebound(to: Int32.self, capacity: 4) { sums in
                tabicons_resample_columns(lines, 4 * rowLength, coefficients, Int32(count), 4 * rowLength, sums)
            }
        }
        for i in 0..<rowLength {
            Premultiplication.unpremultiply(descale(accumulators[i]), into: out + i * 4)
        }
    }

    /// Rows that need no vertical filtering, unpremultiplied as they are.
    static func unpremultiplyRows(
        _ src: UnsafeBufferPointer<Pixel>, pixels: Int,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard let outBase = out.baseAddress else { return }
        for i in 0..<pixels {
            Premultiplication.unpremultiply(src[i], into: outBase + i * 4)
        }
    }
}
