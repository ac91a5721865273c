import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// The WebP decoder against files nobody on this project made: libwebp-test-data, Pillow's and
/// image-rs's test images (corpus/webp), and the oracle of what Pillow decodes from each
/// (Fixtures/webp/expected.json, written by make_expected.py).
@Suite("WebP decoder")
struct WebPDecoderTests {
    static func bytes(_ corpusPath: String) throws -> Data { try Fixtures.data(Fixtures.corpus(corpusPath)) }

    static func decode(_ corpusPath: String, options: DecodeOptions = DecodeOptions()) throws -> DecodedImage {
        try ImageDecoder.decode(bytes(corpusPath), options: options)
    }

    /// Decodes through the WebP decoder itself (also for prefixes too short to sniff as WebP) and
    /// returns the error it threw, or nil when it decoded.
    static func failure(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) -> TabIconsError? {
        do {
            _ = try Data(bytes).withUnsafeBytesTyped { raw throws(TabIconsError) in
                try WebPDecoder.decode(raw, options: options)
            }
            return nil
        } catch {
            return error
        }
    }

    // MARK: Pixels against the oracle

    /// Lossless files must match to the byte whatever the libwebp version. Lossy ones match too:
    /// Pillow's libwebp (1.6.0) agrees with libwebp-test-data's reference MD5s, and VP8 decoding
    /// with libwebp's fancy upsampler is bit-exact across versions and SIMD paths (libwebp's own
    /// tests hold it to those MD5s), so no tolerance is needed.
    @Test(
        "every corpus WebP decodes to exactly Pillow's RGBA, orientation applied",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: WebPOracle.decodable)
    func matchesPillow(_ entry: WebPOracle.Entry) throws {
        let image = try Self.decode(entry.path)
        #expect(image.info.format == .webp)
        #expect(image.bitmap.width == entry.width)
        #expect(image.bitmap.height == entry.height)
        #expect(WebPOracle.fingerprint(image.bitmap.pixels) == entry.xxh3)
        #expect(image.info.hasAlpha == (entry.mode == "RGBA"))
        #expect(image.info.orientation.rawValue == entry.orientation)
        #expect(image.info.isAnimated == ((entry.frames ?? 1) > 1))
        #expect(image.info.bitDepth == 8)
    }

    @Test(
        "the oracle covers every WebP in the corpus, lossless and lossy", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func oracleCoversCorpus() throws {
        var corpusWebPs: [String] = []
        for folder in ["webp", "bad"] {
            let root = Fixtures.corpus(folder)
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                guard let data = try? Data(contentsOf: url), ImageFormat.sniff(data) == .webp else { continue }
                corpusWebPs.append(folder + "/" + url.path.dropFirst(root.path.count + 1))
            }
        }
        #expect(corpusWebPs.count >= 154)
        #expect(Set(corpusWebPs) == Set(WebPOracle.document.files.map(\.path)))
        let decodable = WebPOracle.decodable.map(\.path)
        #expect(decodable.filter { $0.contains("/lossless") }.count == 37)
        #expect(decodable.filter { $0.contains("/vp80-") }.count == 56)
        // Pillow's pixels agree with libwebp's own reference decode wherever it lists one, except
        // bad_palette_index.webp, where Pillow drops alpha the header says is absent (as we do).
        let differs = WebPOracle.document.files.filter { $0.libwebpReference == "differs" }.map(\.path)
        #expect(differs == ["webp/bad_palette_index.webp"])
        #expect(WebPOracle.document.files.filter { $0.libwebpReference == "agrees" }.count == 95)
    }

    // MARK: Kinds of WebP

    @Test(
        "an animated WebP gives its first composited frame and says it was animated",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: ["webp/pillow/iss634.webp", "webp/image-rs/anim.webp"])
    func animatedFirstFrame(_ path: String) throws {
        let image = try Self.decode(path)
        let entry = try #require(WebPOracle.entry(path))
        #expect(image.info.isAnimated)
        #expect((entry.frames ?? 0) > 1)
        #expect(image.bitmap.width == entry.width && image.bitmap.height == entry.height)
        #expect(WebPOracle.fingerprint(image.bitmap.pixels) == entry.xxh3)
    }

