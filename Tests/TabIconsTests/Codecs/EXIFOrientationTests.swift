import Testing
@testable import TabIcons
@testable import TabIconsCore
@testable import TabIconsCodecs
@testable import TabIconsNormalize

@Suite("EXIF orientation reader")
struct EXIFOrientationTests {
    /// A TIFF header and IFD0 holding `entries` (tag, type, count, value), in either byte order.
    static func tiff(bigEndian: Bool, entries: [(tag: Int, type: Int, count: Int, value: Int)],
                     exifPrefix: Bool = false) -> [UInt8] {
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

    static func read(_ bytes: [UInt8]) -> Int { EXIF.orientation(bytes).rawValue }

    @Test("orientation is read in both byte orders, with or without the Exif prefix", arguments: 1...8)
    func readsEveryValue(_ value: Int) {
        let otherTag = (tag: 0x010F, type: 2, count: 4, value: 0) // Make, before Orientation
        for bigEndian in [false, true] {
            for prefix in [false, true] {
                let bytes = Self.tiff(bigEndian: bigEndian, entries: [otherTag, (0x0112, 3, 1, value)],
                                      exifPrefix: prefix)
                #expect(Self.read(bytes) == value, "bigEndian \(bigEndian), prefix \(prefix)")
            }
        }
    }

    @Test("a LONG orientation is accepted")
    func longType() {
        #expect(Self.read(Self.tiff(bigEndian: true, entries: [(0x0112, 4, 1, 6)])) == 6)
    }

    @Test("out-of-range values, a missing tag and odd types mean 1")
    func invalidValues() {
        #expect(Self.read(Self.tiff(bigEndian: false, entries: [(0x0112, 3, 1, 0)])) == 1)
        #expect(Self.read(Self.tiff(bigEndian: false, entries: [(0x0112, 3, 1, 9)])) == 1)
        #expect(Self.read(Self.tiff(bigEndian: false, entries: [(0x0112, 3, 2, 6)])) == 1)
        #expect(Self.read(Self.tiff(bigEndian: false, entries: [(0x0112, 2, 1, 6)])) == 1)
        #expect(Self.read(Self.tiff(bigEndian: false, entries: [(0x0110, 3, 1, 6)])) == 1)
    }

    @Test("damaged TIFF structures mean 1, never an out-of-bounds read")
    func damagedStructures() {
        let good = Self.tiff(bigEndian: false, entries: [(0x0112, 3, 1, 6)])
        #expect(Self.read(good) == 6)
        #expect(Self.read([]) == 1)
        #expect(Self.read(Array("Exif".utf8)) == 1)
        #expect(Self.read([0x49, 0x4D, 42, 0, 8, 0, 0, 0]) == 1) // mixed byte-order mark
        // Every prefix that ends before the orientation value does (bytes 18–19 of 26).
        for length in 0..<20 {
            #expect(Self.read(Array(good.prefix(length))) == 1, "cut at \(length)")
        }
        #expect(Self.read(Array(good.prefix(20))) == 6)
        var farOffset = good
        farOffset[4] = 0xF0; farOffset[5] = 0xFF; farOffset[6] = 0xFF; farOffset[7] = 0x7F
        #expect(Self.read(farOffset) == 1)
        var manyEntries = Self.tiff(bigEndian: false, entries: [(0x0110, 3, 1, 6)])
        manyEntries[8] = 0xFF; manyEntries[9] = 0xFF // 65535 entries claimed in a 26-byte block
        #expect(Self.read(manyEntries) == 1)
        var badMagic = good
        badMagic[2] = 43
        #expect(Self.read(badMagic) == 1)
    }
}
