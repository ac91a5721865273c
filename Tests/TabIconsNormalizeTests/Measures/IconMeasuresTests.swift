import Foundation
import Testing
@testable import TabIconsNormalize
import TabIconsCore

/// The measures of SPEC §3a on shapes whose answers are known: drawn here at 3× in a 25 pt box
/// (75 px), each pixel's coverage found by 8 × 8 samples, as a renderer's anti-aliasing gives.
@Suite("icon measures on shapes with known answers")
struct IconMeasuresTests {
    static let scale = 3.0
    static let side = 75

    /// A black shape on transparency: `inside(x, y)` in points, the canvas's top left at 0, 0.
    static func drawn(_ inside: (Double, Double) -> Bool) -> Bitmap {
        var bitmap = Bitmap(width: side, height: side)
        for py in 0..<side {
            for px in 0..<side {
                var hits = 0
                for sy in 0..<8 {
                    for sx in 0..<8
                    where inside((Double(px) + (Double(sx) + 0.5) / 8) / scale, (Double(py) + (Double(sy) + 0.5) / 8) / scale) {
                        hits += 1
                    }
                }
                bitmap.pixels[(py * side + px) * 4 + 3] = UInt8((Double(hits) / 64 * 255).rounded())
            }
        }
        return bitmap
    }

    static func measured(_ inside: (Double, Double) -> Bool) throws -> IconMeasures {
        IconMeasures.measured(drawn(inside), scale: scale, box: .regular)
    }

    static func distance(_ x: Double, _ y: Double) -> Double { ((x - 12.5) * (x - 12.5) + (y - 12.5) * (y - 12.5)).squareRoot() }

    @Test("a 2 pt ring: weight 2 pt, the size of its disc, centred")
    func ring() throws {
        let m = try Self.measured { x, y in abs(Self.distance(x, y) - 9) <= 1 }
        #expect(abs(m.strokeWeight - 2) <= 0.1, "\(m)")
        #expect(abs(m.opticalSize - (Double.pi * 100).squareRoot()) <= 0.1, "\(m)")  // the disc of radius 10
        #expect(abs(m.centre[0]) < 0.02 && abs(m.centre[1]) < 0.02)
        #expect(abs(m.coverage - Double.pi * (100 - 64) / 625) < 0.005)
    }

    @Test("a 2 pt square outline: weight 2 pt, the size of its square")
    func squareOutline() throws {
        let m = try Self.measured { x, y in
            let (dx, dy) = (abs(x - 12.5), abs(y - 12.5))
            return max(dx, dy) <= 9 && max(dx, dy) >= 7
        }
        #expect(abs(m.strokeWeight - 2) <= 0.1, "\(m)")
        #expect(abs(m.opticalSize - 18) <= 0.1, "\(m)")
    }

    @Test("a filled disc, a square and a triangle of equal area: the same optical size within 0.5 pt")
    func equalAreas() throws {
        let area = 225.0  // a 15 pt square
        let disc = try Self.measured { x, y in Self.distance(x, y) <= (area / .pi).squareRoot() }
        let square = try Self.measured { x, y in abs(x - 12.5) <= 7.5 && abs(y - 12.5) <= 7.5 }
        // Equilateral, pointing up, its bounds centred.
        let s = (4 * area / 3.0.squareRoot()).squareRoot(), h = s * 3.0.squareRoot() / 2
        let triangle = try Self.measured { x, y in
            let top = 12.5 - h / 2, bottom = 12.5 + h / 2
            guard y >= top, y <= bottom else { return false }
            return abs(x - 12.5) <= (y - top) / h * s / 2
        }
        for m in [disc, square, triangle] { #expect(abs(m.opticalSize - 15) <= 0.25, "\(m)") }
        #expect(
            max(disc.opticalSize, square.opticalSize, triangle.opticalSize)
                - min(disc.opticalSize, square.opticalSize, triangle.opticalSize) <= 0.5)
        // The disc's thickness by 2 × area ÷ perimeter is its radius.
        #expect(abs(disc.strokeWeight - (area / .pi).squareRoot()) <= 0.15, "\(disc)")
        // The triangle's weight sits a sixth of its height below its bounds' centre.
        #expect(abs(triangle.boundsCentre[1]) < 0.1)
        #expect(abs(triangle.centre[1] - h / 6) <= 0.1, "\(triangle)")
    }

    @Test("a play triangle: its weight left of its centred bounds")
    func playTriangle() throws {
        let w = 15.0, left = 12.5 - w / 2
        let m = try Self.measured { x, y in x >= left && x <= left + w && abs(y - 12.5) <= (left + w - x) / w * 8 }
        #expect(abs(m.boundsCentre[0]) < 0.1, "\(m)")
        #expect(abs(m.centre[0] + w / 6) <= 0.1, "\(m)")
    }

    @Test("nothing drawn: every measure 0")
    func empty() {
        #expect(
            IconMeasures.measured(Bitmap(width: 75, height: 75), scale: 3, box: .regular)
                == IconMeasures(strokeWeight: 0, opticalSize: 0, centre: [0, 0], boundsCentre: [0, 0], coverage: 0))
    }
}
