import TabIconsCore
import TabIconsCodecs
/// The contributions of source pixels to each output pixel along one axis, computed once per
/// (source size, output size, filter) and reused for every row or column.
///
/// Weights are computed in `Double`, normalized per output, then stored as fixed-point integers with
/// `precisionBits` fractional bits. Each output's weights sum to exactly `one` after rounding (the
/// rounding residue goes to the largest weight), so a flat area stays exactly flat and every later
/// step is integer arithmetic: the same bytes on every run and every thread.
///
/// Geometry (as Pillow's resampler): output pixel `i` is centred on source coordinate
/// `(i + 0.5) × in/out`; source pixel `j` is centred on `j + 0.5`. When shrinking, the kernel is
/// stretched by `in/out`; taps that would fall outside the image are dropped and the rest
/// renormalized (no edge replication, so a transparent border cannot bleed in from nowhere).
struct ResampleWeights: Sendable, Equatable {
    /// Fractional bits of a weight: 1.0 is `1 << 14`. 14 bits keep the quantization error of a
    /// whole tap row well under a tenth of a level while a weight fits in 16 bits, as 16-bit SIMD lanes want.
    static let precisionBits = 14
    static let one: Int32 = 1 << precisionBits

    let inSize: Int
    let outSize: Int
    /// The widest tap row; every row of `coefficients` is this long (shorter ones zero-padded).
    let taps: Int
    /// For output `i`: the first source index it reads (`starts[i]`) and how many (`counts[i]`).
    let starts: [Int]
    let counts: [Int]
    /// `outSize × taps` fixed-point weights, row `i` for output `i`.
    let coefficients: [Int32]

    init(inSize: Int, outSize: Int, filter: NormalizeOptions.Filter) {
        precondition(inSize > 0 && outSize > 0, "ResampleWeights needs positive sizes")
        self.inSize = inSize
        self.outSize = outSize
        let scale = Double(inSize) / Double(outSize)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale

        var rows: [(start: Int, weights: [Int32])] = []
        rows.reserveCapacity(outSize)
        var widest = 1
        for i in 0..<outSize {
            let center = (Double(i) + 0.5) * scale
            let lo = max(Int((center - support + 0.5).rounded(.down)), 0)
            let hi = min(Int((center + support + 0.5).rounded(.down)), inSize)
            var real: [Double] = []
            var total = 0.0
            if lo < hi {
                for j in lo..<hi {
                    let w = filter.weight(at: (Double(j) + 0.5 - center) / filterScale)
                    real.append(w)
                    total += w
                }
            }
            var row: (start: Int, weights: [Int32])
            if total == 0 || real.isEmpty {
                // Cannot happen for these kernels, but never divide by zero: nearest pixel.
                row = (min(max(Int(center), 0), inSize - 1), [Self.one])
            } else {
                row = (lo, Self.quantize(real, total: total))
            }
            // Drop zero taps at both ends: exact, and less work per pixel.
            while row.weights.count > 1, row.weights.last == 0 { row.weights.removeLast() }
            while row.weights.count > 1, row.weights.first == 0 {
                row.weights.removeFirst()
                row.start += 1
            }
            widest = max(widest, row.weights.count)
            rows.append(row)
        }

        taps = widest
        starts = rows.map(\.start)
        counts = rows.map(\.weights.count)
        var flat = [Int32](repeating: 0, count: outSize * widest)
        for (i, row) in rows.enumerated() {
            for (k, w) in row.weights.enumerated() { flat[i * widest + k] = w }
        }
        coefficients = flat
    }

    /// Normalizes `weights` by `total` and rounds them to fixed point so they sum to exactly `one`.
    private static func quantize(_ weights: [Double], total: Double) -> [Int32] {
        var q = weights.map { Int32(($0 / total * Double(one)).rounded(.toNearestOrAwayFromZero)) }
        let residue = one - q.reduce(0, +)
        if residue != 0, let largest = q.indices.max(by: { q[$0] < q[$1] }) {
            q[largest] += residue
        }
        return q
    }
}

extension ResampleWeights {
    /// The weights for (inSize, outSize, filter) from a small process-wide cache: a batch of icons
    /// comes in a handful of sizes, and computing a tap row costs a `sin` per tap. The cache is
    /// emptied when it reaches 256 entries, so it stays under a few megabytes. Weights are a pure
    /// function of the key, so sharing them cannot change a result.
    static func shared(inSize: Int, outSize: Int, filter: NormalizeOptions.Filter) -> ResampleWeights {
        let key = WeightsKey(inSize: inSize, outSize: outSize, filter: filter)
        if let hit = weightsCache.withLock({ $0[key] }) { return hit }
        let weights = ResampleWeights(inSize: inSize, outSize: outSize, filter: filter)
        weightsCache.withLock { cache in
            if cache.count >= 256 { cache.removeAll(keepingCapacity: true) }
            cache[key] = weights
        }
        return weights
    }
}

private struct WeightsKey: Hashable {
    let inSize: Int
    let outSize: Int
    let filter: NormalizeOptions.Filter
}

/// A `LockedState`, like every lock in TabIcons, so ThreadSanitizer sees its critical sections.
private let weightsCache = LockedState<[WeightsKey: ResampleWeights]>([:])
