import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

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
            try JPEGTestHeader.bytes(sof: 0xC2, width: 640, height: 480, sampling: sampling)
                .withUnsafeBytesTyped { bytes throws(TabIconsError) in
                    try JPEGDecoder.plan(bytes, longestSideNeeded: 1, limits: .default)
                }.readsDCScansOnly
        }
        #expect(try dcOnly([(2, 2), (1, 1), (1, 1)]) == false)
        #expect(try dcOnly([(2, 1), (1, 1), (1, 1)]))
        #expect(try dcOnly([(1, 1), (1, 1), (1, 1)]))
        #expect(try dcOnly([(1, 2), (1, 1), (1, 1)]))
        // A sequential (baseline) file is never read from its DC scans.
        let baseline = JPEGTestHeader.bytes(sof: 0xC0, width: 640, height: 480, sampling: [(1, 1), (1, 1), (1, 1)])
        #expect(
            try baseline.withUnsafeBytesTyped { bytes throws(TabIconsError) in
                try JPEGDecoder.plan(bytes, longestSideNeeded: 1, limits: .default)
            }.readsDCScansOnly == false)
    }

    @Test("a sequential file whose first scan carries one component of three holds libjpeg's whole-image coefficients")
    func componentsInSeparateScans() throws {
        var bytes = [UInt8](JPEGTestHeader.bytes(sof: 0xC0, width: 800, height: 600, sampling: [(1, 1), (1, 1), (1, 1)]))
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
