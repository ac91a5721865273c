import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// The memory estimate a batch budgets with (`Normalizer.normalizeMemoryEstimate`) is never below
/// what normalizing really holds. For a streamed PNG that is measured: libpng's allocations
/// through `PNGRowDecoder`'s counting allocator, plus the row, the horizontal intermediates and
/// the renditions (`StreamedNormalization.Outcome.heldBytes`). For a whole-image PNG decode, the
/// same libpng working set (the simplified API reads with the same machinery) plus the pixel
/// buffers the decoder allocates.
@Suite("Streamed memory estimate")
struct StreamedMemoryEstimateTests {
    static let optionSets = [NormalizeOptions(), NormalizeOptions(box: IconBox(points: 10)!, shape: .square)]

    @Test("a streamed normalization holds no more than its estimate", arguments: StreamedPNGInputs.all)
    func streamedWithinEstimate(input: StreamedPNGInputs.Input) throws {
        for options in Self.optionSets {
            guard let outcome = try? StreamedNormalization.outcome(input.data, options: options) else { continue }
            let estimate = Normalizer(options: options).normalizeMemoryEstimate(input.data)
            #expect(input.data.count + outcome.heldBytes <= estimate, "\(options)")
            #expect(StreamedNormalization.memoryEstimate(input.data, options: options) == estimate)
        }
    }

    @Test("a whole-image PNG decode holds no more than its estimate", arguments: StreamedPNGInputs.all)
    func wholeWithinEstimate(input: StreamedPNGInputs.Input) throws {
        guard ImageFormat.sniff(input.data) == .png,
            let image = try? ImageDecoder.decode(input.data),
            let libpng = try? input.data.withUnsafeBytes({ bytes -> Int in
                let decoder = try PNGRowDecoder(bytes, limits: .default)
                // libpng's peak while reading the whole image.
                try decoder.start()
                var pixels = [UInt8](repeating: 0, count: decoder.width * decoder.height * 4)
                try pixels.withUnsafeMutableBufferPointer { try decoder.readImage(into: $0.baseAddress!) }
                return decoder.libpngPeakBytes
            })
        else { return }
        let pixels =
            image.bitmap.byteCount
            + PNGRowDecoder.heldBytes(
                width: image.info.pixelWidth, height: image.info.pixelHeight, bitDepth: image.info.bitDepth,
                isInterlaced: input.data[input.data.startIndex + 28] == 1, streamed: false)
        let estimate = DecodeMemoryEstimate.bytes(input.data, longestSideNeeded: nil)
        #expect(input.data.count + pixels + libpng <= estimate)
    }

    @Test("streaming charges the renditions' intermediates, not the source's pixels")
    func streamedIsSmaller() throws {
        let data = StreamedPNGInputs.made(width: 1200, height: 900, seed: 9)
        let streamed = Normalizer().normalizeMemoryEstimate(data)
        let whole = DecodeMemoryEstimate.bytes(data, longestSideNeeded: 75)
        // 1200 × 900 RGBA is 4.3 MB. Streamed: three windows of twice a Lanczos-3 reach (6 × 47,
        // 6 × 23.7, 6 × 16 rows) of 25, 50 and 75 px, about 0.23 MB each, libpng's 93 KB, rows.
        #expect(whole >= data.count + 1200 * 900 * 4)
        #expect(streamed < data.count + 1_000_000)
        #expect(streamed < whole)
        // trim does not stream: the whole-image estimate.
        #expect(Normalizer(options: NormalizeOptions(trim: true)).normalizeMemoryEstimate(data) == whole)
    }

    @Test("a compressed chunk libpng keeps before the image data (iCCP) is charged what it can inflate to")
    func compressedChunksCharged() throws {
        let plain = StreamedPNGInputs.made(width: 40, height: 30, seed: 2)
        // An iCCP chunk of 1000 bytes inserted after IHDR (8 + 25 bytes in). Text chunks cost
        // nothing: libpng discards them unread (PNGMemoryLimitTests).
        var itxt = Data([0, 0, 0x03, 0xE8]) + Data("iCCP".utf8) + Data(repeating: 0, count: 1000)
        itxt += Data([0, 0, 0, 0])
        let with = plain.prefix(33) + itxt + plain.dropFirst(33)
        func working(_ data: Data) throws -> Int {
            try data.withUnsafeBytesTyped { bytes throws(TabIconsError) in try PNGChunks.scan(bytes) }.libpngWorkingBytes
        }
        let difference = try working(with) - working(plain)
        #expect(difference == 1000 + 2 * (1000 * 1032 + 1024))
    }
}