    @Test(
        "an animated WebP ignores the shrink hint: the canvas comes out whole",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func animatedIgnoresShrink() throws {
        let image = try Self.decode("webp/pillow/iss634.webp", options: DecodeOptions(longestSideNeeded: 50))
        #expect(image.bitmap.width == 245 && image.bitmap.height == 245)
    }

    @Test(
        "files with alpha say so, and transparent pixels are seen", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            "webp/alpha_filter_1.webp", "webp/alpha_no_compression.webp", "webp/lossy_alpha1.webp",
            "webp/lossless1.webp", "webp/pillow/transparent.webp", "webp/image-rs/lossy_alpha.webp"
        ])
    func alphaFiles(_ path: String) throws {
        let image = try Self.decode(path)
        #expect(image.info.hasAlpha)
        #expect(image.info.hasTransparentPixels)
    }

    @Test("lossy files report Y'CbCr, lossless ones RGB or RGBA", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func colourModels() throws {
        #expect(try Self.decode("webp/vp80-00-comprehensive-001.webp").info.colorModel == .ycbcr)
        #expect(try Self.decode("webp/lossy_alpha1.webp").info.colorModel == .ycbcr)
        #expect(try Self.decode("webp/lossless_vec_1_0.webp").info.colorModel == .rgba)
        #expect(try Self.decode("webp/lossless_vec_2_0.webp").info.colorModel == .rgb)
        #expect(try Self.decode("webp/image-rs/anim.webp").info.colorModel == .rgba)
    }

    @Test("a file whose header says it has no alpha comes out opaque", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func noAlphaMeansOpaque() throws {
        // Its palette indices run past the palette, which libwebp decodes as alpha 0 (4096 pixels).
        let image = try Self.decode("webp/bad_palette_index.webp")
        #expect(!image.info.hasAlpha)
        #expect(!image.bitmap.hasTransparentPixels)
    }

    @Test(
        "EXIF orientation in a VP8X EXIF chunk is read and applied", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: 1...8)
    func exifOrientation(_ orientation: Int) throws {
        let path = orientation == 1 ? "webp/pillow/flower2.webp" : "webp/pillow/hopper_orientation_\(orientation).webp"
        let image = try Self.decode(path)
        #expect(image.info.orientation.rawValue == orientation)
        // The pixels are checked against Pillow's exif_transpose by `matchesPillow`; here the
        // stored hopper must come out upright, i.e. close to the unrotated hopper.webp (each file
        // is lossy-compressed on its own: measured mean difference 1.7 of 255 for every value).
        guard orientation != 1 else { return }
        let upright = try Self.decode("webp/pillow/hopper.webp")
        #expect(image.bitmap.width == upright.bitmap.width && image.bitmap.height == upright.bitmap.height)
        #expect(Self.meanAbsoluteDifference(image.bitmap, upright.bitmap) < 4)
    }

    // MARK: Shrink on load

    @Test(
        "shrink on load takes bryce.webp (11158×2156) down to 75 px on its longest side",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func shrinkBryce() throws {
        let image = try Self.decode("webp/bryce.webp", options: DecodeOptions(longestSideNeeded: 75))
        #expect(image.bitmap.width == 75 && image.bitmap.height == 14)
        #expect(image.info.pixelWidth == 11158 && image.info.pixelHeight == 2156)
        #expect(!image.info.hasAlpha)
        // The shrunk image keeps the full image's mean colour (a wrong crop, offset or channel
        // order would not). Measured with libwebp 1.2.4: within 0.25 of Pillow's mean per channel.
        let mean = Self.meanRGB(image.bitmap)
        for (ours, pillow) in zip(mean, WebPOracle.document.bryceMeanRGB) {
            #expect(abs(ours - pillow) < 0.5, "mean \(mean) against \(WebPOracle.document.bryceMeanRGB)")
        }
    }

    @Test(
        "shrink on load averages areas like Pillow's BOX filter (flower.webp to 75×56)",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func shrinkMatchesBoxFilter() throws {
        let image = try Self.decode("webp/pillow/flower.webp", options: DecodeOptions(longestSideNeeded: 75))
        #expect(image.bitmap.width == 75 && image.bitmap.height == 56)
        #expect(image.info.pixelWidth == 480 && image.info.pixelHeight == 360)
        // libwebp scales the Y'CbCr planes of a lossy file before converting to RGB, Pillow scales
        // RGB: close, not equal.
        let reference = Bitmap(width: 75, height: 56, pixels: WebPOracle.bytes(hex: WebPOracle.document.flowerBox75x56))
        // Measured with libwebp 1.2.4: mean 0.65, largest 11 (of 255, at sharp chroma edges).
        #expect(Self.meanAbsoluteDifference(image.bitmap, reference) < 1)
        #expect(Self.maxAbsoluteDifference(image.bitmap, reference) <= 16)
    }

    @Test("the shrunk size keeps the aspect, never upscales and never goes below the need")
    func shrunkSizes() {
        #expect(WebPDecoder.shrunkSize(width: 11158, height: 2156, longestSideNeeded: 75)! == (75, 14))
        #expect(WebPDecoder.shrunkSize(width: 2156, height: 11158, longestSideNeeded: 75)! == (14, 75))
        #expect(WebPDecoder.shrunkSize(width: 176, height: 144, longestSideNeeded: 100)! == (100, 82))
        #expect(WebPDecoder.shrunkSize(width: 1000, height: 1, longestSideNeeded: 10)! == (10, 1))
        #expect(WebPDecoder.shrunkSize(width: 100, height: 100, longestSideNeeded: 0)! == (1, 1))
        #expect(WebPDecoder.shrunkSize(width: 100, height: 100, longestSideNeeded: 100) == nil)
        #expect(WebPDecoder.shrunkSize(width: 100, height: 100, longestSideNeeded: 400) == nil)
        #expect(WebPDecoder.shrunkSize(width: 100, height: 100, longestSideNeeded: nil) == nil)
    }

    @Test(
        "a shrink hint at or above the source size decodes the full, untouched pixels",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func shrinkNeverUpscales() throws {
        let full = try Self.decode("webp/test.webp")
        let hinted = try Self.decode("webp/test.webp", options: DecodeOptions(longestSideNeeded: 1000))
        #expect(hinted.bitmap == full.bitmap)
    }

    @Test("shrinking averages premultiplied colour: hidden colour does not bleed into the result")
    func shrinkIsPremultiplied() throws {
        // Columns alternate red at alpha 1 and opaque blue. A straight-alpha average would give
        // purple at alpha 128; weighted by alpha, the red all but vanishes.
        var pixels: [UInt8] = []
        for _ in 0..<2 { for x in 0..<4 { pixels += x % 2 == 0 ? [255, 0, 0, 1] : [0, 0, 255, 255] } }
        let file = try WebPEncoder.encode(Bitmap(width: 4, height: 2, pixels: pixels))
        let image = try ImageDecoder.decode(Data(file), options: DecodeOptions(longestSideNeeded: 2))
        #expect(image.bitmap.width == 2 && image.bitmap.height == 1)
        for x in 0..<2 {
            let p = Array(image.bitmap.pixels[x * 4..<x * 4 + 4])
            #expect(p[0] <= 4 && p[1] <= 4 && p[2] >= 250 && (127...129).contains(p[3]), "pixel \(x): \(p)")
        }
    }

    // MARK: Limits

    @Test("a VP8L header claiming 16383×16383 with no data is refused as too large before decoding")
    func hugeLosslessHeader() {
        let error = Self.failure(WebPBytes.losslessHeader(width: 16383, height: 16383))
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("16383×16383") == true)
    }

    @Test("an animation canvas past the side limit is refused before the anim decoder allocates it")
    func hugeAnimationCanvas() {
        #expect(Self.failure(WebPBytes.animatedHeader(width: 40000, height: 10))?.code == .tooLarge)
        #expect(Self.failure(WebPBytes.animatedHeader(width: 20000, height: 20000))?.code == .tooLarge)
    }

    @Test(
        "the limits are the caller's: a 128×128 file passes the defaults but not tighter ones",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func configurableLimits() throws {
        let data = try Self.bytes("webp/test.webp")
        #expect(throws: Never.self) { try ImageDecoder.decode(data) }
        let tight = DecodeOptions(limits: .init(maxPixels: 10_000))
        #expect(Self.failure(Array(data), options: tight)?.code == .tooLarge)
        let narrow = DecodeOptions(limits: .init(maxSide: 100))
        #expect(Self.failure(Array(data), options: narrow)?.code == .tooLarge)
    }

    @Test(
        "bryce.webp (11158×2156, 24 megapixels) decodes in full under the default limits",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func bryceFullSize() throws {
        let image = try Self.decode("webp/bryce.webp")
        #expect(image.bitmap.width == 11158 && image.bitmap.height == 2156)
        #expect(image.info.colorModel == .ycbcr && !image.info.hasAlpha)
    }

    // MARK: Damaged input

    @Test(
        "truncated WebP files fail as truncated, never crash", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            "webp/lossless1.webp", "webp/test.webp", "webp/lossy_alpha1.webp",
            "webp/image-rs/anim.webp", "webp/pillow/hopper_orientation_6.webp"
        ])
    func truncations(_ path: String) throws {
        let data = Array(try Self.bytes(path))
        for length in [0, 4, 11, 12, 16, 20, 30, 40, data.count / 4, data.count / 2, data.count - 1] {
            let error = Self.failure(Array(data.prefix(length)))
            #expect(error?.code == .truncated, "\(path) cut at \(length) of \(data.count): \(String(describing: error))")
        }
    }

    @Test("a truncated file's error names libwebp's status", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func truncationMessage() throws {
        let data = Array(try Self.bytes("webp/lossless1.webp"))
        let error = try #require(Self.failure(Array(data.prefix(data.count / 2))))
        #expect(error.format == .webp)
        #expect(error.message == "WebPDecode: VP8_STATUS_NOT_ENOUGH_DATA: the data ends before the image does")
    }

    @Test(
        "damaged bytes decode or fail with a coded error, never crash", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: ["webp/lossless1.webp", "webp/test.webp", "webp/lossy_alpha1.webp", "webp/image-rs/anim.webp"])
    func byteFlips(_ path: String) throws {
        let data = Array(try Self.bytes(path))
        var failures = 0
        // Every 61st byte inverted in turn, one at a time, headers included.
        for position in stride(from: 12, to: data.count, by: max(1, data.count / 61)) {
            var damaged = data
            damaged[position] ^= 0xFF
            if let error = Self.failure(damaged) {
                failures += 1
                #expect([.corrupt, .truncated, .unsupported, .tooLarge].contains(error.code), "\(error)")
            }
        }
        #expect(failures > 0)
    }

    @Test("a VP8L chunk without its signature byte is corrupt")
    func badSignature() {
        var bytes = WebPBytes.losslessHeader(width: 16, height: 16)
        bytes[20] = 0x2E  // the chunk payload's first byte must be 0x2F
        let error = Self.failure(bytes)
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("VP8_STATUS_BITSTREAM_ERROR") == true)
    }

    // MARK: Helpers

    static func meanAbsoluteDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        guard a.pixels.count == b.pixels.count, !a.pixels.isEmpty else { return .infinity }
        let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.pixels.count)
    }

    static func meanRGB(_ bitmap: Bitmap) -> [Double] {
        var sums = [0, 0, 0]
        for i in stride(from: 0, to: bitmap.pixels.count, by: 4) {
            for c in 0..<3 { sums[c] += Int(bitmap.pixels[i + c]) }
        }
        return sums.map { Double($0) / Double(bitmap.width * bitmap.height) }
    }

    static func maxAbsoluteDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        guard a.pixels.count == b.pixels.count else { return .max }
        return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}

/// Hand-built WebP containers for header tests (RIFF layout per the WebP container spec).
enum WebPBytes {
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func le24(_ value: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func riff(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var body = Array("WEBP".utf8)
        for (tag, payload) in chunks {
            body += Array(tag.utf8) + le32(payload.count) + payload
            if payload.count % 2 == 1 { body.append(0) }
        }
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// A VP8L chunk whose 5-byte header claims `width`×`height` (no alpha, version 0), followed
    /// by a few bytes where megabytes of image data would be.
    static func losslessHeader(width: Int, height: Int) -> [UInt8] {
        let bits = (width - 1) | (height - 1) << 14
        return riff([("VP8L", [0x2F] + le32(bits) + [0, 0, 0, 0, 0, 0])])
    }

    /// A VP8X chunk with the animation flag and the given canvas, and nothing else.
    static func animatedHeader(width: Int, height: Int) -> [UInt8] {
        riff([("VP8X", [0x02, 0, 0, 0] + le24(width - 1) + le24(height - 1))])
    }
}
