import Testing
import TabIconsCore
@testable import TabIconsCodecs

/// The EXIF orientation parser on hand-made TIFF blocks: the values it must find, and the many
/// ways a block can be broken, none of which may do more than give orientation 1.
@Suite("EXIF orientation")
struct EXIFTests {
    /// A TIFF block with IFD0 at offset 8 holding `entries` (tag, type, value) in the given order.
    static func tiff(bigEndian: Bool, entries: [(tag: UInt16, type: UInt16, value: UInt32)]) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let hi = u16(UInt16(v >> 16)), lo = u16(UInt16(v & 0xFFFF))
            return bigEndian ? hi + lo : lo + hi
        }
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        bytes += u32(8) + u16(UInt16(entries.count))
        for entry in entries {
            // A SHORT sits left-justified in the 4-byte value field.
            let value = entry.type == 3 ? u16(UInt16(entry.value)) + [0, 0] : u32(entry.value)
            bytes += u16(entry.tag) + u16(entry.type) + u32(1) + value
        }
        return bytes + u32(0)
    }

    @Test("finds the tag in either byte order, with or without the Exif identifier", arguments: 1...8)
    func finds(_ orientation: Int) {
        for bigEndian in [false, true] {
            let block = Self.tiff(bigEndian: bigEndian, entries: [(0x0112, 3, UInt32(orientation))])
            #expect(EXIF.orientation(tiff: block).rawValue == orientation)
            #expect(EXIF.orientation(Array("Exif".utf8) + [0, 0] + block).rawValue == orientation)
            #expect(EXIF.orientation(block).rawValue == orientation)
        }
    }

    @Test("finds the tag among others, and accepts a LONG value")
    func amongOthers() {
        let block = Self.tiff(bigEndian: true, entries: [(0x010F, 2, 0), (0x0110, 2, 0), (0x0112, 4, 6), (0x011A, 5, 0)])
        #expect(EXIF.orientation(tiff: block).rawValue == 6)
    }

    @Test(
        "values outside 1–8 and wrong types mean 1",
        arguments: [
            (UInt16(3), UInt32(0)), (3, 9), (3, 0xFFFF), (4, 0x0001_0006), (2, 6), (7, 6)
        ])
    func invalidValues(type: UInt16, value: UInt32) {
        #expect(EXIF.orientation(tiff: Self.tiff(bigEndian: false, entries: [(0x0112, type, value)])).rawValue == 1)
    }

    @Test("no orientation tag, an empty IFD, or no block at all mean 1")
    func absent() {
        #expect(EXIF.orientation(tiff: Self.tiff(bigEndian: false, entries: [(0x010F, 2, 0)])).rawValue == 1)
        #expect(EXIF.orientation(tiff: Self.tiff(bigEndian: true, entries: [])).rawValue == 1)
        #expect(EXIF.orientation([]).rawValue == 1)
        #expect(EXIF.orientation(Array("Exif".utf8) + [0, 0]).rawValue == 1)
    }

    @Test("a bad byte-order mark means 1")
    func badHeader() {
        var block = Self.tiff(bigEndian: false, entries: [(0x0112, 3, 6)])
        block[1] = 0x4D  // "IM"
        #expect(EXIF.orientation(tiff: block).rawValue == 1)
        block = Self.tiff(bigEndian: true, entries: [(0x0112, 3, 6)])
        block[3] = 0x2B  // BigTIFF's 43 is not EXIF
        #expect(EXIF.orientation(tiff: block).rawValue == 1)
    }

    @Test("offsets and counts that point past the block mean 1")
    func outOfBounds() {
        var block = Self.tiff(bigEndian: true, entries: [(0x0112, 3, 6)])
        block[4...7] = [0xFF, 0xFF, 0xFF, 0xF0]  // IFD0 far beyond the end
        #expect(EXIF.orientation(tiff: block).rawValue == 1)
        block[4...7] = [0x7F, 0xFF, 0xFF, 0xFF]
        #expect(EXIF.orientation(tiff: block).rawValue == 1)
        block = Self.tiff(bigEndian: false, entries: [(0x010F, 2, 0)])
        block[8...9] = [0xFF, 0xFF]  // 65535 entries in a 26-byte block
        #expect(EXIF.orientation(tiff: block).rawValue == 1)
    }

    @Test("every truncation of a valid block gives 1 or the full answer, never a crash")
    func truncations() {
        let block = Self.tiff(bigEndian: false, entries: [(0x010F, 2, 0), (0x0112, 3, 8)])
        for length in 0...block.count {
            let found = EXIF.orientation(tiff: Array(block.prefix(length)))
            // The SHORT value is whole once the entry's first 10 bytes are there (8 + 2 + 12 + 10).
            #expect(found.rawValue == (length >= 32 ? 8 : 1), "length \(length)")
        }
    }

    @Test("random bytes behind a valid header never crash and give 1–8")
    func randomBytes() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        for round in 0..<2_000 {
            let length = 8 + round % 64
            var block = (0..<length).map { _ in next() }
            block[0...3] = round % 2 == 0 ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
            if round % 3 == 0 { block[4...7] = round % 2 == 0 ? [8, 0, 0, 0] : [0, 0, 0, 8] }
            #expect((1...8).contains(EXIF.orientation(tiff: block).rawValue))
        }
    }
}

