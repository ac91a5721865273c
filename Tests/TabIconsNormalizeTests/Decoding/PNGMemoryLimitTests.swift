import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// Issue 17, SPEC §2 "Memory follows the limits", for PNG: text chunks are never held, a header
/// whose data cannot fill it allocates nothing, a whole decode past 256 MiB is refused before it
/// allocates, and 16-bit and Adam7 sources decode row by row to exactly the pixels of their
/// 8-bit, non-interlaced twins. Inputs are written here (`PNGTestWriter`).
@Suite("PNG memory limits")
struct PNGMemoryLimitTests {
    static func failure(_ data: Data, options: DecodeOptions = DecodeOptions()) -> TabIconsError? {
        do { _ = try ImageDecoder.decode(data, options: options); return nil } catch { return error }
    }

    /// The most bytes libpng held while decoding `data` whole (its allocations, counted).
    static func libpngPeak(_ data: Data) throws -> Int {
        try data.withUnsafeBytesTyped { bytes throws(TabIconsError) -> Int in
            let decoder = try PNGRowDecoder(bytes, limits: .default)
            try decoder.start()
            var pixels = [UInt8](repeating: 0, count: decoder.width * decoder.height * 4)
            try pixels.withUnsafeMutableBufferPointer { buffer throws(TabIconsError) in
                try decoder.readImage(into: buffer.baseAddress!)
            }
            return decoder.libpngPeakBytes
        }
    }

    // MARK: Text chunks

