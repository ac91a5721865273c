import Foundation
import Testing
@testable import TabIcons
@testable import TabIconsCore
@testable import TabIconsCodecs
@testable import TabIconsNormalize
@testable import TabIconsBatch

/// The batch's memory budget, the decode-memory estimate behind it, and the JPEG marker reader
/// that keeps a photo's XMP out of memory.
@Suite("Batch memory")
struct BatchMemoryTests {
    /// The header of a `width × height` JPEG with the given components' (h, v) sampling, as
    /// libjpeg reads it (`JPEGDecoder.prepare`): SOI, the SOF marker, the first scan's SOS
    /// header (every component; for a progressive file its DC scan), then EOI with no entropy data.
    static func jpegHeader(sof: UInt8, width: Int, height: Int, sampling: [(Int, Int)]) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, sof]
        let length = 8 + 3 * sampling.count
        bytes += [
            UInt8(length >> 8), UInt8(length & 0xFF), 8,
            UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
            UInt8(sampling.count)
        ]
        for (i, (h, v)) in sampling.enumerated() { bytes += [UInt8(i + 1), UInt8(h << 4 | v), 0] }
        let progressive = sof == 0xC2 || sof == 0xC6 || sof == 0xCA || sof == 0xCE
        bytes += [0xFF, 0xDA, 0, UInt8(6 + 2 * sampling.count), UInt8(sampling.count)]
        for i in sampling.indices { bytes += [UInt8(i + 1), 0] }
        bytes += [0, progressive ? 0 : 63, 0]  // Ss, Se, Ah/Al
        return Data(bytes + [0xFF, 0xD9])
    }

    @Test("a progressive JPEG is charged libjpeg's whole-image coefficients; a baseline one only its scaled output")
    func jpegEstimate() {
        let sampling = [(2, 2), (1, 1), (1, 1)]  // 4:2:0
        let baseline = Self.jpegHeader(sof: 0xC0, width: 4000, height: 3000, sampling: sampling)
        let progressive = Self.jpegHeader(sof: 0xC2, width: 4000, height: 3000, sampling: sampling)
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
            let progressive = Self.jpegHeader(sof: 0xC2, width: 3840, height: 2400, sampling: sampling)
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
        let png = Data(try PNGEncoder.encode(Bitmap(width: 30, height: 20, pixels: [UInt8](repeating: 7, count: 30 * 20 * 4))))
        // Plus libpng's working set: 64 KiB, three 8-byte-a-pixel rows, and the chunks before
        // the image data it keeps (IHDR 13 bytes, sRGB 1).
        #expect(
            DecodeMemoryEstimate.bytes(png, longestSideNeeded: 75)
                == png.count + 30 * 20 * 4 + (64 << 10) + 3 * (30 * 8 + 64) + 13 + 1)
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
        let jpeg = Self.jpegHeader(sof: 0xC2, width: 65500, height: 65500, sampling: [(1, 1)])
        #expect(DecodeMemoryEstimate.bytes(jpeg, longestSideNeeded: 75) == jpeg.count)
        var strict = DecodeOptions.Limits.default
        strict.maxPixels = 100
        let png = Data(try PNGEncoder.encode(Bitmap(width: 30, height: 20, pixels: [UInt8](repeating: 7, count: 30 * 20 * 4))))
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

