import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// Issue 17 beyond PNG: animated WebP canvases charged and refused before libwebp allocates
/// them, the decode-memory limit's one declared place, and inputs cut inside a signature
/// reported as `truncated` rather than as an unknown format.
@Suite("Decode memory limits")
struct DecodeMemoryLimitTests {
    static func failure(_ bytes: [UInt8]) -> TabIconsError? {
        do { _ = try ImageDecoder.decode(Data(bytes)); return nil } catch { return error }
    }

    /// TestImages/animated.webp with its VP8X canvas set to `side` × `side` (the frames stay small).
    static func animation(canvas side: Int) throws -> [UInt8] {
        var bytes = [UInt8](try Fixtures.data(Fixtures.testImage("animated.webp")))
        bytes.replaceSubrange(24..<27, with: WebPBytes.le24(side - 1))
        bytes.replaceSubrange(27..<30, with: WebPBytes.le24(side - 1))
        return bytes
    }

    @Test("an animation whose small frames sit on a 9999×9999 canvas is refused as tooLarge before libwebp allocates the canvas")
    func largeCanvasRefused() throws {
        let bytes = try Self.animation(canvas: 9999)
        let error = try #require(Self.failure(bytes))
        #expect(error.code == .tooLarge)
        #expect(
            error.message
                == "a 9999×9999 animated WebP canvas needs more than 256 MiB (about 1177 MiB with the input and the process)")
        // Charged: libwebp's two canvases, the copy kept, and the 200×200 first frame's decode.
        #expect(DecodeMemoryEstimate.bytes(Data(bytes), longestSideNeeded: 75) == bytes.count + 12 * 9999 * 9999 + 4 * 200 * 200)
    }

    @Test("an animation on a 2000×2000 canvas is charged its canvases and decodes")
    func smallerCanvasDecodes() throws {
        let bytes = try Self.animation(canvas: 2000)
        #expect(DecodeMemoryEstimate.bytes(Data(bytes), longestSideNeeded: 75) == bytes.count + 12 * 2000 * 2000 + 4 * 200 * 200)
        let image = try ImageDecoder.decode(Data(bytes))
        #expect(image.info.isAnimated)
        #expect(image.bitmap.width == 2000)
    }

    @Test("a still lossless WebP is charged libwebp's full-size ARGB and the (shrunk) output")
    func stillWebPCharged() throws {
        let data = try Fixtures.data(Fixtures.testImage("lossless.webp"))
        let image = try ImageDecoder.decode(data)
        let (w, h) = (image.bitmap.width, image.bitmap.height)
        #expect(DecodeMemoryEstimate.bytes(data, longestSideNeeded: nil) == data.count + 4 * w * h + 4 * w * h)
    }

    @Test("the decode-memory limit is Limits.maxDecodeMemory, 256 MiB by default, and a lower one refuses sooner")
    func oneDeclaredLimit() throws {
        #expect(DecodeOptions.Limits.default.maxDecodeMemory == 256 << 20)
        var limits = DecodeOptions.Limits.default
        limits.maxDecodeMemory = 40 << 20
        let png = PNGTestWriter.image(
            width: 3000, height: 1000, bitDepth: 8, colorType: 0, interlaced: false,
            zlib: PNGTestWriter.run(of: 0, count: 1000 * 3001))
        #expect(
            throws: TabIconsError(
                .tooLarge, "a 3000×1000 PNG decoded whole needs more than 40 MiB (about 44 MiB with the input and the process)",
                format: .png)
        ) {
            try ImageDecoder.decode(png, options: DecodeOptions(limits: limits))
        }
        #expect(try ImageDecoder.decode(png).bitmap.width == 3000)
    }

    @Test(
        "an input that ends inside a PNG, JPEG or WebP signature is truncated; one byte or another start is not recognised",
        arguments: [
            ([0xFF, 0xD8], ImageFormat.jpeg, "the input ends after 2 bytes, inside the JPEG signature"),
            ([0x89, 0x50], .png, "the input ends after 2 bytes, inside the PNG signature"),
            ([0x89, 0x50, 0x4E], .png, "the input ends after 3 bytes, inside the PNG signature"),
            (Array("RIFF".utf8), .webp, "the input ends after 4 bytes, inside the WebP (RIFF) signature"),
            (
                Array("RIFF".utf8) + [1, 0, 0, 0, 0x57, 0x45], .webp,
                "the input ends after 10 bytes, inside the WebP (RIFF) signature"
            )
        ] as [([UInt8], ImageFormat, String)])
    func cutSignatures(bytes: [UInt8], format: ImageFormat, message: String) throws {
        #expect(Self.failure(bytes) == TabIconsError(.truncated, message, format: format))
    }

    @Test(
        "not a cut signature: one byte, FF D9, RIFF of another kind, PNG's own short file",
        arguments: [
            [0xFF], [0x89], [0xFF, 0xD9], Array("RIFF".utf8) + [1, 0, 0, 0, 0x41, 0x56], Array("RIF".utf8)
        ] as [[UInt8]])
    func notCutSignatures(bytes: [UInt8]) throws {
        #expect(Self.failure(bytes)?.code == .unsupportedFormat)
        // Four bytes of `\x89PNG` are a PNG already, cut inside its signature (PNGChunks says so).
        #expect(
            Self.failure([0x89, 0x50, 0x4E, 0x47])
                == TabIconsError(.truncated, "the input ends inside the PNG signature", format: .png))
    }
}
