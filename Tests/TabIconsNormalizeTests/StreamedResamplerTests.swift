import CResampleKernels
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize

/// The resampler's row-at-a-time pieces: `StreamedResampler` gives `Resampler`'s bytes, and the C
/// kernels' dispatched (AVX2) and portable loops give the same sums.
@Suite("Streamed resampling and its kernels")
struct StreamedResamplerTests {
    static func noise(width: Int, height: Int, seed: UInt64) -> Bitmap {
        var generator = SeededGenerator(seed: seed)
        return Bitmap(width: width, height: height, pixels: (0..<(width * height * 4)).map { _ in generator.byte() })
    }

    @Test(
        "rows pushed one by one resample to the whole bitmap's bytes, for every filter",
        arguments: NormalizeOptions.Filter.allCases)
    func sameAsWhole(filter: NormalizeOptions.Filter) {
        let source = Self.noise(width: 97, height: 61, seed: 21)
        // 61 rows to 6 and 12 with a narrow kernel keep a ring; the rest the whole intermediate.
        // Ring windows (a few rows of a tall source), whole intermediates, unchanged axes.
        let sizes = [(25, 6), (50, 12), (97, 40), (13, 61), (60, 61), (25, 16), (3, 2)]
        var streamed = StreamedResampler(
            filter: filter, sourceWidth: 97, sourceHeight: 61,
            sizes: sizes.map { (width: $0.0, height: $0.1) })
        source.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<61 { streamed.push(pixels.baseAddress! + y * 97 * 4) }
        }
        var whole = Resampler(filter: filter)
        for (width, height) in sizes {
            #expect(
                streamed.resampled(width: width, height: height) == whole.resample(source, width: width, height: height),
                "\(width)×\(height)")
        }
    }

    @Test("the dispatched and the portable kernels compute the same sums")
    func kernelsAgree() {
        var generator = SeededGenerator(seed: 5)
        for (inSize, outSize) in [(200, 25), (64, 50), (31, 30), (9, 2), (1000, 75)] {
            let weights = ResampleWeights(inSize: inSize, outSize: outSize, filter: .lanczos3)
            // Premultiplied samples: 0...65025, padded with zero pixels as the resampler pads.
            var row = (0..<(4 * inSize)).map { _ in Int32(generator.next() % 65026) }
            row += [Int32](repeating: 0, count: 4 * inSize)
            var fast = [Int32](repeating: 0, count: 4 * outSize), portable = fast
            tabicons_resample_row(row, weights.coefficients, weights.starts, Int32(weights.taps), Int32(outSize), 14, &fast)
            tabicons_resample_row_portable(
                row, weights.coefficients, weights.starts, Int32(weights.taps), Int32(outSize), 14, &portable)
            #expect(fast == portable, "row \(inSize) → \(outSize)")

            // Columns: `count` lines of 4 × outSize samples (odd lengths exercise the tail).
            let length = 4 * outSize + 3, count = min(weights.taps, 7)
            let lines = (0..<(length * count)).map { _ in Int32(generator.next() % 80_000) - 7000 }
            var sums = [Int32](repeating: 0, count: length), portableSums = sums
            tabicons_resample_columns(lines, length, weights.coefficients, Int32(count), length, &sums)
            tabicons_resample_columns_portable(lines, length, weights.coefficients, Int32(count), length, &portableSums)
            #expect(sums == portableSums, "columns \(inSize) → \(outSize)")
        }
    }
}
