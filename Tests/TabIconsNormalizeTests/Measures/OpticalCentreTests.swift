import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize

/// `--centre optical` (SPEC §3a), measured after it acts: a glyph the `off-centre` lint would flag
/// moved toward the centre by as much as it is off (bounds or weight, the lesser), at most 1 pt;
/// a glyph centred by eye or drawn heavy on one side left alone.
@Suite("--centre optical, measured after it acts")
struct OpticalCentreTests {
    static let centre = NormalizeOptions(opticalCentre: 0.5)

    /// A 24-unit ring of radius 8 at (12 + dx, 12 + dy), and whatever `extra` adds.
    static func ring(dx: Double = 0, dy: Double = 0, extra: String = "") -> Data {
        Data(
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="black" "#
                + #"stroke-width="2"><circle cx="\#(12 + dx)" cy="\#(12 + dy)" r="8"/>\#(extra)</svg>"#).utf8)
    }

    static func measures(_ icon: NormalizedIcon) throws -> IconMeasures {
        let largest = try #require(icon.renditions.max { $0.scale < $1.scale })
        return IconMeasures.measured(largest.bitmap, scale: largest.scale, box: .regular)
    }

    @Test("a glyph moved in its artboard: moved back, at most 1 pt; the vector file is the one drawn")
    func movedBack() throws {
        // Units of 24 in a 25 pt box: 1 unit is 1.04 pt.
        for (dx, dy) in [(0.6, 0.0), (0, -0.8), (1.5, 0), (-3, 2)] {
            let data = Self.ring(dx: dx, dy: dy)
            let before = try Self.measures(Normalizer().normalize(data))
            let icon = try Normalizer(options: Self.centre).normalize(data)
            let after = try Self.measures(icon)
            for axis in 0..<2 {
                let off = before.boundsCentre[axis]
                guard abs(off) >= 0.5 else {
                    #expect(after.boundsCentre[axis] == off)
                    continue
                }
                let expected = off - (off > 0 ? 1 : -1) * min(1, abs(off), abs(before.centre[axis]))
                // The bounds are found in whole pixels at 3×: within 1/3 pt.
                #expect(abs(after.boundsCentre[axis] - expected) <= 0.34, "\(dx),\(dy) axis \(axis): \(after) from \(before)")
                #expect(abs(after.centre[axis]) < abs(before.centre[axis]) - 0.3)
            }
            // What --vector writes is what was drawn.
            let planned = try Normalizer(options: Self.centre).planned(data)
            let file = try #require(try Normalizer(options: Self.centre).vectorFile(data, icon: planned, target: .svg)?.get())
            #expect(icon.renditions == (try Normalizer().normalize(Data(file))).renditions)
        }
    }

    @Test("centred by eye, or drawn heavy on one side: left where the rule put it")
    func leftAlone() throws {
        // A play triangle placed so its weight is centred (its bounds are not); a ring with a heavy
        // bar below it inside the same bounds (its weight is low, its bounds centred).
        let play = Data(
            #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><path d="M7.5 4 L20.5 12 L7.5 20 Z"/></svg>"#
                .utf8)
        let heavy = Self.ring(extra: #"<rect x="6" y="14" width="12" height="5" fill="black"/>"#)
        for data in [play, heavy, Self.ring()] {
            let plain = try Normalizer().normalize(data)
            #expect(try Normalizer(options: Self.centre).normalize(data).renditions == plain.renditions)
        }
    }

    @Test("a raster: its renditions moved by whole pixels at each scale, nothing resampled")
    func raster() throws {
        let drawn = try Normalizer(options: NormalizeOptions(box: IconBox(points: 75)!, scales: [1])).normalize(
            Self.ring(dx: 1.5))
        let png = Data(try OutputFormat.png.encode(try #require(drawn.renditions.first).bitmap))
        let plain = try Normalizer().normalize(png)
        let before = try Self.measures(plain)
        let shift = before.centringShift(threshold: 0.5)
        #expect(shift.x == -1 && shift.y == 0)
        let icon = try Normalizer(options: Self.centre).normalize(png)
        for (moved, rendition) in zip(icon.renditions, plain.renditions) {
            #expect(moved.bitmap == rendition.bitmap.moved(x: Int((-rendition.scale).rounded()), y: 0))
        }
        #expect(abs(try Self.measures(icon).boundsCentre[0] - (before.boundsCentre[0] - 1)) <= 0.01)
    }

    @Test("a threshold that cannot work is refused")
    func refused() {
        for threshold in [0, -1, .nan, 26] {
            #expect(
                NormalizeOptions(opticalCentre: threshold).problem
                    == .opticalCentre(
                        "an off-centre threshold of \(NumberText.decimal(threshold)) points must be above 0 and at most the 25-point box"
                    ))
        }
    }
}
