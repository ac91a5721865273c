import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

@Suite("Resampling")
struct ResamplerTests {
    static let sizePairs: [(Int, Int)] = [
        (96, 25), (96, 50), (96, 75), (16, 48), (7, 3), (5, 13), (1, 4), (4, 1),
        (100, 2), (33, 32), (40, 40), (1000, 75), (3, 1000)
    ]

    @Test("kernels have their textbook values and supports")
    func kernels() {
        typealias F = NormalizeOptions.Filter
        #expect(F.box.support == 0.5 && F.triangle.support == 1 && F.mitchell.support == 2 && F.lanczos3.support == 3)
        #expect(F.box.weight(at: 0) == 1 && F.box.weight(at: 0.5) == 1 && F.box.weight(at: -0.5) == 0)
        #expect(F.triangle.weight(at: 0.25) == 0.75 && F.triangle.weight(at: -1) == 0)
        #expect(abs(F.mitchell.weight(at: 0) - 8.0 / 9) < 1e-12)
        #expect(abs(F.mitchell.weight(at: 1) - 1.0 / 18) < 1e-12)
        #expect(F.mitchell.weight(at: 2) == 0)
        #expect(F.lanczos3.weight(at: 0) == 1)
        #expect(abs(F.lanczos3.weight(at: 1)) < 1e-15 && abs(F.lanczos3.weight(at: -2)) < 1e-15)
        #expect(F.lanczos3.weight(at: 1.5) < 0 && F.lanczos3.weight(at: 3) == 0)
    }

    @Test("every output's fixed-point weights sum to exactly 1 << 14", arguments: NormalizeOptions.Filter.allCases)
    func weightsSumToOne(filter: NormalizeOptions.Filter) {
        for (inSize, outSize) in Self.sizePairs {
            let weights = ResampleWeights(inSize: inSize, outSize: outSize, filter: filter)
            for i in 0..<outSize {
                let row = weights.coefficients[(i * weights.taps)..<(i * weights.taps + weights.counts[i])]
                #expect(row.reduce(0, +) == 1 << 14, "\(inSize)→\(outSize) output \(i)")
                #expect(weights.starts[i] >= 0 && weights.starts[i] + weights.counts[i] <= inSize)
            }
        }
    }

    @Test("premultiplying then unpremultiplying gives every pixel back, alpha 0 as transparent black")
    func premultiplicationRoundTrip() {
        var pixels: [UInt8] = []
        for a in 0...255 { for c in 0...255 { pixels += [UInt8(c), UInt8(255 - c), UInt8(c / 2), UInt8(a)] } }
        var samples = [SIMD4<Int32>](repeating: .zero, count: 256 * 256)
        pixels.withUnsafeBufferPointer { src in
            samples.withUnsafeMutableBufferPointer { dst in
                Premultiplication.premultiply(src.baseAddress!, count: 256 * 256, into: dst.baseAddress!)
            }
        }
        var out = [UInt8](repeating: 9, count: 4)
        for p in 0..<(256 * 256) {
            let s = (0..<4).map { Int(samples[p][$0]) }
            if s[3] != Int(pixels[p * 4 + 3]) * 255 || s[0] != Int(pixels[p * 4]) * Int(pixels[p * 4 + 3]) {
                Issue.record("pixel \(p) premultiplied to \(s)")
                return
            }
            out.withUnsafeMutableBufferPointer {
                Premultiplication.unpremultiply(r: s[0], g: s[1], b: s[2], a: s[3], into: $0.baseAddress!)
            }
            let expected = pixels[(p * 4) + 3] == 0 ? [0, 0, 0, 0] : Array(pixels[(p * 4)..<(p * 4 + 4)])
            if out != expected {
                Issue.record("pixel \(p): \(out) != \(expected)")
                return
            }
        }
    }

    @Test("a resampler reused across sizes, larger and smaller, gives what a fresh one gives")
    func bufferReuse() {
        let source = TestImages.random(width: 61, height: 47, seed: 99)
        var reused = Resampler(filter: .lanczos3)
        for (w, h) in [(20, 15), (90, 70), (5, 4), (61, 10), (30, 47)] {
            var fresh = Resampler(filter: .lanczos3)
            #expect(reused.resample(source, width: w, height: h) == fresh.resample(source, width: w, height: h))
        }
    }

