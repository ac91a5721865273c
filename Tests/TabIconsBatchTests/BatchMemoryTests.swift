import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
@testable import TabIconsBatch
import TabIconsTestSupport

/// The batch's memory budget, the decode-memory estimate behind it, and the JPEG marker reader
/// that keeps a photo's XMP out of memory.
@Suite("Batch memory")
struct BatchMemoryTests {
    @Test("a progressive JPEG is charged libjpeg's whole-image coefficients; a baseline one only its scaled output")
    func jpegEstimate() {
        let sampling = [(2, 2), (1, 1), (1, 1)]  // 4:2:0
        let baseline = JPEGTestHeader.bytes(sof: 0xC0, width: 4000, height: 3000, sampling: sampling)
        let progressive = JPEGTestHeader.bytes(sof: 0xC2, width: 4000, height: 3000, sampling: sampling)
        // 75 px needed: DCT scale 1/8 → 500 × 375 RGBA.
        let output = 500 * 375 * 4
        #expect(DecodeMemoryEstimate.bytes(baseline, longestSideNeeded: 75) == baseline.count + output)
        // Y: 500 × 375 blocks, padded to whole 2 × 2 MCUs: 500 × 376; Cb, Cr: 250 × 188 blocks
        // each; 128 bytes a block. (4:2:0 chroma goes through a 2×2 IDCT at 1/8, which reads AC
        // terms: every coefficient is kept.)
        let coefficients = (500 * 376 + 2 * 250 * 188) * 128
        #expect(DecodeMemoryEstimate.bytes(progressive, longestSideNeeded: 75) == progressive.count + output + coefficients)
        // Full size when nothing smaller is asked for.
        #expect(DecodeMemoryEstimate.bytes(baseline, longestSideNeeded: nil) == baseline.count + 4000 * 3000 * 4)
    }

