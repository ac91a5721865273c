import Foundation
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize

/// An independent floating-point resampler for the accuracy tests: the same kernels, support and
/// sample geometry as the library's, in `Double` throughout (exact premultiplication, no
/// fixed-point weights, no intermediate rounding), rounding only at the very end.
enum ReferenceResampler {
    /// The kernels, written out again from their textbook definitions.
    static func kernel(_ filter: NormalizeOptions.Filter, _ x: Double) -> (value: Double, support: Double) {
        let ax = abs(x)
        switch filter {
        case .box:
            return (x > -0.5 && x <= 0.5 ? 1 : 0, 0.5)
        case .triangle:
            return (max(0, 1 - ax), 1)
        case .mitchell:
            // B = C = 1/3
            let v: Double
            if ax < 1 {
                v = (7 * ax * ax * ax - 12 * ax * ax + 16.0 / 3) / 6
            } else if ax < 2 {
                v = (-7.0 / 3 * ax * ax * ax + 12 * ax * ax - 20 * ax + 32.0 / 3) / 6
            } else {
                v = 0
            }
            return (v, 2)
        case .lanczos3:
            func sinc(_ t: Double) -> Double { t == 0 ? 1 : sin(.pi * t) / (.pi * t) }
            return (ax < 3 ? sinc(x) * sinc(x / 3) : 0, 3)
        }
    }

    /// Normalized weights for each output: output i centred at (i + 0.5) · in/out, the kernel
    /// stretched by in/out when shrinking, taps outside the image dropped.
    static func weights(inSize: Int, outSize: Int, filter: NormalizeOptions.Filter) -> [(start: Int, weights: [Double])] {
        let scale = Double(inSize) / Double(outSize)
        let filterScale = max(scale, 1)
        let support = kernel(filter, 0).support * filterScale
        return (0..<outSize).map { i in
            let center = (Double(i) + 0.5) * scale
            let lo = max(Int(floor(center - support + 0.5)), 0)
            let hi = min(Int(floor(center + support + 0.5)), inSize)
            let raw = (lo..<hi).map { kernel(filter, (Double($0) + 0.5 - center) / filterScale).value }
            let total = raw.reduce(0, +)
            return (lo, raw.map { $0 / total })
        }
    }

    /// Premultiplied (R·A/255, G·A/255, B·A/255, A) per pixel, each 0…255 (before clamping), of
    /// `bitmap` resampled to `width × height`. An axis whose size is unchanged is not filtered.
    static func resample(
        _ bitmap: Bitmap, width: Int, height: Int,
        filter: NormalizeOptions.Filter
    ) -> [[Double]] {
        let w = bitmap.width, h = bitmap.height
        var src = [[Double]](repeating: [0, 0, 0, 0], count: w * h)
        for p in 0..<(w * h) {
            let a = Double(bitmap.pixels[p * 4 + 3])
            src[p] = [
                Double(bitmap.pixels[p * 4]) * a / 255, Double(bitmap.pixels[p * 4 + 1]) * a / 255,
                Double(bitmap.pixels[p * 4 + 2]) * a / 255, a
            ]
        }
        var mid = [[Double]](repeating: [0, 0, 0, 0], count: width * h)
        if width == w {
            mid = src
        } else {
            let wx = weights(inSize: w, outSize: width, filter: filter)
            for y in 0..<h {
                for x in 0..<width {
                    var acc = [0.0, 0, 0, 0]
                    for (k, wt) in wx[x].weights.enumerated() {
                        for c in 0..<4 { acc[c] += wt * src[y * w + wx[x].start + k][c] }
                    }
                    mid[y * width + x] = acc
                }
            }
        }
        if height == h { return mid }
        var out = [[Double]](repeating: [0, 0, 0, 0], count: width * height)
        let wy = weights(inSize: h, outSize: height, filter: filter)
        for y in 0..<height {
            for x in 0..<width {
                var acc = [0.0, 0, 0, 0]
                for (k, wt) in wy[y].weights.enumerated() {
                    for c in 0..<4 { acc[c] += wt * mid[(wy[y].start + k) * width + x][c] }
                }
                out[y * width + x] = acc
            }
        }
        return out
    }

    /// A premultiplied reference pixel as straight values: alpha clamped to 0…255, colour
    /// P/A·255 clamped (0 where alpha is not positive).
    static func straight(_ p: [Double]) -> (rgb: [Double], alpha: Double) {
        let a = min(max(p[3], 0), 255)
        guard p[3] > 0 else { return ([0, 0, 0], a) }
        return ((0..<3).map { min(max(p[$0] / p[3] * 255, 0), 255) }, a)
    }
}
