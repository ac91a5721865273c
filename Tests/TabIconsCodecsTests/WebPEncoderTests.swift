import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// The WebP encoder, checked by decoding its output (the decoder is checked against Pillow) and by
/// reading the container it writes.
@Suite("WebP encoder")
struct WebPEncoderTests {
    /// A 48×40 icon-like bitmap: a disc with an anti-aliased rim over a transparent background
    /// whose hidden colour is not black, a colour gradient inside, and a half-transparent bar.
    static let icon: Bitmap = {
        let width = 48, height = 40
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let dx = Double(x) - 23.5, dy = Double(y) - 19.5
                let coverage = min(1, max(0, 16 - (dx * dx + dy * dy).squareRoot()))
                if y >= 34 {
                    pixels[i..<i + 4] = [30, 140, 250, 128]
                } else if coverage > 0 {
                    pixels[i..<i + 4] = [UInt8(x * 5), UInt8(y * 6), 180, UInt8((coverage * 255).rounded())]
                } else {
                    pixels[i..<i + 4] = [200, 10, 30, 0]
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }()

    static func decode(_ bytes: [UInt8]) throws -> DecodedImage { try ImageDecoder.decode(Data(bytes)) }

    static func corpusBitmap(_ path: String) throws -> Bitmap {
        try ImageDecoder.decode(Fixtures.data(Fixtures.corpus(path))).bitmap
    }

    // MARK: Lossless

    @Test("lossless gives every pixel back, with the colour of alpha-0 pixels zeroed")
    func losslessRoundTripSynthetic() throws {
        let decoded = try Self.decode(WebPEncoder.encode(Self.icon))
        #expect(decoded.bitmap == Self.hiddenColourZeroed(Self.icon))
        #expect(decoded.bitmap != Self.icon)  // the hidden red really was there, and is gone
        #expect(decoded.info.hasAlpha && decoded.info.colorModel == .rgba)
    }

    @Test(
        "lossless round trips of corpus images are exact", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            "webp/lossless1.webp", "webp/lossy_alpha1.webp", "webp/vp80-00-comprehensive-001.webp",
            "webp/image-rs/lossy_alpha.webp", "webp/pillow/hopper_orientation_6.webp"
        ])
    func losslessRoundTripCorpus(_ path: String) throws {
        let bitmap = try Self.corpusBitmap(path)
        let decoded = try Self.decode(WebPEncoder.encode(bitmap))
        #expect(decoded.bitmap == Self.hiddenColourZeroed(bitmap))
    }