/// Shrink on load at 1/8 stops a progressive JPEG after its DC scans (jpeg_decode.c,
/// `can_stop_after_dc`): the pixels must be those of reading every scan.
@Suite("Progressive JPEG at 1/8")
struct ProgressiveDCTests {
    @Test(
        "the DC scans alone give the pixels of reading every scan, with the DC refinement after AC scans",
        arguments: ["p444.jpg", "p422.jpg", "p444-restart.jpg", "pgray.jpg"])
    func dcScansAlone(_ name: String) throws {
        let data = try Fixtures.data(Fixtures.fixture("jpeg/progressive/" + name))
        let options = DecodeOptions(longestSideNeeded: 1)  // DCT scale 1/8
        let dcOnly = try ImageDecoder.decode(data, options: options)
        // Without its EOI the file is read to the end, every scan (libjpeg supplies the EOI).
        let everyScan = try ImageDecoder.decode(data.dropLast(2), options: options)
        #expect(dcOnly.bitmap.width == 29 && dcOnly.bitmap.height == 19)
        #expect(dcOnly.bitmap == everyScan.bitmap)
        // And at 2/8 (a 2×2 IDCT, which reads AC terms) every scan is read as before.
        let quarter = try ImageDecoder.decode(data, options: DecodeOptions(longestSideNeeded: 50))
        #expect(quarter.bitmap.width == 57)
        #expect(
            quarter.bitmap == (try ImageDecoder.decode(data.dropLast(2), options: DecodeOptions(longestSideNeeded: 50))).bitmap)
    }

    @Test(
        "libjpeg decides the DC-only path and reports it: at 1/8 with every component's IDCT 1×1 and the EOI there, nowhere else",
        arguments: ["p444.jpg", "p422.jpg", "pgray.jpg"])
    func decidedInC(_ name: String) throws {
        let data = try Fixtures.data(Fixtures.fixture("jpeg/progressive/" + name))
        func plan(_ data: Data, _ hint: Int?) throws -> JPEGDecoder.Plan {
            try data.withUnsafeBytesTyped { bytes throws(TabIconsError) in
                try JPEGDecoder.plan(bytes, longestSideNeeded: hint, limits: .default)
            }
        }
        let oneEighth = try plan(data, 1)
        #expect(oneEighth.numerator == 1)
        #expect(oneEighth.readsDCScansOnly)
        #expect(try plan(data, 50).readsDCScansOnly == false)  // 2/8: a 2×2 IDCT reads AC terms
        #expect(try plan(data, nil).readsDCScansOnly == false)
        #expect(try plan(data.dropLast(2), 1).readsDCScansOnly == false)  // no EOI: read to the end
        // The estimate is libjpeg's answer, and the DC-only store is far smaller than every coefficient.
        #expect(DecodeMemoryEstimate.bytes(data, longestSideNeeded: 1) == data.count + oneEighth.heldBytes)
        #expect(oneEighth.heldBytes < (try plan(data.dropLast(2), 1)).heldBytes)
    }

    @Test("4:2:0 chroma is scaled by a 2×2 IDCT at 1/8 (libjpeg's rule, jdmaster.c): no DC-only path; 4:2:2 has one")
    func subsampledChroma() throws {
        func dcOnly(_ sampling: [(Int, Int)]) throws -> Bool {
            try BatchMemoryTests.jpegHeader(sof: 0xC2, width: 640, height: 480, sampling: sampling)
                .withUnsafeBytesTyped { bytes throws(TabIconsError) in
                    try JPEGDecoder.plan(bytes, longestSideNeeded: 1, limits: .default)
                }.readsDCScansOnly
        }
        #expect(try dcOnly([(2, 2), (1, 1), (1, 1)]) == false)
        #expect(try dcOnly([(2, 1), (1, 1), (1, 1)]))
        #expect(try dcOnly([(1, 1), (1, 1), (1, 1)]))
        #expect(try dcOnly([(1, 2), (1, 1), (1, 1)]))
        // A sequential (baseline) file is never read from its DC scans.
        let baseline = BatchMemoryTests.jpegHeader(sof: 0xC0, width: 640, height: 480, sampling: [(1, 1), (1, 1), (1, 1)])
        #expect(
            try baseline.withUnsafeBytesTyped { bytes throws(TabIconsError) in
                try JPEGDecoder.plan(bytes, longestSideNeeded: 1, limits: .default)
            }.readsDCScansOnly == false)
    }

    @Test("a sequential file whose first scan carries one component of three holds libjpeg's whole-image coefficients")
    func componentsInSeparateScans() throws {
        var bytes = [UInt8](BatchMemoryTests.jpegHeader(sof: 0xC0, width: 800, height: 600, sampling: [(1, 1), (1, 1), (1, 1)]))
        // Rewrite the SOS header for one component: SOS, length 8, 1 component (id 1, tables 0), Ss 0, Se 63, Ah/Al 0.
        let sos = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        bytes.replaceSubrange(sos..., with: [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0, 0xFF, 0xD9])
        let data = Data(bytes)
        // 100 × 75 blocks a component, 128 bytes a block, and the full-size RGBA.
        #expect(DecodeMemoryEstimate.bytes(data, longestSideNeeded: nil) == data.count + 800 * 600 * 4 + 3 * 100 * 75 * 128)
    }

    @Test(
        "stopping after the DC scans gives the pixels of reading every scan",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            "jpeg/image-rs/progressive_3.jpg", "jpeg/image-rs/progressive_test.jpg",
            "jpeg/image-rs/progressive_cat.jpg", "jpeg/history/testimgp.jpg"
        ])
    func sameAsFullRead(_ path: String) throws {
        let data = try Fixtures.data(Fixtures.corpus(path))
        try #require(data.suffix(2) == Data([0xFF, 0xD9]))
        let options = DecodeOptions(longestSideNeeded: 1)  // DCT scale 1/8
        // Without its EOI the file is read to the end (libjpeg then supplies the EOI itself).
        let early = try ImageDecoder.decode(data, options: options)
        let everyScan = try ImageDecoder.decode(data.dropLast(2), options: options)
        #expect(early.bitmap.width == (max(early.info.pixelWidth, 1) + 7) / 8)
        #expect(early.bitmap == everyScan.bitmap)
    }

    @Test("a progressive file cut short is still truncated at 1/8", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func truncatedAtOneEighth() throws {
        let data = try Fixtures.data(Fixtures.corpus("jpeg/image-rs/progressive_3.jpg"))
        let error = #expect(throws: TabIconsError.self) {
            _ = try ImageDecoder.decode(data.prefix(data.count / 2), options: DecodeOptions(longestSideNeeded: 1))
        }
        #expect(error?.code == .truncated)
    }

    @Test(
        "AC scans are skipped unread at 1/8; the scan limit holds for DC scans and for a full read",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func scanLimitBeforeDC() throws {
        // progressive_3.jpg sends the three DC scans first, one component each.
        let data = try Fixtures.data(Fixtures.corpus("jpeg/image-rs/progressive_3.jpg"))
        let markers = JPEGBytes.markers(in: data)
        let sos = markers.enumerated().filter { $0.element.code == 0xDA }.map(\.offset)
        try #require(sos.count >= 5)
        func end(ofScan index: Int) -> Int? {
            markers[(sos[index] + 1)...].first { !(0xD0...0xD7).contains($0.code) }?.offset
        }
        let afterFirst = try #require(end(ofScan: 0))
        let afterSecond = try #require(end(ofScan: 1))
        let afterThird = try #require(end(ofScan: 2))
        let oneEighth = DecodeOptions(longestSideNeeded: 1)
        // 520 copies of the first AC scan (with the Huffman tables before it) between DC scans 1
        // and 2: at 1/8 they are never decoded, and the pixels are the file's; read in full,
        // they are scans past the limit.
        var acBomb = Data(data[..<afterFirst])
        for _ in 0..<520 { acBomb += data[afterThird..<markers[sos[4]].offset] }
        acBomb += data[afterFirst...]
        #expect(
            try ImageDecoder.decode(acBomb, options: oneEighth).bitmap == ImageDecoder.decode(data, options: oneEighth).bitmap)
        let full = #expect(throws: TabIconsError.self) { _ = try ImageDecoder.decode(acBomb) }
        #expect(full?.code == .corrupt)
        #expect(full?.message.contains("more than 500 scans") == true)
        // 520 copies of the second DC scan: DC scans are read at 1/8, and the limit stops them.
        var dcBomb = Data(data[..<afterFirst])
        for _ in 0..<520 { dcBomb += data[afterFirst..<afterSecond] }
        dcBomb += data[afterFirst...]
        let error = #expect(throws: TabIconsError.self) { _ = try ImageDecoder.decode(dcBomb, options: oneEighth) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("more than 500 scans") == true)
    }
}
