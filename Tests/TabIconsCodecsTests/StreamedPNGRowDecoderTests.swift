import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// `PNGRowDecoder`'s final rows in order (Adam7 through its held even rows) against `PNGDecoder`'s
/// whole image (Adam7 passes placed directly; both checked against the PngSuite oracle in
/// PNGDecoderTests): the same rows, byte for byte, and the same error (code and words) for every file.
@Suite("Streamed PNG decoding (row by row)")
struct StreamedPNGRowDecoderTests {
    /// What reading `data` row by row gives: the pixels or the error (never nil: every PNG streams).
    static func readRows(_ data: Data) -> Result<[UInt8]?, TabIconsError> {
        Result { () throws(TabIconsError) -> [UInt8]? in
            try data.withUnsafeBytesTyped { bytes throws(TabIconsError) -> [UInt8]? in
                let decoder = try PNGRowDecoder(bytes, limits: .default)
                try decoder.start()
                var pixels = [UInt8](repeating: 0, count: decoder.width * decoder.height * 4)
                try pixels.withUnsafeMutableBufferPointer { buffer throws(TabIconsError) in
                    // In uneven batches, as a caller may ask for them.
                    var y = 0, batch = 1
                    while y < decoder.height {
                        let count = min(batch, decoder.height - y)
                        try decoder.readRows(into: buffer.baseAddress! + y * decoder.width * 4, count: count)
                        y += count
                        batch = batch % 5 + 1
                    }
                }
                return pixels
            }
        }
    }

    static func decodeWhole(_ data: Data) -> Result<DecodedImage, TabIconsError> {
        Result { () throws(TabIconsError) in try ImageDecoder.decode(data) }
    }

    @Test("every PNG gives PNGDecoder's pixels or its error, row by row", arguments: StreamedPNGInputs.all)
    func sameRows(input: StreamedPNGInputs.Input) throws {
        guard ImageFormat.sniff(input.data) == .png else { return }
        let whole = Self.decodeWhole(input.data)
        switch (Self.readRows(input.data), whole) {
        case (.success(let rows?), .success(let image)):
            #expect(rows == image.bitmap.pixels)
        case (.failure(let streamed), .failure(let wholeError)):
            #expect(streamed == wholeError)
        case (let streamed, let wholeResult):
            Issue.record("streamed \(streamed) but whole \(wholeResult)")
        }
    }

    @Test("the header facts are PNGDecoder's", arguments: StreamedPNGInputs.all)
    func sameInfo(input: StreamedPNGInputs.Input) throws {
        guard case .success(let image) = Self.decodeWhole(input.data) else { return }
        try input.data.withUnsafeBytes { bytes in
            let decoder = try PNGRowDecoder(bytes, limits: .default)
            #expect(decoder.width == image.info.pixelWidth)
            #expect(decoder.height == image.info.pixelHeight)
            #expect(decoder.hasAlpha == image.info.hasAlpha)
            #expect(decoder.bitDepth == image.info.bitDepth)
            #expect(decoder.colorModel == image.info.colorModel)
            #expect(decoder.isAnimated == image.info.isAnimated)
        }
    }

    @Test(
        "every valid PngSuite file streams, interlaced and 16-bit ones included",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func coverage() throws {
        var streamed = 0
        for input in StreamedPNGInputs.all where input.name.contains("pngsuite/") && !input.name.contains("/x") {
            switch Self.readRows(input.data) {
            case .success: streamed += 1
            case .failure(let error): Issue.record("\(input.name): \(error)")
            }
        }
        // The valid files of PngSuite and of libpng's copy of it (with its 9 interlaced extras):
        // 221, 99 of them interlaced or 16-bit, which streamed too since issue 17.
        #expect(streamed == 221)
    }

    @Test("a file cut inside its image data fails with PNGDecoder's truncated error, after rows were read")
    func truncatedMidStream() throws {
        let data = StreamedPNGInputs.made(width: 640, height: 480, seed: 3)
        let cut = data.prefix(data.count * 6 / 10)
        guard case .failure(let error) = Self.readRows(Data(cut)) else {
            Issue.record("a file cut at 60% read without error")
            return
        }
        #expect(error.code == .truncated)
        #expect(error.message == "read beyond end of data")
        #expect(Self.decodeWhole(Data(cut)) == .failure(error))
    }

    @Test("damaged image data fails with PNGDecoder's corrupt error")
    func corruptMidStream() throws {
        let data = StreamedPNGInputs.made(width: 640, height: 480, seed: 4)
        // A changed byte in the middle of the image data: the rows past it no longer inflate or
        // unfilter, found before the chunk's CRC at its end.
        var damaged = data
        damaged[data.count / 2] ^= 0x5A
        guard case .failure(let error) = Self.readRows(damaged) else {
            Issue.record("damaged image data read without error")
            return
        }
        #expect(error.code == .corrupt)
        #expect(Self.decodeWhole(damaged) == .failure(error))
        // The image data intact but its CRC changed: found at the chunk's end, after the rows.
        let idat = try #require(Self.chunkEnd(of: "IDAT", in: data))
        var crc = data
        crc[idat - 1] ^= 0x01
        guard case .failure(let crcError) = Self.readRows(crc) else {
            Issue.record("an IDAT with a wrong CRC read without error")
            return
        }
        #expect(crcError.code == .corrupt)
        #expect(crcError.message == "IDAT: CRC error")
        #expect(Self.decodeWhole(crc) == .failure(crcError))
    }

    /// The offset just past the CRC of the first chunk of `type`.
    static func chunkEnd(of type: String, in data: Data) -> Int? {
        var offset = 8
        for chunk in PNGEncoderTests.chunks([UInt8](data)) {
            offset += 12 + chunk.length
            if chunk.type == type { return offset }
        }
        return nil
    }
}
