import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize

/// `--fit SIZE` (SPEC §3a), measured after it acts: the optical size of the rendition at the
/// largest scale within 0.15 pt of SIZE (the rule draws a glyph in whole pixels: at 3× a side
/// moves in steps of 1/3 pt, its optical size by up to 0.12 pt), never past the box or the rule's
/// upscale limits.
@Suite("--fit SIZE, measured after it acts")
struct OpticalFitTests {
    /// A 100-unit artboard holding `shape` drawn `side` units across, centred.
    static func svg(_ shape: String, side: Double, stroke: Bool = false) -> Data {
        let (a, b) = ((100 - side) / 2, (100 + side) / 2)
        let paint = stroke ? #"fill="none" stroke="black" stroke-width="8""# : #"fill="black""#
        let body =
            switch shape {
            case "disc": #"<circle cx="50" cy="50" r="\#(side / 2)" \#(paint)/>"#
            case "square": #"<rect x="\#(a)" y="\#(a)" width="\#(side)" height="\#(side)" \#(paint)/>"#
            default: #"<path d="M\#(a) \#(b) L50 \#(a) L\#(b) \#(b) Z" \#(paint)/>"#
            }
        return Data(
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">"# + body + "</svg>").utf8)
    }

    static func opticalSize(_ icon: NormalizedIcon) throws -> Double {
        let largest = try #require(icon.renditions.max { $0.scale < $1.scale })
        return IconMeasures.measured(largest.bitmap, scale: largest.scale, box: .regular).opticalSize
    }

    @Test(
        "discs, squares and triangles, filled or stroked, of any size in their artboard: the optical size asked",
        arguments: ["disc", "square", "triangle"])
    func sizeAsked(shape: String) throws {
        for stroke in [false, true] {
            for side in [50.0, 70, 84] {
                let data = Self.svg(shape, side: side, stroke: stroke)
                let plain = try Self.opticalSize(Normalizer().normalize(data))
                for factor in [0.6, 0.8, 0.95] {
                    let asked = (plain * factor * 100).rounded() / 100
                    let icon = try Normalizer(options: NormalizeOptions(opticalFit: .size(asked))).normalize(data)
                    let measured = try Self.opticalSize(icon)
                    #expect(abs(measured - asked) <= 0.15, "\(shape) \(side) stroke \(stroke): \(measured) for \(asked)")
                    // The point size stays the box's (as the manifest writes it); the decode scale says how much the glyph was scaled.
                    #expect(
                        NumberText.rounded(icon.pointWidth) == 25 && NumberText.rounded(icon.pointHeight) == 25,
                        "\(icon.pointWidth)×\(icon.pointHeight)")
                    #expect(abs(4 / icon.decodeScale - factor) <= 0.02, "\(icon.decodeScale) for \(factor)")
                }
                // With padding to grow into: larger, as asked.
                let roomy = try Normalizer(
                    options: NormalizeOptions(padding: IconPadding(points: 3), opticalFit: .size((plain * 100).rounded() / 100))
                ).normalize(data)
                #expect(abs(try Self.opticalSize(roomy) - plain) <= 0.15)
            }
        }
    }

    @Test("within the box: a glyph that fills it is not grown past it")
    func withinTheBox() throws {
        let full = Self.svg("square", side: 100)
        let plain = try Normalizer().normalize(full)
        let asked = try Normalizer(options: NormalizeOptions(opticalFit: .size(25))).normalize(full)
        #expect(asked.renditions == plain.renditions && asked.decodeScale == plain.decodeScale)
        // The artboard is the glyph the rule fits (its margins are the designer's): a disc half
        // its artboard across grows no further than the artboard filling the box (--trim fits the ink).
        let disc = Self.svg("disc", side: 50)
        let grown = try Normalizer(options: NormalizeOptions(opticalFit: .size(20))).normalize(disc)
        #expect(grown.renditions == (try Normalizer().normalize(disc)).renditions)
        let trimmed = try Normalizer(options: NormalizeOptions(trim: true, opticalFit: .size(20))).normalize(disc)
        #expect(abs(try Self.opticalSize(trimmed) - 20) <= 0.15)
    }

    @Test("a raster: scaled down as asked; never drawn past the rule's upscale limits")
    func raster() throws {
        // A 48 px PNG of a disc 36 px across (18.8 pt as the rule fits it at 25 pt).
        let drawn = try Normalizer(options: NormalizeOptions(box: IconBox(points: 48)!, scales: [1])).normalize(
            Self.svg("disc", side: 75))
        let png = Data(try OutputFormat.png.encode(try #require(drawn.renditions.first).bitmap))
        let smaller = try Normalizer(options: NormalizeOptions(opticalFit: .size(14))).normalize(png)
        #expect(abs(try Self.opticalSize(smaller) - 14) <= 0.15)
        // Larger than the rule allows without upscaling: the renditions the rule makes, no larger.
        let plain = try Normalizer().normalize(png)
        let larger = try Normalizer(options: NormalizeOptions(opticalFit: .size(24))).normalize(png)
        #expect(larger.renditions.map(\.bitmap.width) == plain.renditions.map(\.bitmap.width))
        #expect(larger.skippedScales == plain.skippedScales)
        #expect(try Self.opticalSize(larger) <= (try Self.opticalSize(plain)) + 0.01)
    }

    @Test("the plan (inspect, --vector) is the fitted one; the set's fit alone is the rule's")
    func planAndSet() throws {
        let data = Self.svg("triangle", side: 60)
        let options = NormalizeOptions(opticalFit: .size(15))
        let planned = try Normalizer(options: options).planned(data)
        let made = try Normalizer(options: options).normalize(data)
        #expect(planned.decodeScale == made.decodeScale && planned.vector?.placement == made.vector?.placement)
        #expect(
            try Normalizer(options: NormalizeOptions(opticalFit: .set)).normalize(data).renditions
                == (try Normalizer().normalize(data)).renditions)
    }

    @Test("a size that cannot work is refused before any work")
    func refused() {
        for size in [0, -2, .nan, 25.5] {
            #expect(
                NormalizeOptions(opticalFit: .size(size)).problem
                    == .opticalFit(
                        "an optical size of \(NumberText.decimal(size)) points must be above 0 and at most the 25-point box"))
        }
        #expect(NormalizeOptions(opticalFit: .size(25)).problem == nil)
    }
}
