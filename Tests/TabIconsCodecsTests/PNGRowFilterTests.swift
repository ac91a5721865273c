import CPNGEncode
import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs

/// The PNG writer's row filters, checked against the PNG specification's reconstruction (section
/// 9) written here byte by byte, over row lengths that cover the 16-byte vector loop, its tail and
/// rows shorter than one pixel's left neighbour.
@Suite("PNG row filters")
struct PNGRowFilterTests {
    static let filterMasks: [(name: String, type: UInt8, mask: Int32)] = [
        ("None", 0, Int32(TABICONS_PNG_FILTER_NONE)), ("Sub", 1, Int32(TABICONS_PNG_FILTER_SUB)),
        ("Up", 2, Int32(TABICONS_PNG_FILTER_UP)), ("Average", 3, Int32(TABICONS_PNG_FILTER_AVG)),
        ("Paeth", 4, Int32(TABICONS_PNG_FILTER_PAETH))
    ]

    @Test("each filter reconstructs to the row it was given", arguments: filterMasks.indices)
    func reconstructs(filterIndex: Int) {
        let filter = Self.filterMasks[filterIndex]
        var generator = SeededGenerator(seed: 12)
        for bpp in 1...4 {
            for count in [1, 2, 3, 4, 5, 15, 16, 17, 19, 20, 31, 32, 33, 47, 64, 100, 301] {
                let prior = (0..<count).map { _ in generator.byte() }
                let row = (0..<count).map { _ in generator.byte() }
                let out = Self.filter(mask: filter.mask, row: row, prior: prior, bpp: bpp)
                #expect(out[0] == filter.type, "\(filter.name) bpp \(bpp) count \(count): type byte")
                #expect(
                    Self.reconstruct(type: out[0], filtered: Array(out.dropFirst()), prior: prior, bpp: bpp) == row,
                    "\(filter.name) bpp \(bpp) count \(count)")
            }
        }
    }

    @Test("the first row filters against zeros, as the specification's missing row above")
    func firstRow() {
        let row: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80]
        let zeros = [UInt8](repeating: 0, count: row.count)
        for filter in Self.filterMasks {
            let out = Self.filter(mask: filter.mask, row: row, prior: zeros, bpp: 4)
            #expect(
                Self.reconstruct(type: out[0], filtered: Array(out.dropFirst()), prior: zeros, bpp: 4) == row, "\(filter.name)")
        }
        // Up against zeros is the row itself; Sub takes each pixel's left neighbour off.
        #expect(Self.filter(mask: Int32(TABICONS_PNG_FILTER_UP), row: row, prior: zeros, bpp: 4) == [2] + row)
        #expect(
            Self.filter(mask: Int32(TABICONS_PNG_FILTER_SUB), row: row, prior: zeros, bpp: 4) == [
                1, 10, 20, 30, 40, 40, 40, 40, 40
            ])
    }

    @Test("with every filter allowed, the row's smallest signed-magnitude sum wins, the earlier on a tie")
    func choosesAsLibpng() {
        var generator = SeededGenerator(seed: 5)
        for count in [3, 16, 40, 97] {
            for bpp in [1, 2, 3, 4] {
                // A row close to the one above (Up or Paeth wins), a ramp (Sub), noise (often None).
                let prior = (0..<count).map { _ in generator.byte() }
                let rows: [[UInt8]] = [
                    prior.map { $0 &+ UInt8(truncatingIfNeeded: generator.next() % 3) },
                    (0..<count).map { UInt8(truncatingIfNeeded: $0 * 3) },
                    (0..<count).map { _ in generator.byte() }
                ]
                for row in rows {
                    let out = Self.filter(mask: Int32(TABICONS_PNG_ALL_FILTERS), row: row, prior: prior, bpp: bpp)
                    let sums = Self.filterMasks.map { filter in
                        Self.filter(mask: filter.mask, row: row, prior: prior, bpp: bpp).dropFirst()
                            .reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) }
                    }
                    let expected = sums.firstIndex(of: sums.min()!)!
                    #expect(Int(out[0]) == expected, "count \(count) bpp \(bpp): sums \(sums)")
                    #expect(
                        Array(out.dropFirst())
                            == Array(
                                Self.filter(
                                    mask: Self.filterMasks[expected].mask, row: row,
                                    prior: prior, bpp: bpp
                                ).dropFirst()))
                }
            }
        }
    }

    @Test("encoded images of every colour type and width decode to their pixels")
    func encodedWidths() throws {
        var generator = SeededGenerator(seed: 9)
        for width in [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33] {
            // Smooth content so every filter gets chosen somewhere, with noise so none wins always.
            var pixels: [UInt8] = []
            for y in 0..<6 {
                for x in 0..<width {
                    let base = UInt8(truncatingIfNeeded: x * 9 + y * 5)
                    pixels += [base, base &+ generator.byte() % 4, UInt8(truncatingIfNeeded: y * 40), 128 + generator.byte() % 3]
                }
            }
            let bitmap = Bitmap(width: width, height: 6, pixels: pixels)
            #expect(try ImageDecoder.decode(Data(PNGEncoder.encode(bitmap))).bitmap == bitmap, "width \(width)")
        }
    }

    @Test("indices of 1, 2 and 4 bits are packed high bits first at every width")
    func packedIndices() throws {
        var generator = SeededGenerator(seed: 3)
        for (colours, depth) in [(2, 1), (4, 2), (16, 4)] {
            let palette: [[UInt8]] = (0..<colours).map { (i: Int) -> [UInt8] in
                let step = UInt8(i)
                return [step * 15, 255 - step * 15, step * 7, 255]
            }
            for width in [1, 2, 3, 5, 7, 8, 9, 13, 31] {
                let height = 40  // tall enough that the indexed form beats the truecolour one
                let pixels = (0..<(width * height)).flatMap { _ in palette[Int(generator.next() % UInt64(colours))] }
                let bitmap = Bitmap(width: width, height: height, pixels: pixels)
                let png = try PNGEncoder.encode(bitmap)
                #expect(try ImageDecoder.decode(Data(png)).bitmap == bitmap, "\(colours) colours, width \(width)")
                if png[25] == 3 { #expect(png[24] == UInt8(depth), "\(colours) colours, width \(width): bit depth") }
            }
        }
    }

    static func filter(mask: Int32, row: [UInt8], prior: [UInt8], bpp: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: row.count + 1)
        var scratch = [UInt8](repeating: 0, count: 2 * row.count)
        tabicons_png_filter_row(mask, row, prior, row.count, bpp, &out, &scratch)
        return out
    }

    /// The specification's reconstruction: Recon(x) = Filt(x) + predictor(a, b, c).
    static func reconstruct(type: UInt8, filtered: [UInt8], prior: [UInt8], bpp: Int) -> [UInt8] {
        var row = [UInt8](repeating: 0, count: filtered.count)
        for i in 0..<filtered.count {
            let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(prior[i]), c = i >= bpp ? Int(prior[i - bpp]) : 0
            let predictor: Int
            switch type {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            default:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            }
            row[i] = UInt8(truncatingIfNeeded: Int(filtered[i]) + predictor)
        }
        return row
    }
}
