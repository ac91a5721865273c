import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// The JPEG decoder against Pillow's decodes of public files (Fixtures/jpeg/oracle.py), and its
/// error policy against damaged copies of them.
@Suite("JPEG decoding")
struct JPEGDecoderTests {
    // MARK: Pixels, compared with Pillow

    @Test(
        "decodes like Pillow's exif_transpose, ±2 per channel", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: JPEGOracle.files)
    func matchesPillow(_ path: String) throws {
        let expected = try #require(JPEGOracle.shared.files[path])
        let image = try decodeCorpus(path)
        #expect(image.bitmap.width == expected.width && image.bitmap.height == expected.height)
        #expect(image.info.pixelWidth == expected.width && image.info.pixelHeight == expected.height)
        #expect(image.info.orientation.rawValue == expected.orientation)
        let reference = try JPEGOracle.pixels(expected.pixels)
        let difference = try #require(JPEGOracle.largestDifference(image.bitmap, reference))
        #expect(difference <= 2, "\(path): largest channel difference \(difference)")
        #expect(!image.bitmap.hasTransparentPixels)
    }

    @Test(
        "larger and odder files match Pillow at 64 sampled pixels and in mean colour",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: JPEGOracle.sampledFiles)
    func matchesPillowSampled(_ path: String) throws {
        let expected = try #require(JPEGOracle.shared.sampled[path])
        let image = try decodeCorpus(path)
        #expect((image.bitmap.width, image.bitmap.height) == (expected.width, expected.height))
        #expect((image.info.pixelWidth, image.info.pixelHeight) == (expected.width, expected.height))
        #expect(image.info.orientation.rawValue == expected.orientation)
        let p = image.bitmap.pixels
        for sample in expected.samples {
            let at = (sample[1] * image.bitmap.width + sample[0]) * 4
            let ours = [Int(p[at]), Int(p[at + 1]), Int(p[at + 2])]
            let close = zip(ours, sample[2...]).allSatisfy { abs($0 - $1) <= 2 }
            #expect(close, "\(path) at (\(sample[0]), \(sample[1])): \(ours) vs \(Array(sample[2...]))")
        }
        for channel in 0..<3 {
            #expect(abs(JPEGOracle.mean(p, channel: channel, step: 4) - expected.mean[channel]) < 0.5)
        }
    }