// The reader on hand-made IFDs of every value type and both byte orders (formerly its own suite).
extension EXIFTests {
    /// A TIFF header and IFD0 holding `entries` (tag, type, count, value), in either byte order.
    static func tiffCounted(
        bigEndian: Bool, entries: [(tag: Int, type: Int, count: Int, value: Int)],
        exifPrefix: Bool = false
    ) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            let b = [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
            return bigEndian ? b.reversed() : b
        }
        func u32(_ v: Int) -> [UInt8] {
            let b = (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
            return bigEndian ? b.reversed() : b
        }
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        bytes += u16(42) + u32(8) + u16(entries.count)
        for entry in entries {
            // SHORT values sit in the first two bytes of the value field, LONG ones fill it.
            let value = entry.type == 3 ? u16(entry.value) + [0, 0] : u32(entry.value)
            bytes += u16(entry.tag) + u16(entry.type) + u32(entry.count) + value
        }
        bytes += u32(0)
        return (exifPrefix ? [0x45, 0x78, 0x69, 0x66, 0, 0] : []) + bytes
    }

    static func readOrientation(_ bytes: [UInt8]) -> Int { EXIF.orientation(bytes).rawValue }

    @Test("orientation is read in both byte orders, with or without the Exif prefix", arguments: 1...8)
    func readsEveryValue(_ value: Int) {
        let otherTag = (tag: 0x010F, type: 2, count: 4, value: 0)  // Make, before Orientation
        for bigEndian in [false, true] {
            for prefix in [false, true] {
                let bytes = Self.tiffCounted(
                    bigEndian: bigEndian, entries: [otherTag, (0x0112, 3, 1, value)],
                    exifPrefix: prefix)
                #expect(Self.readOrientation(bytes) == value, "bigEndian \(bigEndian), prefix \(prefix)")
            }
        }
    }

    @Test("a LONG orientation is accepted")
    func longType() {
        #expect(Self.readOrientation(Self.tiffCounted(bigEndian: true, entries: [(0x0112, 4, 1, 6)])) == 6)
    }

    @Test("out-of-range values, a missing tag and odd types mean 1")
    func invalidValuesOfTheReader() {
        #expect(Self.readOrientation(Self.tiffCounted(bigEndian: false, entries: [(0x0112, 3, 1, 0)])) == 1)
        #expect(Self.readOrientation(Self.tiffCounted(bigEndian: false, entries: [(0x0112, 3, 1, 9)])) == 1)
        #expect(Self.readOrientation(Self.tiffCounted(bigEndian: false, entries: [(0x0112, 3, 2, 6)])) == 1)
        #expect(Self.readOrientation(Self.tiffCounted(bigEndian: false, entries: [(0x0112, 2, 1, 6)])) == 1)
        #expect(Self.readOrientation(Self.tiffCounted(bigEndian: false, entries: [(0x0110, 3, 1, 6)])) == 1)
    }

    @Test("damaged TIFF structures mean 1, never an out-of-bounds read")
    func damagedStructures() {
        let good = Self.tiffCounted(bigEndian: false, entries: [(0x0112, 3, 1, 6)])
        #expect(Self.readOrientation(good) == 6)
        #expect(Self.readOrientation([]) == 1)
        #expect(Self.readOrientation(Array("Exif".utf8)) == 1)
        #expect(Self.readOrientation([0x49, 0x4D, 42, 0, 8, 0, 0, 0]) == 1)  // mixed byte-order mark
        // Every prefix that ends before the orientation value does (bytes 18–19 of 26).
        for length in 0..<20 {
            #expect(Self.readOrientation(Array(good.prefix(length))) == 1, "cut at \(length)")
        }
        #expect(Self.readOrientation(Array(good.prefix(20))) == 6)
        var farOffset = good
        farOffset[4] = 0xF0; farOffset[5] = 0xFF; farOffset[6] = 0xFF; farOffset[7] = 0x7F
        #expect(Self.readOrientation(farOffset) == 1)
        var manyEntries = Self.tiffCounted(bigEndian: false, entries: [(0x0110, 3, 1, 6)])
        manyEntries[8] = 0xFF; manyEntries[9] = 0xFF  // 65535 entries claimed in a 26-byte block
        #expect(Self.readOrientation(manyEntries) == 1)
        var badMagic = good
        badMagic[2] = 43
        #expect(Self.readOrientation(badMagic) == 1)
    }
}