    @Test("a flat colour stays exactly flat at every size", arguments: NormalizeOptions.Filter.allCases)
    func flatStaysFlat(filter: NormalizeOptions.Filter) {
        let flat = TestImages.filled(width: 37, height: 23, (200, 100, 50, 180))
        var resampler = Resampler(filter: filter)
        for (w, h) in [(10, 7), (74, 46), (37, 5), (3, 23), (1, 1), (111, 2)] {
            let out = resampler.resample(flat, width: w, height: h)
            #expect(out == TestImages.filled(width: w, height: h, (200, 100, 50, 180)), "\(w)×\(h)")
        }
    }

    @Test("an axis whose size does not change is not filtered", arguments: NormalizeOptions.Filter.allCases)
    func unchangedAxisIsUntouched(filter: NormalizeOptions.Filter) {
        // Rows of different flat colours: shrinking only the width must leave every row as it was.
        var stripes = TestImages.filled(width: 30, height: 6, (0, 0, 0, 0))
        let colours: [(UInt8, UInt8, UInt8, UInt8)] = [
            (255, 0, 0, 255), (0, 0, 0, 0), (10, 200, 30, 90),
            (0, 0, 255, 255), (255, 255, 255, 1), (7, 8, 9, 255)
        ]
        for (y, colour) in colours.enumerated() {
            stripes = TestImages.painting(stripes, x: 0, y: y, width: 30, height: 1, colour)
        }
        var resampler = Resampler(filter: filter)
        let out = resampler.resample(stripes, width: 11, height: 6)
        for (y, colour) in colours.enumerated() {
            for x in 0..<11 {
                #expect(TestImages.pixel(out, x, y) == [colour.0, colour.1, colour.2, colour.3], "(\(x), \(y))")
            }
        }
    }

    @Test(
        "matches a floating-point reference of the same filter within 2 levels",
        arguments: NormalizeOptions.Filter.allCases)
    func matchesReference(filter: NormalizeOptions.Filter) {
        let cases: [(Int, Int, Int, Int)] = [
            (96, 96, 25, 25), (96, 96, 75, 75), (37, 23, 10, 6), (16, 10, 48, 30),
            (7, 50, 3, 20), (100, 7, 25, 2), (5, 5, 13, 13), (40, 1, 25, 1),
            (1, 40, 1, 25), (26, 25, 25, 24), (64, 48, 33, 71)
        ]
        var resampler = Resampler(filter: filter)  // one resampler across sizes: buffer reuse too
        var worst = (premultiplied: 0.0, alpha: 0.0, straight: 0.0, opaque: 0.0)
        for (seed, (sw, sh, w, h)) in cases.enumerated() {
            for opaque in [false, true] {
                let source = TestImages.random(width: sw, height: sh, seed: UInt64(seed * 2 + (opaque ? 1 : 0)), opaque: opaque)
                let ours = resampler.resample(source, width: w, height: h)
                let reference = ReferenceResampler.resample(source, width: w, height: h, filter: filter)
                for p in 0..<(w * h) {
                    let (rgb, alpha) = ReferenceResampler.straight(reference[p])
                    let a = Double(ours.pixels[p * 4 + 3])
                    worst.alpha = max(worst.alpha, abs(a - alpha))
                    for c in 0..<3 {
                        let value = Double(ours.pixels[p * 4 + c])
                        // Premultiplied: meaningful at any alpha.
                        worst.premultiplied = max(worst.premultiplied, abs(value * a / 255 - rgb[c] * alpha / 255))
                        // Straight: every pixel the reference does not call transparent.
                        if alpha >= 1 { worst.straight = max(worst.straight, abs(value - rgb[c])) }
                        if opaque { worst.opaque = max(worst.opaque, abs(value - rgb[c])) }
                    }
                }
            }
        }
        #expect(worst.alpha <= 2)
        #expect(worst.premultiplied <= 2)
        #expect(worst.straight <= 2)
        #expect(worst.opaque <= 2)
    }
}
