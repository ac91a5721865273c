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
    let filter: NormalizeOptions.Filter
    /// One source row, premultiplied (`source.width × 4` samples).
    private var sourceRow: [UInt16] = []
    /// The horizontal pass's output: `width × source.height × 4` samples on the 0…65025 scale.
    private var intermediate: [Int32] = []
    /// One output row of vertical-pass accumulators (`width × 4`).
    private var accumulators: [Int] = []

    init(filter: NormalizeOptions.Filter) {
        self.filter = filter
    }

    /// Sizes the scratch buffers for outputs up to `width` wide from a `sourceWidth × sourceHeight`
    /// source, so a series of renditions allocates them once whatever their order.
    mutating func reserve(sourceWidth: Int, sourceHeight: Int, width: Int) {
        if sourceRow.count < sourceWidth * 4 { sourceRow = [UInt16](repeating: 0, count: sourceWidth * 4) }
        if intermediate.count < width * sourceHeight * 4 {
            intermediate = [Int32](repeating: 0, count: width * sourceHeight * 4)
        }
        if accumulators.count < width * 4 { accumulators = [Int](repeating: 0, count: width * 4) }
    }

    /// `source` (straight alpha) resampled to `width × height`, as straight-alpha RGBA.
    mutating func resample(_ source: Bitmap, width: Int, height: Int) -> Bitmap {
        precondition(width > 0 && height > 0, "Resampler needs a positive output size")
        reserve(sourceWidth: source.width, sourceHeight: source.height, width: width)
        // Work on local arrays so the passes can hold pointers into all of them at once.
        var row = sourceRow, inter = intermediate, acc = accumulators
        (sourceRow, intermediate, accumulators) = ([], [], [])   // keep them uniquely referenced
        defer { (sourceRow, intermediate, accumulators) = (row, inter, acc) }

        let horizontal = width == source.width
            ? nil : ResampleWeights(inSize: source.width, outSize: width, filter: filter)
        source.pixels.withUnsafeBufferPointer { src in
            row.withUnsafeMutableBufferPointer { rowBuffer in
                inter.withUnsafeMutableBufferPointer { interBuffer in
                    Self.horizontalPass(src, sourceWidth: source.width, rows: source.height, weights: horizontal,
                                        outWidth: width, row: rowBuffer, into: interBuffer)
                }
            }
        }

        let count = width * height * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            inter.withUnsafeBufferPointer { interBuffer in
                if height == source.height {
                    Self.unpremultiplyRows(interBuffer, count: count, into: out)
                } else {
                    let weights = ResampleWeights(inSize: source.height, outSize: height, filter: filter)
                    acc.withUnsafeMutableBufferPointer { accBuffer in
                        Self.verticalPass(interBuffer, rowLength: width * 4, weights: weights,
                                          accumulators: accBuffer, into: out)
                    }
                }
            }
            initialized = count
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// Rounds a fixed-point sum back to the sample scale; halves round up (towards +∞).
    @inline(__always)
    private static func descale(_ sum: Int) -> Int {
        (sum + (1 << (ResampleWeights.precisionBits - 1))) >> ResampleWeights.precisionBits
    }

    /// Every source row premultiplied into `row`, then filtered to `outWidth` pixels (or copied
    /// when `weights` is nil: the width does not change).
    private static func horizontalPass(_ src: UnsafeBufferPointer<UInt8>, sourceWidth: Int, rows: Int,
                                       weights: ResampleWeights?, outWidth: Int,
                                       row: UnsafeMutableBufferPointer<UInt16>,
                                       into dst: UnsafeMutableBufferPointer<Int32>) {
        guard let srcBase = src.baseAddress, let rowBase = row.baseAddress else { return }
        guard let weights else {
            for y in 0..<rows {
                Premultiplication.premultiply(srcBase + y * sourceWidth * 4, count: sourceWidth, into: rowBase)
                let dstRow = y * outWidth * 4
                for i in 0..<(outWidth * 4) { dst[dstRow + i] = Int32(row[i]) }
            }
            return
        }
        weights.coefficients.withUnsafeBufferPointer { coefficients in
            weights.starts.withUnsafeBufferPointer { starts in
                weights.counts.withUnsafeBufferPointer { counts in
                    for y in 0..<rows {
                        Premultiplication.premultiply(srcBase + y * sourceWidth * 4, count: sourceWidth, into: rowBase)
                        let dstRow = y * outWidth * 4
                        for x in 0..<outWidth {
                            var r = 0, g = 0, b = 0, a = 0
                            var s = starts[x] * 4
                            let c = x * weights.taps
                            for k in 0..<counts[x] {
                                let w = Int(coefficients[c + k])
                                r &+= w &* Int(row[s])
                                g &+= w &* Int(row[s + 1])
                                b &+= w &* Int(row[s + 2])
                                a &+= w &* Int(row[s + 3])
                                s &+= 4
                            }
                            let d = dstRow + x * 4
                            dst[d] = Int32(truncatingIfNeeded: descale(r))
                            dst[d + 1] = Int32(truncatingIfNeeded: descale(g))
                            dst[d + 2] = Int32(truncatingIfNeeded: descale(b))
                            dst[d + 3] = Int32(truncatingIfNeeded: descale(a))
                        }
                    }
                }
            }
        }
    }

    /// The intermediate rows filtered to `weights.outSize` rows and unpremultiplied into `out`.
    private static func verticalPass(_ src: UnsafeBufferPointer<Int32>, rowLength: Int,
                                     weights: ResampleWeights, accumulators acc: UnsafeMutableBufferPointer<Int>,
                                     into out: UnsafeMutableBufferPointer<UInt8>) {
        guard let outBase = out.baseAddress else { return }
        weights.coefficients.withUnsafeBufferPointer { coefficients in
            for y in 0..<weights.outSize {
                for i in 0..<rowLength { acc[i] = 0 }
                let c = y * weights.taps
                for k in 0..<weights.counts[y] {
                    let w = Int(coefficients[c + k])
                    let row = (weights.starts[y] + k) * rowLength
                    for i in 0..<rowLength {
                        acc[i] &+= w &* Int(src[row + i])
                    }
                }
                let outRow = y * rowLength
                var i = 0
                while i < rowLength {
                    Premultiplication.unpremultiply(
                        r: descale(acc[i]), g: descale(acc[i + 1]), b: descale(acc[i + 2]),
                        a: descale(acc[i + 3]), into: outBase + outRow + i)
                    i += 4
                }
            }
        }
    }

    /// Rows that need no vertical filtering, unpremultiplied as they are.
    private static func unpremultiplyRows(_ src: UnsafeBufferPointer<Int32>, count: Int,
                                          into out: UnsafeMutableBufferPointer<UInt8>) {
        guard let outBase = out.baseAddress else { return }
        var i = 0
        while i < count {
            Premultiplication.unpremultiply(r: Int(src[i]), g: Int(src[i + 1]), b: Int(src[i + 2]),
                                            a: Int(src[i + 3]), into: outBase + i)
            i += 4
        }
    }
}