    @Test("a progressive JPEG decoded at 1/8 from its DC scans is charged one coefficient a block and a window of block rows")
    func jpegDCOnlyEstimate() {
        for (name, sampling) in [("4:4:4", [(1, 1), (1, 1), (1, 1)]), ("4:2:2", [(2, 1), (1, 1), (1, 1)])] {
            let progressive = JPEGTestHeader.bytes(sof: 0xC2, width: 3840, height: 2400, sampling: sampling)
            let output = 480 * 300 * 4
            // Per component: its blocks (padded to its sampling), 2 bytes each, and 5 × v rows of
            // whole 128-byte blocks.
            let store = sampling.reduce(0) { total, hv in
                let hMax = sampling.map(\.0).max()!, vMax = sampling.map(\.1).max()!
                let across = (3840 * hv.0 + 8 * hMax - 1) / (8 * hMax), down = (2400 * hv.1 + 8 * vMax - 1) / (8 * vMax)
                return total + across * down * 2 + 5 * hv.1 * across * 128
            }
            #expect(
                DecodeMemoryEstimate.bytes(progressive, longestSideNeeded: 75) == progressive.count + output + store, "\(name)")
            #expect(store < 3 << 20, "\(name): a 9.2 Mpx photo in under 3 MB, not 30–55 MB of coefficients")
            // Without its EOI the file is read to the end, every coefficient kept.
            let cut = progressive.dropLast(2)
            #expect(DecodeMemoryEstimate.bytes(cut, longestSideNeeded: 75) > 25 << 20, "\(name)")
        }
    }

    @Test("a PNG is charged its RGBA pixels and libpng's working set; bytes of no known format four times their size")
    func pngEstimate() throws {
        let png = Data(
            try OutputFormat.png.encode(Bitmap(width: 30, height: 20, pixels: [UInt8](repeating: 7, count: 30 * 20 * 4))))
        // Plus libpng's working set: 64 KiB, three 8-byte-a-pixel rows, and the chunks before
        // the image data it keeps (IHDR 13 bytes, sRGB 1); and the whole-image inflate's: its rows
        // and the joined IDAT data at 4 bytes a pixel and a filter byte a row (2 × 2,420 and a
        // sixteenth), 4 KiB of slack and libdeflate's 16 KiB.
        let inflated = 2 * 2420 + 2420 / 16 + 4096 + (16 << 10)
        #expect(
            DecodeMemoryEstimate.bytes(png, longestSideNeeded: 75)
                == png.count + 30 * 20 * 4 + (64 << 10) + 3 * (30 * 8 + 64) + 13 + 1 + inflated)
        let junk = Data([1, 2, 3])
        #expect(DecodeMemoryEstimate.bytes(junk, longestSideNeeded: 75) == 3 + 12)
    }

    @Test(
        "a header the limits refuse is charged its bytes alone, however large it claims to be",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func refusedHeaders() throws {
        // image-rs/image-png's x_issue#230.1.png claims 4294967295 × 536883232 px: the product
        // times four overflowed the estimate and crashed the batch before the decoder could refuse it.
        let huge = try Fixtures.data(Fixtures.corpus("bad/image-png-bugfixes/x_issue#230.1.png"))
        #expect(DecodeMemoryEstimate.bytes(huge, longestSideNeeded: 75) == huge.count)
        let jpeg = JPEGTestHeader.bytes(sof: 0xC2, width: 65500, height: 65500, sampling: [(1, 1)])
        #expect(DecodeMemoryEstimate.bytes(jpeg, longestSideNeeded: 75) == jpeg.count)
        var strict = DecodeOptions.Limits.default
        strict.maxPixels = 100
        let png = Data(
            try OutputFormat.png.encode(Bitmap(width: 30, height: 20, pixels: [UInt8](repeating: 7, count: 30 * 20 * 4))))
        #expect(DecodeMemoryEstimate.bytes(png, longestSideNeeded: 75, limits: strict) == png.count)
    }

    @Test(
        "a batch with a memory budget refuses an absurd header as an error and goes on",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func absurdHeaderInBatch() throws {
        let out = try TemporaryDirectory("out")
        let names = ["bad/image-png-bugfixes/x_issue#230.1.png", "bad/image-png-bugfixes/x_issue#230.0.png"]
        var inputs = names.map { path in
            BatchInput(name: path, outputStem: (path as NSString).lastPathComponent) { () throws(TabIconsError) -> Data in
                do { return try Data(contentsOf: Fixtures.corpus(path)) } catch { throw TabIconsError(.io, "\(error)") }
            }
        }
        inputs.append(
            BatchInput(name: "home.png", outputStem: "home") { () throws(TabIconsError) -> Data in
                do { return try Data(contentsOf: Fixtures.testImage("home.png")) } catch { throw TabIconsError(.io, "\(error)") }
            })
        let manifest = try BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 2).run(inputs).manifest
        #expect(manifest.icons.map(\.name) == ["home"])
        #expect(manifest.errors.map(\.code) == ["corrupt", "corrupt"])
    }

    @Test("a holder alone may grow past the budget; beside others only within it")
    func budgetGrowth() {
        let budget = MemoryBudget(capacity: 100)
        budget.acquire(10)
        #expect(budget.tryGrow(from: 10, to: 500))  // alone: a large image runs by itself
        budget.release(500)
        budget.acquire(10)  // holder A
        budget.acquire(20)  // holder B (fits: 30 ≤ 100)
        #expect(!budget.tryGrow(from: 10, to: 90))  // 20 + 90 > 100: A must wait
        #expect(budget.tryGrow(from: 10, to: 80))  // 20 + 80 = 100 fits
        budget.release(80)
        budget.release(20)
    }

    @Test("a batch under a tiny budget writes the same files and manifest as one without")
    func tinyBudgetSameOutput() throws {
        let names = ["home.png", "avatar-exif6.jpg", "bell-filled.webp", "heart.png"]
        let inputs = names.map { name in
            BatchInput(
                name: name, outputStem: (name as NSString).deletingPathExtension,
                load: { () throws(TabIconsError) -> Data in
                    guard let data = try? Data(contentsOf: Fixtures.testImage(name)) else {
                        throw TabIconsError(.io, "cannot read \(name)")
                    }
                    return data
                }, expectedByteCount: { 1 })
        }
        var results: [(String, [String: Data])] = []
        for budget in [1, 1 << 30] {
            let folder = try TemporaryDirectory()
            let batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: folder.url, jobs: 3, memoryBudget: budget)
            let manifest = try batch.run(inputs).manifest
            #expect(manifest.errors.isEmpty)
            results.append((String(decoding: manifest.jsonData(), as: UTF8.self), try folder.snapshot()))
        }
        #expect(results[0].0 == results[1].0)
        #expect(results[0].1 == results[1].1)
        #expect(results[0].1.count >= names.count)
    }

    @Test("EXIF orientation is found after other APP1 segments (XMP), which are skipped, not kept")
    func exifAfterXMP() throws {
        let original = try Data(contentsOf: Fixtures.testImage("avatar-exif6.jpg"))
        // An XMP APP1 right after SOI, before the file's own EXIF APP1.
        let payload = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8) + [UInt8](repeating: 0x20, count: 3000)
        let length = payload.count + 2
        var bytes = Array(original.prefix(2)) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        bytes += original.dropFirst(2)
        let withXMP = try ImageDecoder.decode(Data(bytes))
        let plain = try ImageDecoder.decode(original)
        #expect(plain.info.orientation.rawValue == 6)
        #expect(withXMP.info.orientation.rawValue == 6)
        #expect(withXMP.bitmap == plain.bitmap)
    }
}
