import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// One reader of a PNG's header (`PNGChunks.probe`): the decoder, the whole-decode estimate and
/// the streamed estimate all take the IHDR from it, so a header the decoder refuses is charged
/// nothing by either estimate, and a header it accepts is read the same way by all three.
@Suite("PNG header probe")
struct PNGHeaderProbeTests {
    /// A 4000×3000 8-bit RGBA header whose data could never fill it, with the IHDR CRC as written.
    static func header(damagingCRC: Bool = false, before: [UInt8] = []) -> Data {
        var bytes = [UInt8](
            PNGTestWriter.image(
                width: 4000, height: 3000, bitDepth: 8, colorType: 6, interlaced: false,
                before: before, zlib: PNGTestWriter.stored([0])))
        if damagingCRC { bytes[29] ^= 0xFF }  // the first byte of the IHDR CRC (8 + 8 + 13)
        return Data(bytes)
    }

    @Test("a header whose IHDR CRC is wrong is refused by the decoder and charged its bytes alone by both estimates")
    func damagedCRC() throws {
        let data = Self.header(damagingCRC: true)
        let error = #expect(throws: TabIconsError.self) { _ = try ImageDecoder.decode(data) }
        #expect(error?.code == .corrupt)
        #expect(error?.message == "IHDR: CRC error")
        #expect(data.withUnsafeBytes { PNGChunks.probe($0, limits: .default) } == nil)
        // Read off the raw IHDR bytes, the estimates used to charge 4000 × 3000 × 4 for it.
        #expect(DecodeMemoryEstimate.bytes(data, longestSideNeeded: 75) == data.count)
        #expect(Normalizer().normalizeMemoryEstimate(data) == data.count)
        #expect(Normalizer(options: NormalizeOptions(trim: true)).normalizeMemoryEstimate(data) == data.count)
    }

    @Test("a chunk before the image data that runs past the end is refused before the estimates read the IHDR")
    func chunkPastTheEnd() throws {
        // A tEXt chunk claiming 1 GiB, the file ending right after its type.
        let claim: [UInt8] = PNGBytes.be32(1 << 30) + Array("tEXt".utf8)
        let ihdr = PNGBytes.chunk("IHDR", PNGBytes.be32(4000) + PNGBytes.be32(3000) + [8, 6, 0, 0, 0])
        let data = Data(PNGBytes.signature + ihdr + claim)
        let error = #expect(throws: TabIconsError.self) { _ = try ImageDecoder.decode(data) }
        #expect(error?.code == .truncated)
        #expect(DecodeMemoryEstimate.bytes(data, longestSideNeeded: 75) == data.count)
        #expect(Normalizer().normalizeMemoryEstimate(data) == data.count)
    }

    @Test(
        "the decoder reads the header the probe reads, and the estimate is made from it",
        arguments: ["home.png", "palette-trns.png", "rgba16-32.png"])
    func sameHeader(_ name: String) throws {
        let data = try Data(contentsOf: Fixtures.testImage(name))
        let probed = try #require(data.withUnsafeBytes { PNGChunks.probe($0, limits: .default) })
        let decoded = try data.withUnsafeBytesTyped { bytes throws(TabIconsError) in
            try PNGRowDecoder(bytes, limits: .default).chunks
        }
        #expect(probed == decoded)
        let header = probed.header
        #expect(
            DecodeMemoryEstimate.bytes(data, longestSideNeeded: nil)
                == data.count + header.width * header.height * 4 + probed.libpngWorkingBytes
                + PNGRowDecoder.heldBytes(
                    width: header.width, height: header.height, bitDepth: header.bitDepth,
                    isInterlaced: header.isInterlaced, streamed: false))
    }

    @Test("a header past the size limits is charged its bytes alone, through the same probe")
    func limitsRefuse() throws {
        var strict = DecodeOptions.Limits.default
        strict.maxSide = 3999
        let data = Self.header()
        #expect(data.withUnsafeBytes { PNGChunks.probe($0, limits: strict) } == nil)
        #expect(
            data.withUnsafeBytes { PNGChunks.probe($0, limits: .default) }?.header
                == PNGChunks.Header(width: 4000, height: 3000, bitDepth: 8, colorType: 6))
        #expect(DecodeMemoryEstimate.bytes(data, longestSideNeeded: 75, limits: strict) == data.count)
        #expect(Normalizer(options: NormalizeOptions(limits: strict)).normalizeMemoryEstimate(data) == data.count)
    }
}
