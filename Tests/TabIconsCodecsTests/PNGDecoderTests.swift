import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// The PNG decoder against files nobody here made: PngSuite, libpng's test images and the broken
/// files of libpng, image-png and Pillow. Expected pixels come from `Fixtures/png/expected.json`
/// (see `make_expected.py` for how Pillow's values are turned into libpng's gamma semantics).
@Suite("PNG decoding")
struct PNGDecoderTests {
    // MARK: Pixels against the oracle

    /// How gAMA files are judged: the oracle applies libpng's simplified-API gamma rule to
    /// Pillow's samples (file gamma × 2.2 more than 5% from 1 → corrected with libpng's exponent),
    /// so g03…g25 and the many gAMA 1.0 files are held to *exact* values for 8-bit sources, and to
    /// ±1 (alpha and premultiplied colour) for 16-bit ones, like every other 16-bit file.
    @Test(
        "every valid PngSuite file decodes to the oracle's pixels", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: PNGOracle.keys(under: "pngsuite"))
    func pngSuiteFile(key: String) throws {
        try expectOracle(key)
    }

    @Test("the oracle covers every valid PngSuite file", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func oracleCoversPngSuite() throws {
        let valid = try Fixtures.corpusFiles("pngsuite", extensions: ["png"])
            .map(\.lastPathComponent).filter { !$0.hasPrefix("x") }
        #expect(valid.count == 161)
        #expect(PNGOracle.keys(under: "pngsuite") == valid.map { "pngsuite/" + $0 })
    }

    @Test(
        "libpng's pngsuite, testpngs and badpal files decode to the oracle's pixels",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: PNGOracle.keys(under: "libpng"))
    func libpngFile(key: String) throws {
        try expectOracle(key)
    }

    @Test(
        "gAMA is applied as libpng does: PngSuite's gAMA 1.0 gray ramp is brightened, a file without gAMA is not",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func gammaRule() throws {
        // basn0g08: gAMA 1.0 (linear samples), 0,1,2,3… along the first row; libpng encodes them
        // for a 2.2 display: 255 × (v/255)^0.45455.
        let linear = try decode("pngsuite/basn0g08.png")
        #expect(Array(linear.bitmap.pixels.prefix(16)) == [0, 0, 0, 255, 21, 21, 21, 255, 28, 28, 28, 255, 34, 34, 34, 255])
        // f00n0g08 has no gAMA: samples pass through as Pillow reads them.
        let plain = try decode("pngsuite/f00n0g08.png")
        let oracle = try #require(PNGOracle.entries["pngsuite/f00n0g08.png"])
        #expect(oracle.gammaExponent == nil)
        #expect(PNGOracleDigest.sha256Hex(plain.bitmap.pixels) == oracle.sha256)
    }

    @Test(
        "a 16-bit file without gAMA is not brightened", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: ["gray-16.png", "rgb-16.png", "rgb-alpha-16.png"])
    func sixteenBitWithoutGamma(name: String) throws {
        let key = "libpng/testpngs/" + name
        let oracle = try #require(PNGOracle.entries[key])
        #expect(oracle.gammaExponent == nil)
        let image = try decode(key)
        // The file's own samples rounded to 8 bits (the oracle), not the 1/2.2 power of them.
        let expected = try referencePixels(oracle)
        #expect(PNGOracle.premultipliedDistance(image.bitmap.pixels, expected) <= 1)
    }

    @Test(
        "Adam7 16-bit files decode exactly like their non-interlaced twins",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            ("basi0g16", "basn0g16"), ("basi2c16", "basn2c16"), ("basi4a16", "basn4a16"), ("basi6a16", "basn6a16")
        ])
    func interlaced16(interlaced: String, plain: String) throws {
        let a = try decode("pngsuite/\(interlaced).png"), b = try decode("pngsuite/\(plain).png")
        #expect(a.bitmap == b.bitmap)
    }

    // MARK: What the decoder reports

    @Test(
        "bit depth, colour model and alpha come from the file", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: PNGOracle.keys(under: "pngsuite"))
    func info(key: String) throws {
        let oracle = try #require(PNGOracle.entries[key])
        let image = try decode(key)
        #expect(image.info.format == .png)
        #expect(image.info.bitDepth == oracle.bitDepth)
        #expect(image.info.colorModel.rawValue == oracle.colorModel)
        #expect(image.info.hasAlpha == oracle.hasAlpha)
        #expect(image.info.orientation.rawValue == 1)
        #expect(!image.info.isAnimated)
        #expect(image.info.pixelWidth == oracle.width && image.info.pixelHeight == oracle.height)
    }

    @Test(
        "transparency is read off the pixels: tRNS files have transparent pixels, opaque ones do not",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func transparentPixels() throws {
        #expect(try decode("pngsuite/tbbn0g04.png").info.hasTransparentPixels)
        #expect(try decode("pngsuite/tbrn2c08.png").info.hasTransparentPixels)
        #expect(try decode("pngsuite/tp1n3p08.png").info.hasTransparentPixels)
        // tp0n3p08: palette without tRNS; basn2c08: RGB without alpha.
        let opaque = try decode("pngsuite/tp0n3p08.png")
        #expect(!opaque.info.hasAlpha && !opaque.info.hasTransparentPixels)
        #expect(try !decode("pngsuite/basn2c08.png").info.hasTransparentPixels)
    }

    @Test(
        "an APNG is animated when acTL declares more than one frame; the pixels are the default image",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func apng() throws {
        let animated = try decode("bad/image-png-bugfixes/issue#202.png")  // acTL: 20 frames
        #expect(animated.info.isAnimated)
        #expect(animated.bitmap.width == 100 && animated.bitmap.height == 100)
        #expect(try decode("bad/pillow/apng_syntax_num_frames_invalid.png").info.isAnimated)  // 2^31+1 frames
        #expect(try !decode("bad/pillow/apng_split_fdat_zero_chunk.png").info.isAnimated)  // acTL: 1 frame
    }

    @Test(
        "palette indices past the palette's end decode as opaque black (libpng testpngs/badpal)",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func outOfRangePalette() throws {
        // small-palette-2: a 2-entry palette, indices 0…3.
        let image = try decode("libpng/testpngs/badpal/small-palette-2.png")
        #expect(image.bitmap.pixels == [255, 255, 255, 255, 128, 128, 255, 255, 255, 128, 128, 255, 0, 0, 0, 255])
    }

    // MARK: Broken files

    /// The 14 intentionally broken PngSuite files. All are `corrupt` to the PNG decoder, with
    /// libpng's words. At the front door, the three whose damage reaches the first four bytes
    /// (`\x89PNG`) do not sniff as PNG, so `ImageDecoder.decode` calls them `unsupportedFormat`
    /// (showing the bytes they start with); the three with mangled line endings after `\x89PNG`
    /// reach libpng and get its clearer reason.
    @Test(
        "the 14 broken PngSuite files are refused with a code and libpng's reason",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: [
            ("xs1n0g01", "Not a PNG file", true), ("xs2n0g01", "Not a PNG file", true),
            ("xs4n0g01", "Not a PNG file", true), ("xs7n0g01", "PNG file corrupted by ASCII conversion", false),
            ("xcrn0g04", "PNG file corrupted by ASCII conversion", false),
            ("xlfn0g04", "PNG file corrupted by ASCII conversion", false),
            ("xhdn0g08", "IHDR: CRC error", false), ("xc1n0g08", "Invalid IHDR data", false),
            ("xc9n2c08", "Invalid IHDR data", false), ("xd0n2c08", "Invalid IHDR data", false),
            ("xd3n2c08", "Invalid IHDR data", false), ("xd9n2c08", "Invalid IHDR data", false),
            ("xdtn0g01", "IEND: out of place", false), ("xcsn0g01", "IDAT: CRC error", false)
        ])
    func brokenPngSuite(name: String, reason: String, notSniffed: Bool) throws {
        let data = try Fixtures.data(Fixtures.corpus("pngsuite/\(name).png"))
        let direct = try #require(throws: TabIconsError.self) { try decodePNG(data) }
        #expect(direct.code == .corrupt)
        #expect(direct.message == reason)
        #expect(direct.format == .png)
        let front = try #require(throws: TabIconsError.self) { try ImageDecoder.decode(data) }
        #expect(front.code == (notSniffed ? .unsupportedFormat : .corrupt))
    }

    @Test(
        "libpng's crasher files: the huge-chunk ones are refused before libpng sees them",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus),
        arguments: ["bad/libpng-crashers", "libpng/testpngs/crashers"])
    func libpngCrashers(folder: String) throws {
        let files = try Fixtures.corpusFiles(folder, extensions: ["png"])
        #expect(files.count == 23)
        for url in files {
            let name = url.lastPathComponent
            let outcome = PNGOutcome(try Fixtures.data(url))
            if name.hasPrefix("huge_") && name != "huge_IDAT.png" {
                // The walker's message: libpng never allocated the 1 GiB the chunk declares.
                #expect(outcome.code == .truncated, "\(name)")
                #expect(
                    outcome.message.contains("chunk of 1073741823 bytes at byte 33 runs past the end of the 57-byte input"),
                    "\(name)")
            } else {
                let expected: [String: PNGOutcome] = [
                    "huge_IDAT.png": .failed(.truncated, "read beyond end of data"),
                    "bad_iCCP.png": .failed(.corrupt, "IHDR: CRC error"),
                    "badadler.png": .failed(.corrupt, "IDAT: incorrect data check"),
                    "badcrc.png": .failed(.corrupt, "IDAT: CRC error"),
                    "empty_ancillary_chunks.png": .decoded(1, 1)
                ]
                #expect(outcome == expected[name], "\(name)")
            }
        }
    }

    @Test("image-png's bug-fix files decode or fail with a code", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func imagePngBugfixes() throws {
        let expected: [String: PNGOutcome] = [
            "F-exif-chunk-early.png": .decoded(400, 400), "acid2.png": .decoded(2, 2), "cicp_pq.png": .decoded(8, 8),
            "gama-srgb-order-issue#304.png": .decoded(320, 480), "invalid_palette_index.png": .decoded(10, 10),
            "issue#1825.png": .decoded(64, 64), "issue#202.png": .decoded(100, 100), "issue#403.png": .decoded(100, 50),
            "issue#430.png": .decoded(568, 153), "large-text-chunks-issue#337.png": .decoded(32, 32),
            "x_consecutive_idat.png": .failed(.truncated, "Not enough image data"),
            "x_ihdr_missing.png": .failed(.corrupt, "missing IHDR: the first chunk is IDAT"),
            "x_image-issue#1075.png": .failed(
                .truncated,
                "Not enough image data: 24 bytes from the first IDAT cannot inflate to the 4452777 bytes of rows a 1024×1449 image needs"
            ),
            "x_interlaced_chck.png": .failed(.corrupt, "IDAT: CRC error"),
            "x_issue#214.png": .failed(.corrupt, "invalid image size 0×3"),
            "x_issue#230.0.png": .failed(.corrupt, "IHDR: 4293328897×0 is out of range (PNG unsigned integer out of range)"),
            "x_issue#230.1.png": .failed(
                .corrupt, "IHDR: 4294967295×536883232 is out of range (PNG unsigned integer out of range)"),
            "x_unexpected_eof.png": .failed(.corrupt, "R[00]y[00]: invalid chunk type")
        ]
        try expectOutcomes(folder: "bad/image-png-bugfixes", extensions: ["png"], expected)
    }

    /// Pillow's broken PNGs. `truncated_end_chunk.png` decodes: its image data is complete and
    /// only a chunk after it is cut, which libpng never reads. The zTXt bomb decodes: libpng
    /// inflates ancillary chunks only up to its 8 MB chunk limit.
    @Test("Pillow's broken PNGs decode or fail with a code", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func pillowBrokenFiles() throws {
        let expected: [String: PNGOutcome] = [
            "apng_split_fdat_zero_chunk.png": .decoded(128, 64), "apng_syntax_num_frames_invalid.png": .decoded(128, 64),
            "apng_syntax_num_frames_zero.png": .failed(.corrupt, "IEND: out of place"),
            "broken.png": .failed(.corrupt, "[F4][A8][81][E1]: invalid chunk type"),
            "broken_data_stream.png": .failed(.corrupt, "bad adaptive filter value"),
            "cross_scan_line.png": .decoded(2, 2), "padded_idat.png": .decoded(256, 10),
            "png_decompression_dos.png": .decoded(1, 1), "tRNS_null_1x1.png": .decoded(1, 1),
            "truncated_end_chunk.png": .decoded(128, 128),
            "truncated_image.png": .failed(.truncated, "read beyond end of data"),
            "unknown_compression_method.png": .decoded(57, 57)
        ]
        try expectOutcomes(folder: "bad/pillow", extensions: ["png"], expected)
        // A PNG that lost its first byte: not PNG to the sniffer, not PNG to libpng.
        let bin = try Fixtures.data(Fixtures.corpus("bad/pillow/pngtest_bad.png.bin"))
        #expect(PNGOutcome(bin) == .failed(.corrupt, "Not a PNG file"))
        #expect((try? ImageDecoder.decode(bin)) == nil)
    }

    // MARK: Limits and structure, with bytes built here

    @Test("a header claiming 100,000 × 100,000 px is tooLarge before any pixel buffer exists")
    func hugeHeader() throws {
        let png = PNGBytes.image(width: 100_000, height: 100_000)
        let error = try #require(throws: TabIconsError.self) { try ImageDecoder.decode(Data(png)) }
        #expect(error.code == .tooLarge)
        // The limit's own message: the check ran on the IHDR numbers, before libpng or a buffer.
        #expect(error.message == "100000×100000 px exceeds the limit of 32768 px a side")
        // Within the side limit but past the pixel limit.
        let wide = PNGBytes.image(width: 20_000, height: 20_000)
        #expect(throws: TabIconsError.self) { try ImageDecoder.decode(Data(wide)) }
        let custom = DecodeOptions(limits: .init(maxPixels: 99))
        let small = try #require(throws: TabIconsError.self) {
            try ImageDecoder.decode(Data(PNGBytes.image(width: 10, height: 10)), options: custom)
        }
        #expect(small.code == .tooLarge)
    }

    @Test("the bytes built by these tests are a valid PNG when the size is sane")
    func builtBytesDecode() throws {
        let image = try ImageDecoder.decode(Data(PNGBytes.image(width: 2, height: 1)))
        #expect(image.bitmap.pixels == [0, 0, 0, 255, 0, 0, 0, 255])
        #expect(image.info.colorModel == .gray && image.info.bitDepth == 8 && !image.info.hasAlpha)
    }

    @Test("a chunk before the image data that runs past the input is truncated; a cut signature too")
    func structure() throws {
        var png = PNGBytes.signature + PNGBytes.chunk("IHDR", PNGBytes.ihdr(width: 1, height: 1))
        png += [0, 0, 0, 40] + Array("tEXt".utf8) + Array("abc".utf8)
        #expect(
            PNGOutcome(Data(png))
                == .failed(.truncated, "tEXt chunk of 40 bytes at byte 33 runs past the end of the 44-byte input"))
        let cut = PNGBytes.signature + PNGBytes.chunk("IHDR", PNGBytes.ihdr(width: 1, height: 1))
        #expect(PNGOutcome(Data(cut)).code == .truncated)
        #expect(PNGOutcome(Data(PNGBytes.signature.prefix(5))).code == .truncated)
        // A length past 2^31-1 is not PNG at all.
        let overlong =
            PNGBytes.signature + PNGBytes.chunk("IHDR", PNGBytes.ihdr(width: 1, height: 1))
            + [0x80, 0, 0, 0] + Array("tEXt".utf8) + [0, 0, 0, 0]
        #expect(PNGOutcome(Data(overlong)).code == .corrupt)
    }

    @Test("after the image data nothing is read: a 1 GiB chunk there is never allocated, the image decodes")
    func afterImageData() throws {
        let image = PNGBytes.image(width: 2, height: 1)
        let withoutIEND = Array(image.dropLast(12))
        let png = withoutIEND + [0x3F, 0xFF, 0xFF, 0xFF] + Array("zTXt".utf8) + Array("key".utf8)
        #expect(PNGOutcome(Data(png)) == .decoded(2, 1))
    }

    @Test("the CRC-32 and SHA-256 helpers match published values")
    func helpers() {
        // Every PNG ends with IEND's CRC AE 42 60 82; SHA-256("abc") is FIPS 180-2's example.
        #expect(Array("IEND".utf8).withUnsafeBytes { PNGChunks.crc32($0) } == 0xAE42_6082)
        #expect(
            PNGOracleDigest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(PNGOracleDigest.sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("libpng's messages map to codes by their words")
    func messageCodes() {
        #expect(PNGDecoder.code(forLibpngMessage: "read beyond end of data") == .truncated)
        #expect(PNGDecoder.code(forLibpngMessage: "Not enough image data") == .truncated)
        #expect(PNGDecoder.code(forLibpngMessage: "IDAT: incorrect data check") == .corrupt)
        #expect(PNGDecoder.code(forLibpngMessage: "IHDR: CRC error") == .corrupt)
        #expect(PNGDecoder.code(forLibpngMessage: "png_image_read: out of memory") == .tooLarge)
    }

    // MARK: Helpers

    private func decode(_ corpusPath: String) throws -> DecodedImage {
        try ImageDecoder.decode(try Fixtures.data(Fixtures.corpus(corpusPath)))
    }

    private func expectOracle(_ key: String) throws {
        let oracle = try #require(PNGOracle.entries[key])
        let image = try decode(key)
        #expect(image.bitmap.width == oracle.width && image.bitmap.height == oracle.height)
        if oracle.tolerance == 0 {
            #expect(PNGOracleDigest.sha256Hex(image.bitmap.pixels) == oracle.sha256, "\(key)")
        } else {
            let expected = try referencePixels(oracle)
            #expect(PNGOracle.premultipliedDistance(image.bitmap.pixels, expected) <= 1, "\(key)")
        }
    }

    /// The reference RGBA of a 16-bit file, checked against the oracle's digest before use (so a
    /// decoder bug cannot make the reference agree with itself).
    private func referencePixels(_ oracle: PNGOracle.Entry) throws -> [UInt8] {
        let path = try #require(oracle.reference)
        let reference = try ImageDecoder.decode(try Fixtures.data(Fixtures.fixture("png/" + path)))
        try #require(PNGOracleDigest.sha256Hex(reference.bitmap.pixels) == oracle.sha256)
        return reference.bitmap.pixels
    }

    private func expectOutcomes(folder: String, extensions: [String], _ expected: [String: PNGOutcome]) throws {
        let files = try Fixtures.corpusFiles(folder, extensions: extensions)
        #expect(files.map(\.lastPathComponent).sorted() == expected.keys.sorted())
        for url in files {
            #expect(PNGOutcome(try Fixtures.data(url)) == expected[url.lastPathComponent], "\(url.lastPathComponent)")
        }
    }

    private func decodePNG(_ data: Data) throws(TabIconsError) -> DecodedImage {
        try data.withUnsafeBytesTyped { bytes throws(TabIconsError) in try PNGDecoder.decode(bytes, options: DecodeOptions()) }
    }
}

/// What decoding one file came to: its size, or an error's code and message.
enum PNGOutcome: Equatable, CustomStringConvertible {
    case decoded(Int, Int)
    case failed(TabIconsError.Code, String)

    /// Decodes through the PNG decoder itself (not the sniffer), so every file reaches libpng.
    init(_ data: Data) {
        do {
            let image = try data.withUnsafeBytesTyped { bytes throws(TabIconsError) in
                try PNGDecoder.decode(bytes, options: DecodeOptions())
            }
            self = .decoded(image.bitmap.width, image.bitmap.height)
        } catch {
            self = .failed(error.code, error.message)
        }
    }

    var code: TabIconsError.Code? { if case .failed(let code, _) = self { code } else { nil } }
    var message: String { if case .failed(_, let message) = self { message } else { "" } }
    var description: String {
        switch self {
        case .decoded(let w, let h): "decoded \(w)×\(h)"
        case .failed(let code, let message): "\(code): \(message)"
        }
    }
}