    @Test(
        "what the decode learned: bit depth, colour model, no alpha", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            ("jpeg/testorig.jpg", ImageInfo.ColorModel.ycbcr),
            ("jpeg/testimgari.jpg", .ycbcr),
            ("jpeg/history/testimgp.jpg", .ycbcr),
            ("jpeg/history/testimggray.jpg", .gray),
            ("jpeg/pillow/hopper_gray.jpg", .gray),
            ("jpeg/pillow/pil_sample_cmyk.jpg", .ycck)
        ])
    func imageInfo(_ path: String, model: ImageInfo.ColorModel) throws {
        let image = try decodeCorpus(path)
        #expect(image.info.format == .jpeg)
        #expect(image.info.colorModel == model)
        #expect(image.info.bitDepth == 8)
        #expect(image.info.hasAlpha == false)
        #expect(image.info.hasTransparentPixels == false)
        #expect(image.info.isAnimated == false)
    }

    @Test("a grey JPEG comes out with R = G = B", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func grayIsNeutral() throws {
        let image = try decodeCorpus("jpeg/history/testimggray.jpg")
        let p = image.bitmap.pixels
        let neutral = stride(from: 0, to: p.count, by: 4).allSatisfy { (i: Int) -> Bool in
            p[i] == p[i + 1] && p[i] == p[i + 2]
        }
        #expect(neutral)
    }

    /// Pillow converts CMYK to RGB as R = (255 − C)(255 − K)/255 with the Adobe inversion undone,
    /// which is the same product as ours, so the bytes should agree exactly up to the IDCT; the
    /// ±2 of `matchesPillow` covers it. Here: the colours themselves, so an inversion mistake (a
    /// negative picture) or a dropped K (washed-out picture) cannot pass by symmetry.
    @Test(
        "Adobe YCCK (Photoshop CMYK) decodes to its real colours, not a negative",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func adobeCMYKColours() throws {
        let image = try decodeCorpus("jpeg/pillow/pil_sample_cmyk.jpg")
        let reference = try JPEGOracle.pixels("pil_sample_cmyk.ppm")
        // The mean colour of the whole picture, within 1 of Pillow's.
        for channel in 0..<3 {
            let ours = JPEGOracle.mean(image.bitmap.pixels, channel: channel, step: 4)
            let theirs = JPEGOracle.mean(reference.bytes, channel: channel, step: 3)
            #expect(abs(ours - theirs) < 1)
        }
        // An inverted decode would swap light and dark: the two pictures must correlate, not anti-correlate.
        #expect(JPEGOracle.largestDifference(image.bitmap, reference) ?? 255 <= 2)
    }

    // MARK: EXIF orientation

    @Test("a non-square oriented file reports its displayed size", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func nonSquareOrientation() throws {
        // portrait_2.jpg: stored 113×150 with orientation 2 (a mirror: no swap).
        let image = try decodeCorpus("jpeg/image-rs/portrait_2.jpg")
        #expect(image.info.orientation.rawValue == 2)
        #expect((image.info.pixelWidth, image.info.pixelHeight) == (113, 150))
        // The same bytes with the tag patched to 6 (90° clockwise) display 150×113.
        let data = try Fixtures.data(Fixtures.corpus("jpeg/image-rs/portrait_2.jpg"))
        let rotated90 = try decodeData(try #require(JPEGBytes.settingOrientation(6, in: data)))
        #expect(rotated90.info.orientation.rawValue == 6)
        #expect((rotated90.info.pixelWidth, rotated90.info.pixelHeight) == (150, 113))
        #expect((rotated90.bitmap.width, rotated90.bitmap.height) == (150, 113))
    }

    @Test(
        "files with broken EXIF decode with orientation 1", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            "bad/pillow/invalid-exif.jpg",
            "bad/pillow/invalid-exif-without-x-resolution.jpg", "bad/pillow/broken_exif_dpi.jpg",
            "bad/pillow/truncated_exif_dpi.jpg"
        ])
    func brokenEXIF(_ path: String) throws {
        let image = try decodeCorpus(path)
        #expect(image.info.orientation.rawValue == 1)
    }

    @Test(
        "an EXIF block whose IFD0 offset points past its end gives orientation 1",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func craftedBadEXIF() throws {
        var data = try Fixtures.data(Fixtures.corpus("jpeg/image-rs/portrait_2.jpg"))
        let app1 = try #require(JPEGBytes.markerOffsets(0xE1, in: data).first)
        // FF E1 Lh Ll "Exif\0\0" then the TIFF header; its bytes 4–7 are the IFD0 offset.
        let at = data.startIndex + app1 + 10 + 4
        data.replaceSubrange(at..<at + 4, with: [0x7F, 0xFF, 0xFF, 0xF0])
        let image = try decodeData(data)
        #expect(image.info.orientation.rawValue == 1)
        #expect((image.bitmap.width, image.bitmap.height) == (113, 150))
    }

    // MARK: Unsupported, truncated, corrupt

    @Test(
        "12-bit JPEG is unsupported, and says so", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: ["jpeg/monkey12.jpg", "jpeg/history/testorig12.jpg"])
    func twelveBit(_ path: String) throws {
        let error = #expect(throws: TabIconsError.self) { _ = try decodeCorpus(path) }
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("12-bit") == true)
        #expect(error?.message.contains("Unsupported JPEG data precision 12") == true)
        #expect(error?.format == .jpeg)
    }

    @Test(
        "a sample precision that no JPEG has is corrupt, not unsupported", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            (UInt8(7), TabIconsError.Code.corrupt), (0, .corrupt), (9, .corrupt), (12, .unsupported), (16, .unsupported)
        ])
    func precisionByte(_ precision: UInt8, code: TabIconsError.Code) throws {
        var data = try Fixtures.data(Fixtures.corpus("jpeg/testorig.jpg"))
        let sof = try #require(JPEGBytes.sofOffset(in: data))
        data[data.startIndex + sof + 4] = precision  // FF C0 Lh Ll P
        let error = #expect(throws: TabIconsError.self) { _ = try decodeData(data) }
        #expect(error?.code == code)
        #expect(error?.message.contains("Unsupported JPEG data precision \(precision)") == true)
    }

    @Test(
        "a baseline file cut short is truncated, never a grey picture", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [2, 20, 100, 200, 300, 620, 1_000, 2_000, 3_000, 4_000, 5_000])
    func truncatedBaseline(_ length: Int) throws {
        let data = try Fixtures.data(Fixtures.corpus("jpeg/testorig.jpg"))
        try #require(length < data.count - 100)
        let error = #expect(throws: TabIconsError.self) { _ = try decodeData(data.prefix(length)) }
        #expect(error?.code == .truncated)
        #expect(error?.message.hasPrefix("Premature end of JPEG file") == true)
    }

    @Test(
        "a progressive file cut short is truncated, also right between two scans",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func truncatedProgressive() throws {
        let data = try Fixtures.data(Fixtures.corpus("jpeg/history/testimgp.jpg"))
        let scans = JPEGBytes.markerOffsets(0xDA, in: data)
        try #require(scans.count > 2)
        // Cut just before the 2nd, 3rd, ... SOS marker (only whole scans remain), and mid-scan.
        var cuts = scans.dropFirst().map { $0 }
        cuts += [scans[0] + 40, data.count / 2, data.count - 40]
        for cut in cuts {
            let error = #expect(throws: TabIconsError.self, "cut at \(cut)") { _ = try decodeData(data.prefix(cut)) }
            #expect(error?.code == .truncated, "cut at \(cut)")
        }
    }

    @Test(
        "an arithmetic-coded file cut short is truncated (its decoder would zero-fill silently)",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [100, 1_000, 3_000, 5_000, 5_124])
    func truncatedArithmetic(_ length: Int) throws {
        let data = try Fixtures.data(Fixtures.corpus("jpeg/testimgari.jpg"))
        try #require(length < data.count)
        // 5_124 keeps everything but the EOI: libjpeg's arithmetic decoder cannot tell that from
        // a cut in the data, so it counts as truncated too (the conservative side).
        let error = #expect(throws: TabIconsError.self) { _ = try decodeData(data.prefix(length)) }
        #expect(error?.code == .truncated)
    }

    @Test(
        "a Huffman-coded file that lacks only its EOI marker still has every pixel",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            "jpeg/testorig.jpg", "jpeg/history/testimgp.jpg", "jpeg/pillow/flower2.jpg"
        ])
    func missingEOIOnly(_ path: String) throws {
        let data = try Fixtures.data(Fixtures.corpus(path))
        try #require(Array(data.suffix(2)) == [0xFF, 0xD9])
        let whole = try decodeData(data)
        let cut = try decodeData(data.prefix(data.count - 2))
        #expect(cut.bitmap == whole.bitmap)
    }

    /// Pillow calls this file truncated because its decoder asks for more bytes; it lacks only the
    /// 0xD9 of its EOI marker, and with that byte appended it is a clean, complete file.
    @Test(
        "Pillow's truncated_jpeg.jpg lacks only the last byte of EOI: every pixel is there",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func pillowTruncatedIsComplete() throws {
        let data = try Fixtures.data(Fixtures.corpus("bad/pillow/truncated_jpeg.jpg"))
        #expect(data.last == 0xFF)
        let repaired = try decodeData(data + [0xD9])
        #expect(try decodeData(data).bitmap == repaired.bitmap)
        // One byte less and the last scan is short: that is truncated.
        let error = #expect(throws: TabIconsError.self) { _ = try decodeData(data.dropLast(3)) }
        #expect(error?.code == .truncated)
    }

    @Test(
        "Pillow's hopper_bad_exif.jpg, whose scan is garbage, is corrupt", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func garbageScan() throws {
        // libjpeg reports bad Huffman codes and a premature end of a data segment; the picture
        // Pillow shows for it is horizontal noise.
        let error = #expect(throws: TabIconsError.self) { _ = try decodeCorpus("bad/pillow/hopper_bad_exif.jpg") }
        #expect(error?.code == .corrupt)
        #expect(error?.message.hasPrefix("Corrupt JPEG data") == true)
    }

    @Test(
        "the oss-fuzz file is tooLarge by default limits and corrupt when allowed through",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func fuzzFile() throws {
        let path = "bad/image-rs/oss-fuzz-36829.jpeg"
        let first = #expect(throws: TabIconsError.self) { _ = try decodeCorpus(path) }
        #expect(first?.code == .tooLarge)  // 3×62728: over 32,768 px a side
        let generous = DecodeOptions(limits: .init(maxSide: 65_500))
        let second = #expect(throws: TabIconsError.self) { _ = try decodeCorpus(path, options: generous) }
        #expect(second?.code == .corrupt)
    }

    @Test(
        "extraneous bytes before a marker do not reject a picture that decodes",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func extraneousBytes() throws {
        let data = try Fixtures.data(Fixtures.corpus("jpeg/testorig.jpg"))
        let whole = try decodeData(data)
        // Junk between two header segments: libjpeg warns "Corrupt JPEG data: 3 extraneous bytes
        // before marker 0xdb" and carries on with intact data.
        let dqt = try #require(JPEGBytes.markerOffsets(0xDB, in: data).first)
        var junk = data
        junk.insert(contentsOf: [0x00, 0x11, 0x22], at: junk.startIndex + dqt)
        #expect(try decodeData(junk).bitmap == whole.bitmap)
        // And junk between the entropy data and the EOI.
        var tail = data
        tail.insert(contentsOf: [0x42, 0x42], at: tail.endIndex - 2)
        #expect(try decodeData(tail).bitmap == whole.bitmap)
    }

    @Test(
        "a marker in the middle of the entropy data is corrupt, not zero-filled blocks",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func markerInsideScan() throws {
        var data = try Fixtures.data(Fixtures.corpus("jpeg/testorig.jpg"))
        let middle = data.startIndex + data.count / 2
        // testorig has no restart interval, so an RST0 here ends the scan's data early.
        data.replaceSubrange(middle..<middle + 2, with: [0xFF, 0xD0])
        let error = #expect(throws: TabIconsError.self) { _ = try decodeData(data) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("Corrupt JPEG data") == true)
    }

    @Test("a restart marker out of sequence is corrupt", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func restartOutOfSequence() throws {
        // flower2.jpg has a restart interval of 38 MCUs.
        var data = try Fixtures.data(Fixtures.corpus("jpeg/pillow/flower2.jpg"))
        let sos = try #require(JPEGBytes.markerOffsets(0xDA, in: data).first)
        let restarts = JPEGBytes.markerOffsets(0xD0...0xD7, in: data, from: sos)
        try #require(restarts.count > 3)
        // Swap the number of the 2nd restart marker for the 4th's.
        let second = restarts[1]
        data[data.startIndex + second + 1] = data[data.startIndex + restarts[3] + 1]
        let error = #expect(throws: TabIconsError.self) { _ = try decodeData(data) }
        #expect(error?.code == .corrupt)
    }

    @Test("a header that is not a JPEG past its SOI is corrupt, with libjpeg's words")
    func garbageAfterSOI() throws {
        let error = #expect(throws: TabIconsError.self) {
            _ = try decodeData(Data([0xFF, 0xD8, 0xFF, 0x01, 0x02, 0x03] + [UInt8](repeating: 0x55, count: 64)))
        }
        #expect(error?.code == .corrupt || error?.code == .truncated)
        #expect(error?.message.isEmpty == false)
    }

    @Test("a progressive file with more than 500 scans is refused", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func scanBomb() throws {
        let data = try Fixtures.data(Fixtures.corpus("jpeg/history/testimgp.jpg"))
        let markers = JPEGBytes.markers(in: data)
        // The smallest scan: from its SOS to the next marker that is not an RSTn.
        var smallest: Range<Int>?
        for (index, marker) in markers.enumerated() where marker.code == 0xDA {
            guard let end = markers[(index + 1)...].first(where: { !(0xD0...0xD7).contains($0.code) })?.offset
            else { continue }
            if let current = smallest, current.count <= end - marker.offset { continue }
            smallest = marker.offset..<end
        }
        let scan = try #require(smallest)
        let bytes = [UInt8](data)
        var bomb = Array(bytes[..<scan.upperBound])
        for _ in 0..<520 { bomb += bytes[scan] }
        bomb += bytes[scan.upperBound...]
        let error = #expect(throws: TabIconsError.self) { _ = try decodeData(Data(bomb)) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("more than 500 scans") == true)
        // The same scan repeated a few times is only an inconsistent progression: it decodes.
        var few = Array(bytes[..<scan.upperBound])
        for _ in 0..<3 { few += bytes[scan] }
        few += bytes[scan.upperBound...]
        #expect(try decodeData(Data(few)).bitmap.width == 227)
    }

    // MARK: Limits

    @Test(
        "a header claiming 65500×65500 is tooLarge before any allocation", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            "jpeg/testorig.jpg", "jpeg/history/testimgp.jpg"
        ])
    func hugeHeader(_ path: String) throws {
        var data = try Fixtures.data(Fixtures.corpus(path))
        let sof = try #require(JPEGBytes.sofOffset(in: data))
        // FF Cn Lh Ll P Yh Yl Xh Xl
        let at = data.startIndex + sof + 5
        data.replaceSubrange(at..<at + 4, with: [0xFF, 0xDC, 0xFF, 0xDC])
        let error = #expect(throws: TabIconsError.self) { _ = try decodeData(data) }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("65500") == true)
    }

    @Test("the caller's limits apply to the header's size", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func callerLimits() throws {
        let options = DecodeOptions(limits: .init(maxPixels: 227 * 149 - 1))
        let error = #expect(throws: TabIconsError.self) { _ = try decodeCorpus("jpeg/testorig.jpg", options: options) }
        #expect(error?.code == .tooLarge)
        let fits = DecodeOptions(limits: .init(maxPixels: 227 * 149, maxSide: 227))
        #expect(try decodeCorpus("jpeg/testorig.jpg", options: fits).bitmap.width == 227)
    }

    @Test("a zero height in the header is corrupt", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func zeroHeight() throws {
        var data = try Fixtures.data(Fixtures.corpus("jpeg/testorig.jpg"))
        let sof = try #require(JPEGBytes.sofOffset(in: data))
        let at = data.startIndex + sof + 5
        data.replaceSubrange(at..<at + 2, with: [0, 0])
        let error = #expect(throws: TabIconsError.self) { _ = try decodeData(data) }
        #expect(error?.code == .corrupt)
    }

    // MARK: Shrink on load

    @Test(
        "the DCT scale: smallest M/8 whose longest side is at least the need",
        arguments: [
            (227, 30, 2), (227, 29, 1), (227, 57, 2), (227, 58, 3), (227, 227, 8), (227, 500, 8),
            (128, 64, 4), (128, 65, 5), (128, 16, 1), (128, 1, 1), (6000, 75, 1), (600, 75, 1), (592, 75, 2)
        ])
    func scaleRule(longest: Int, needed: Int, numerator: Int) {
        #expect(JPEGDecoder.scaleNumerator(longestSide: longest, needed: needed) == numerator)
    }

    @Test("no hint, or a hint that is not positive, decodes at full size")
    func scaleRuleWithoutHint() {
        #expect(JPEGDecoder.scaleNumerator(longestSide: 227, needed: nil) == 8)
        #expect(JPEGDecoder.scaleNumerator(longestSide: 227, needed: 0) == 8)
        #expect(JPEGDecoder.scaleNumerator(longestSide: 227, needed: -5) == 8)
    }

    @Test(
        "longestSideNeeded 30 on 227×149 decodes at 2/8: 57×38, source size still 227×149",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func shrinkOnLoad() throws {
        let image = try decodeCorpus("jpeg/testorig.jpg", options: DecodeOptions(longestSideNeeded: 30))
        #expect((image.bitmap.width, image.bitmap.height) == (57, 38))
        #expect((image.info.pixelWidth, image.info.pixelHeight) == (227, 149))
        // The scaled picture is the full one, smaller: its mean colour agrees within a level or two.
        let full = try decodeCorpus("jpeg/testorig.jpg")
        for channel in 0..<3 {
            let a = JPEGOracle.mean(image.bitmap.pixels, channel: channel, step: 4)
            let b = JPEGOracle.mean(full.bitmap.pixels, channel: channel, step: 4)
            #expect(abs(a - b) < 2)
        }
    }

    @Test(
        "shrink on load works for progressive, arithmetic, grey and CMYK files",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            ("jpeg/history/testimgp.jpg", 100, 114, 75), ("jpeg/testimgari.jpg", 100, 114, 75),
            ("jpeg/history/testimggray.jpg", 10, 29, 19), ("jpeg/pillow/pil_sample_cmyk.jpg", 40, 50, 50)
        ])
    func shrinkOtherKinds(_ path: String, needed: Int, width: Int, height: Int) throws {
        let image = try decodeCorpus(path, options: DecodeOptions(longestSideNeeded: needed))
        #expect((image.bitmap.width, image.bitmap.height) == (width, height))
    }

    @Test(
        "shrink on load is applied before orientation: the oriented bitmap is rotated",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func shrinkThenOrient() throws {
        let data = try Fixtures.data(Fixtures.corpus("jpeg/image-rs/portrait_2.jpg"))
        let bytes = try #require(JPEGBytes.settingOrientation(8, in: data))
        // Stored 113×150; at 3/8 that is 43×57, shown rotated as 57×43.
        let image = try decodeData(bytes, options: DecodeOptions(longestSideNeeded: 50))
        #expect((image.bitmap.width, image.bitmap.height) == (57, 43))
        #expect((image.info.pixelWidth, image.info.pixelHeight) == (150, 113))
    }

    // MARK: Robustness over the corpus

    @Test("every JPEG in the corpus decodes or gives a coded error", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func corpusSweep() throws {
        var decoded = 0, failed: [String: TabIconsError.Code] = [:]
        for path in try JPEGBytes.corpusJPEGs() {
            let data = try Fixtures.data(Fixtures.corpus(path))
            do {
                let image = try decodeData(data)
                #expect(image.bitmap.width > 0 && image.bitmap.height > 0)
                decoded += 1
            } catch {
                #expect([.corrupt, .truncated, .unsupported, .tooLarge].contains(error.code), "\(path): \(error)")
                #expect(!error.message.isEmpty, "\(path)")
                failed[path] = error.code
            }
        }
        #expect(decoded >= 40)
        // The failures are exactly the files that deserve one.
        #expect(
            failed == [
                "jpeg/monkey12.jpg": .unsupported,
                "jpeg/history/testorig12.jpg": .unsupported,
                "bad/pillow/hopper_bad_exif.jpg": .corrupt,
                "bad/image-rs/oss-fuzz-36829.jpeg": .tooLarge
            ])
    }

    @Test(
        "decodes on many threads at once give the same results as one at a time",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func concurrentDecodes() async throws {
        let paths = [
            "jpeg/testorig.jpg", "jpeg/history/testimgp.jpg", "jpeg/monkey12.jpg",
            "jpeg/pillow/pil_sample_cmyk.jpg", "bad/pillow/hopper_bad_exif.jpg", "jpeg/testimgari.jpg"
        ]
        let inputs = try paths.map { try Fixtures.data(Fixtures.corpus($0)) }
        let serial = inputs.map { data in Result { () throws(TabIconsError) in try ImageDecoder.decode(data) } }
        let parallel = await withTaskGroup(of: (Int, Result<DecodedImage, TabIconsError>).self) { group in
            for _ in 0..<4 {
                for (index, data) in inputs.enumerated() {
                    group.addTask { (index, Result { () throws(TabIconsError) in try ImageDecoder.decode(data) }) }
                }
            }
            var results: [(Int, Result<DecodedImage, TabIconsError>)] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(parallel.count == inputs.count * 4)
        for (index, result) in parallel {
            #expect(result == serial[index], "\(paths[index])")
        }
    }

    @Test("the front door sniffs JPEG from the bytes, also as base64", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func frontDoor() throws {
        let data = try Fixtures.data(Fixtures.corpus("jpeg/pillow/hopper.jpg"))
        let binary = try ImageDecoder.decode(data)
        let text = try ImageDecoder.decode(Data(data.base64EncodedString().utf8))
        #expect(binary == text)
        #expect(binary.info.format == .jpeg)
    }

    // MARK: Helpers

    private func decodeCorpus(_ path: String, options: DecodeOptions = DecodeOptions()) throws(TabIconsError) -> DecodedImage {
        let data: Data
        do { data = try Fixtures.data(Fixtures.corpus(path)) } catch {
            throw TabIconsError(.io, "\(path): \(error)")
        }
        return try decodeData(data, options: options)
    }

    private func decodeData(_ data: Data, options: DecodeOptions = DecodeOptions()) throws(TabIconsError) -> DecodedImage {
        try Data(data).withUnsafeBytesTyped { bytes throws(TabIconsError) in
            try JPEGDecoder.decode(bytes, options: options)
        }
    }
}
