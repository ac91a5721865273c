/// Separable two-pass resampling of a premultiplied image: horizontal first (every source row to the
/// output width), then vertical (to the output height), in integer arithmetic throughout.
///
/// Why this shape: the weights are precomputed per axis (`ResampleWeights`), the inner loops are
/// plain multiply-adds over contiguous buffers with no allocation, and the scratch buffers live in
/// the resampler so rendering 1×, 2× and 3× from one source allocates them once. Integer maths
/// makes the result the same on every run and thread count.
///
/// Precision: the source samples are exact premultiplied values on a 0…65025 scale; the horizontal
/// pass keeps its results on that scale in `Int32` without clamping (a negative lobe's undershoot
/// survives to the vertical pass, as in a floating-point filter); only the final unpremultiply
/// rounds to 8 bits. An axis whose size does not change is not filtered at all (a blurring kernel
/// such as Mitchell would otherwise soften it for nothing).
struct Resampler {
    let filter: NormalizeOptions.Filter
    /// The horizontal pass's output: `width × source.height × 4` samples on the 0…65025 scale.
    private var intermediate: [Int32] = []
    /// One output row of vertical-pass accumulators (`width × 4`).
    private var accumulators: [Int] = []

    init(filter: NormalizeOptions.Filter) {
        self.filter = filter
    }

    /// `source` resampled to `width × height`, as straight-alpha RGBA.
    mutating func resample(_ source: PremultipliedImage, width: Int, height: Int) -> Bitmap {
        precondition(width > 0 && height > 0, "Resampler needs a positive output size")
        // Work on local arrays so the passes can hold pointers into both at once.
        var inter = intermediate
        var acc = accumulators
        defer {
            intermediate = inter
            accumulators = acc
        }
        let interCount = width * source.height * 4
        if inter.count < interCount { inter = [Int32](repeating: 0, count: interCount) }
        if acc.count < width * 4 { acc = [Int](repeating: 0, count: width * 4) }

        inter.withUnsafeMutableBufferPointer { interBuffer in
            source.samples.withUnsafeBufferPointer { src in
                if width == source.width {
                    for i in 0..<interCount { interBuffer[i] = Int32(src[i]) }
                } else {
                    let weights = ResampleWeights(inSize: source.width, outSize: width, filter: filter)
                    Self.horizontalPass(src, rows: source.height, sourceWidth: source.width,
                                        weights: weights, into: interBuffer)
                }
            }
        }

        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, initialized in
            inter.withUnsafeBufferPointer { interBuffer in
                if height == source.height {
                    Self.unpremultiplyRows(interBuffer, count: width * height * 4, into: out)
                } else {
                    let weights = ResampleWeights(inSize: source.height, outSize: height, filter: filter)
                    acc.withUnsafeMutableBufferPointer { accBuffer in
                        Self.verticalPass(interBuffer, rowLength: width * 4, weights: weights,
                                          accumulators: accBuffer, into: out)
                    }
                }
            }
            initialized = width * height * 4
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// Rounds a fixed-point sum back to the sample scale; halves round up (towards +∞).
    @inline(__always)
    private static func descale(_ sum: Int) -> Int {
        (sum + (1 << (ResampleWeights.precisionBits - 1))) >> ResampleWeights.precisionBits
    }

    /// Every source row filtered to `weights.outSize` pixels.
    private static func horizontalPass(_ src: UnsafeBufferPointer<UInt16>, rows: Int, sourceWidth: Int,
                                       weights: ResampleWeights, into dst: UnsafeMutableBufferPointer<Int32>) {
        let outWidth = weights.outSize
        weights.coefficients.withUnsafeBufferPointer { coefficients in
            weights.starts.withUnsafeBufferPointer { starts in
                weights.counts.withUnsafeBufferPointer { counts in
                    for y in 0..<rows {
                        let srcRow = y * sourceWidth * 4
                        let dstRow = y * outWidth * 4
                        for x in 0..<outWidth {
                            var r = 0, g = 0, b = 0, a = 0
                            var s = srcRow + starts[x] * 4
                            let c = x * weights.taps
                            for k in 0..<counts[x] {
                                let w = Int(coefficients[c + k])
                                r &+= w &* Int(src[s])
                                g &+= w &* Int(src[s + 1])
                                b &+= w &* Int(src[s + 2])
                                a &+= w &* Int(src[s + 3])
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