    @Test(
        "text chunks before the image data are discarded unread: 24 chunks each inflating to 1 MB leave libpng under 256 KB",
        arguments: ["zTXt", "iTXt", "tEXt"])
    func textChunksNotHeld(type: String) throws {
        let text =
            type == "tEXt"
            ? (0..<24).flatMap { PNGBytes.chunk("tEXt", Array("k\($0)".utf8) + [0] + [UInt8](repeating: 0x61, count: 100_000)) }
            : (0..<24).flatMap {
                PNGTestWriter.compressedText(type, keyword: "k\($0)", zlib: PNGTestWriter.run(of: 0x61, count: 1_000_000))
            }
        let data = PNGTestWriter.png(width: 3, height: 2, bitDepth: 8, colorType: 0, interlaced: false, before: text) { x, y in
            [x * 100 + y]
        }
        let image = try ImageDecoder.decode(data)
        #expect(
            image.bitmap.pixels == [
                0, 0, 0, 255, 100, 100, 100, 255, 200, 200, 200, 255,
                1, 1, 1, 255, 101, 101, 101, 255, 201, 201, 201, 255
            ])
        // Before issue 17 libpng held each inflated text (24 MB for zTXt/iTXt, 2.4 MB for tEXt).
        #expect(try Self.libpngPeak(data) < 256 << 10)
        // And the estimate charges none of them: libpng's fixed set, three rows of 8-byte pixels, IHDR.
        let estimate = try data.withUnsafeBytesTyped { bytes throws(TabIconsError) in try PNGChunks.scan(bytes) }
            .libpngWorkingBytes
        #expect(estimate == (64 << 10) + 3 * (3 * 8 + 64) + 13)
    }

    // MARK: Headers the data cannot fill

    @Test("a 67-byte header claiming 10000×10000 16-bit Adam7 is truncated before anything is allocated for its pixels")
    func headerAloneIsTruncated() throws {
        let data = PNGTestWriter.image(
            width: 10000, height: 10000, bitDepth: 16, colorType: 6, interlaced: true,
            zlib: PNGTestWriter.stored([0, 0, 0, 0, 0, 0, 0, 0, 0]))
        let error = try #require(Self.failure(data))
        #expect(error.code == .truncated)
        #expect(
            error.message
                == "Not enough image data: 44 bytes from the first IDAT cannot inflate to the 800018750 bytes of rows a 10000×10000 image needs"
        )
        // Every Adam7 pass of a 16-bit RGBA 10000² image: 100 M pixels of 8 bytes, and a filter
        // byte per pass row (1250 + 1250 + 1250 + 2500 + 2500 + 5000 + 5000 rows); the same
        // through the normalizer (the streamed path checks it too).
        #expect(
            PNGImageDataBound.filteredBytes(
                PNGChunks.Header(width: 10000, height: 10000, bitDepth: 16, colorType: 6, isInterlaced: true))
                == 800_000_000 + 18_750)
        #expect(throws: error) { try Normalizer().normalize(data) }
    }

    @Test("a header its data can fill is not refused by the bound: a 4000×4000 black 1-bit image from 13 KB")
    func fillableHeaderDecodes() throws {
        let rows = 4000 * (1 + 500)
        let data = PNGTestWriter.image(
            width: 4000, height: 4000, bitDepth: 1, colorType: 0, interlaced: false,
            zlib: PNGTestWriter.run(of: 0, count: rows))
        #expect(data.count < 13_000)
        let image = try ImageDecoder.decode(data)
        #expect(image.bitmap.pixels.count == 4000 * 4000 * 4)
        #expect(image.bitmap.pixels.prefix(8) == [0, 0, 0, 255, 0, 0, 0, 255])
    }

    // MARK: Whole decodes past the limit

    @Test("decoding a 9000×9000 PNG whole is refused as tooLarge naming the 256 MiB limit; normalizing it streams in a few MB")
    func wholeDecodeRefusedStreamedNot() throws {
        let black9000 = PNGTestWriter.black9000  // made once for this test: each making compresses 10 MB of rows
        let error = try #require(Self.failure(black9000))
        #expect(error.code == .tooLarge)
        #expect(error.format == .png)
        #expect(
            error.message
                == "a 9000×9000 PNG decoded whole needs more than 256 MiB (about 342 MiB with the input and the process)")
        // The limit is the one declared place: raised, the same header passes the check.
        let estimate = DecodeMemoryEstimate.bytes(black9000, longestSideNeeded: nil)
        #expect(estimate == black9000.count + 9000 * 9000 * 4 + (64 << 10) + 3 * (9000 * 8 + 64) + 13)

        let outcome = try #require(try StreamedNormalization.outcome(black9000, options: NormalizeOptions()))
        #expect(outcome.icon.renditions.map(\.bitmap.width) == [25, 50, 75])
        #expect(outcome.icon.renditions.allSatisfy { $0.bitmap.pixels.allSatisfy { $0 == 0 || $0 == 255 } })
        #expect(outcome.heldBytes < 8 << 20)
    }

    // MARK: 16-bit and Adam7, decoded within the budget, exact

    /// A picture of opaque colour noise that 8-bit samples hold exactly; 16-bit twins store v·257.
    static func noise(_ x: Int, _ y: Int) -> [Int] {
        [(x * 7 + y * 13) & 0xFF, (x * x + y) & 0xFF, (x ^ y) & 0xFF]
    }

    static func twin(width: Int, height: Int, bitDepth: Int, interlaced: Bool) -> Data {
        PNGTestWriter.png(width: width, height: height, bitDepth: bitDepth, colorType: 2, interlaced: interlaced) { x, y in
            noise(x, y).map { bitDepth == 16 ? $0 * 257 : $0 }
        }
    }

    @Test(
        "16-bit and Adam7 files decode whole to exactly their 8-bit non-interlaced twin's pixels",
        arguments: [(1, 1), (2, 9), (9, 2), (33, 17), (601, 403)])
    func twinsDecodeAlike(width: Int, height: Int) throws {
        let reference = try ImageDecoder.decode(Self.twin(width: width, height: height, bitDepth: 8, interlaced: false)).bitmap
        for (bitDepth, interlaced) in [(8, true), (16, false), (16, true)] {
            let image = try ImageDecoder.decode(
                Self.twin(width: width, height: height, bitDepth: bitDepth, interlaced: interlaced))
            #expect(image.bitmap == reference, "\(bitDepth)-bit, interlaced \(interlaced)")
            #expect(image.info.bitDepth == bitDepth)
        }
    }

    @Test("a 16-bit Adam7 file streams to its twin's renditions, holding its even rows and no more than its estimate")
    func twinsStreamAlike() throws {
        let width = 1201, height = 801
        let reference = try Normalizer().normalize(Self.twin(width: width, height: height, bitDepth: 8, interlaced: false))
        let data = Self.twin(width: width, height: height, bitDepth: 16, interlaced: true)
        let outcome = try #require(try StreamedNormalization.outcome(data, options: NormalizeOptions()))
        #expect(outcome.icon.renditions.map(\.bitmap) == reference.renditions.map(\.bitmap))
        let evenRows = (height + 1) / 2 * width * 4
        #expect(
            PNGRowDecoder.heldBytes(width: width, height: height, bitDepth: 16, isInterlaced: true, streamed: true)
                == width * 12 + evenRows)
        #expect(outcome.heldBytes > evenRows)
        #expect(data.count + outcome.heldBytes <= Normalizer().normalizeMemoryEstimate(data))
        // What `inspect` reports, read row by row without resampling, is the whole-image plan.
        #expect(try Normalizer().planned(data) == Normalizer().planned(ImageDecoder.decode(data)))
        // Whole, it is charged its RGBA and its rows, never the 16-bit image (8 bytes a pixel) it used to hold.
        #expect(
            DecodeMemoryEstimate.pngWhole(width: width, height: height, bitDepth: 16, isInterlaced: true, libpngBytes: 0)
                == width * height * 4 + width * 12)
    }
}