    @Test("an opaque bitmap is written without alpha, lossless and lossy", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func opaqueHasNoAlpha() throws {
        let photo = try Self.corpusBitmap("webp/vp80-00-comprehensive-001.webp")
        #expect(!photo.hasTransparentPixels)

        let lossless = try WebPEncoder.encode(photo)
        #expect(Self.chunks(lossless) == ["VP8L"])
        #expect(!Self.losslessAlphaBit(lossless))
        #expect(try !Self.decode(lossless).info.hasAlpha)

        let lossy = try WebPEncoder.encode(photo, quality: 80)
        #expect(Self.chunks(lossy) == ["VP8 "])
        #expect(try !Self.decode(lossy).info.hasAlpha)
    }

    @Test("a bitmap with transparency keeps its alpha, lossless and lossy")
    func transparentKeepsAlpha() throws {
        let lossless = try WebPEncoder.encode(Self.icon)
        #expect(Self.chunks(lossless) == ["VP8L"])
        #expect(Self.losslessAlphaBit(lossless))

        let lossy = try WebPEncoder.encode(Self.icon, quality: 80)
        #expect(Self.chunks(lossy) == ["VP8X", "ALPH", "VP8 "])
        let decoded = try Self.decode(lossy)
        #expect(decoded.info.hasAlpha)
        // Alpha is compressed losslessly even in lossy files (alpha_quality 100).
        #expect(Self.channel(3, of: decoded.bitmap) == Self.channel(3, of: Self.icon))
    }

    // MARK: Lossy

    @Test("lossy stays close to the input where it is visible", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func lossyRoundTrip() throws {
        let photo = try Self.corpusBitmap("webp/test.webp")
        let decodedPhoto = try Self.decode(WebPEncoder.encode(photo, quality: 90)).bitmap
        let photoError = Self.meanVisibleColourError(decodedPhoto, photo)
        let decodedIcon = try Self.decode(WebPEncoder.encode(Self.icon, quality: 90)).bitmap
        let iconError = Self.meanVisibleColourError(decodedIcon, Self.icon)
        // Measured with libwebp 1.2.4 at quality 90: 1.28 for the photo, 2.69 for the icon (its
        // opaque pixels are mostly rim and gradient, the hardest content for 4:2:0 chroma).
        #expect(photoError < 2)
        #expect(iconError < 4)
    }

    @Test("a lower quality gives fewer bytes", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func qualityControlsSize() throws {
        let photo = try Self.corpusBitmap("webp/test.webp")
        let low = try WebPEncoder.encode(photo, quality: 10)
        let high = try WebPEncoder.encode(photo, quality: 95)
        #expect(low.count < high.count)
        #expect(try Self.decode(low).bitmap.width == photo.width)
    }

    @Test("a quality outside 0…100 is refused", arguments: [-1, 100.5, Float.nan, Float.infinity])
    func invalidQuality(_ quality: Float) {
        #expect(throws: TabIconsError.self) { try WebPEncoder.encode(Self.icon, quality: quality) }
        do {
            _ = try WebPEncoder.encode(Self.icon, quality: quality)
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test("the edges of the quality range encode", arguments: [Float(0), 100])
    func qualityEdges(_ quality: Float) throws {
        #expect(try Self.decode(WebPEncoder.encode(Self.icon, quality: quality)).bitmap.width == 48)
    }

    // MARK: Container and limits

    @Test("output is a well-formed RIFF, and the same bitmap always gives the same bytes")
    func deterministicWellFormed() throws {
        for quality in [nil, Float(75)] {
            let first = try WebPEncoder.encode(Self.icon, quality: quality)
            let second = try WebPEncoder.encode(Bitmap(width: 48, height: 40, pixels: Self.icon.pixels), quality: quality)
            #expect(first == second)
            #expect(ImageFormat.sniff(first) == .webp)
            #expect(Self.le32(first, 4) == first.count - 8)
        }
    }

    @Test("a single pixel encodes and decodes, in both modes")
    func singlePixel() throws {
        let pixel = Bitmap(width: 1, height: 1, pixels: [10, 20, 30, 255])
        #expect(try Self.decode(WebPEncoder.encode(pixel)).bitmap == pixel)
        #expect(try Self.decode(WebPEncoder.encode(pixel, quality: 100)).bitmap.width == 1)
    }

    @Test("a side longer than WebP's 16383 px is too large")
    func tooWide() {
        let wide = Bitmap(width: 16384, height: 1)
        do {
            _ = try WebPEncoder.encode(wide)
            Issue.record("encoded a 16384 px wide bitmap")
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.format == .webp)
        }
    }

    // MARK: Helpers

    /// What lossless promises to give back: the input with the RGB of alpha-0 pixels set to 0.
    static func hiddenColourZeroed(_ bitmap: Bitmap) -> Bitmap {
        var pixels = bitmap.pixels
        for i in stride(from: 0, to: pixels.count, by: 4) where pixels[i + 3] == 0 {
            pixels[i] = 0; pixels[i + 1] = 0; pixels[i + 2] = 0
        }
        return Bitmap(width: bitmap.width, height: bitmap.height, pixels: pixels)
    }

    static func le32(_ bytes: [UInt8], _ offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }

    /// The top-level chunk tags after "RIFF size WEBP".
    static func chunks(_ bytes: [UInt8]) -> [String] {
        var tags: [String] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            tags.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            let size = le32(bytes, offset + 4)
            offset += 8 + size + (size & 1)
        }
        return tags
    }

    /// The `alpha_is_used` bit of a simple-format VP8L header (bit 28 after the 0x2F signature).
    static func losslessAlphaBit(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 25 && bytes[20] == 0x2F && (le32(bytes, 21) >> 28) & 1 == 1
    }

    static func channel(_ index: Int, of bitmap: Bitmap) -> [UInt8] {
        stride(from: index, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] }
    }

    /// Mean absolute RGB difference over pixels that are opaque in the original.
    static func meanVisibleColourError(_ a: Bitmap, _ b: Bitmap) -> Double {
        var total = 0, count = 0
        for i in stride(from: 0, to: min(a.pixels.count, b.pixels.count), by: 4) where b.pixels[i + 3] == 255 {
            for c in 0..<3 { total += abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c])) }
            count += 3
        }
        return count == 0 ? .infinity : Double(total) / Double(count)
    }
}
