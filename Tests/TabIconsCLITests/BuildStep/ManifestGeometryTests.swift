import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// The manifest reports the decode scale, point size and rendition sizes of what was written,
/// taken from the `NormalizedIcon`, under every shape (issue: it once worked them out again from
/// the untrimmed source).
@Suite("Manifest geometry")
struct ManifestGeometryTests {
    /// A `width`×`height` PNG, transparent but for an opaque rectangle `glyph` (x, y, w, h).
    static func png(width: Int, height: Int, glyph: (Int, Int, Int, Int)) throws -> Data {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in glyph.1..<(glyph.1 + glyph.3) {
            for x in glyph.0..<(glyph.0 + glyph.2) {
                let i = (y * width + x) * 4
                pixels[i] = 20; pixels[i + 1] = 40; pixels[i + 2] = 60; pixels[i + 3] = 255
            }
        }
        return Data(try OutputFormat.png.encode(Bitmap(width: width, height: height, pixels: pixels)))
    }

    struct Case: Sendable, CustomStringConvertible {
        let flags: [String]
        let size: (Int, Int)
        let glyph: (Int, Int, Int, Int)
        let decodeScale: Double
        let points: (Double, Double)
        let renditions: [(Int, Int)]
        var description: String { flags.joined(separator: " ") }
    }

    @Test(
        "decode scale, point size and renditions of what was written",
        arguments: [
            // A 60×60 glyph in a 200×200 canvas: trimmed, it is the icon (60 / 25 = 2.4; 3× would upscale).
            Case(
                flags: ["--trim"], size: (200, 200), glyph: (70, 70, 60, 60), decodeScale: 2.4, points: (25, 25),
                renditions: [(25, 25), (50, 50)]),
            // 100×50 on its 100×100 square canvas: scale 4, a 25×25 pt square.
            Case(
                flags: ["--shape", "square"], size: (100, 50), glyph: (0, 0, 100, 50), decodeScale: 4, points: (25, 25),
                renditions: [(25, 25), (50, 50), (75, 75)]),
            // 100×50 cropped to its 50×50 centre: scale 2; 3× would upscale.
            Case(
                flags: ["--shape", "circle"], size: (100, 50), glyph: (0, 0, 100, 50), decodeScale: 2, points: (25, 25),
                renditions: [(25, 25), (50, 50)])
        ])
    func geometry(_ c: Case) throws {
        let dir = try TemporaryDirectory("geometry")
        let input = dir.url.appendingPathComponent("glyph.png")
        try Self.png(width: c.size.0, height: c.size.1, glyph: c.glyph).write(to: input)
        let out = try TemporaryDirectory("out")
        #expect(SilentCLI.run(["normalize", "-q"] + c.flags + [input.path, "-o", out.url.path]) == .success)
        let icon = try #require(try BuildStep.manifest(out.path("manifest.json")).icons.first)
        #expect(icon.pixelWidth == c.size.0 && icon.pixelHeight == c.size.1)
        #expect(icon.decodeScale == c.decodeScale)
        #expect(icon.pointWidth == c.points.0 && icon.pointHeight == c.points.1)
        let renditions = try #require(icon.renditions)
        #expect(renditions.map { [$0.pixelWidth, $0.pixelHeight] } == c.renditions.map { [$0.0, $0.1] })
        for rendition in renditions {
            let written = try ImageDecoder.decode(Data(contentsOf: out.url.appendingPathComponent(rendition.path)))
            #expect(written.bitmap.width == rendition.pixelWidth && written.bitmap.height == rendition.pixelHeight)
        }
    }

    @Test("inspect reports the plan's decode scale and point size, as normalize does")
    func inspectFromThePlan() throws {
        let data = try Self.png(width: 100, height: 50, glyph: (0, 0, 100, 50))
        let input = BatchInput(name: "wide.png", outputStem: "wide", load: { () throws(TabIconsError) -> Data in data })
        let report = try #require(InspectRun(box: .regular, limits: .default).run([input])[0]).get()
        let normalized = try Normalizer().normalize(data)
        #expect(report.decodeScale == normalized.decodeScale)
        #expect(report.pointWidth == normalized.pointWidth && report.pointHeight == normalized.pointHeight)
        #expect(report.decodeScale == 4 && report.pointHeight == 12.5)
        #expect(report.lints == normalized.lints)
    }
}
