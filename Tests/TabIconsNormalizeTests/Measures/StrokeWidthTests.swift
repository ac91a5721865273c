import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize

/// `--stroke-width` (SPEC §3a), measured after it acts: the weight of the rendition at the largest
/// scale within 0.1 pt of what was asked, whatever the drawing's grid and own width; thinner
/// details in proportion; the vector file the renditions' own drawing; rasters and filled
/// drawings as drawn, with the lint.
@Suite("--stroke-width, measured after it acts")
struct StrokeWidthTests {
    /// A `grid`-unit icon (a ring, a rounded square, a square with a bar, an open chevron) stroked `width` units.
    static func svg(_ shape: String, grid: Double, width: Double, extra: String = "") -> Data {
        let u = grid / 24  // the shapes are drawn on a 24-unit grid, scaled to `grid`
        let body =
            switch shape {
            case "ring": #"<circle cx="\#(12 * u)" cy="\#(12 * u)" r="\#(9 * u)"/>"#
            case "rounded": #"<rect x="\#(4 * u)" y="\#(4 * u)" width="\#(16 * u)" height="\#(16 * u)" rx="\#(3 * u)"/>"#
            case "bar":
                #"<rect x="\#(4 * u)" y="\#(4 * u)" width="\#(16 * u)" height="\#(16 * u)"/><path d="M\#(8 * u) \#(12 * u) H\#(16 * u)"/>"#
            default: #"<path d="M\#(9 * u) \#(5 * u) L\#(16 * u) \#(12 * u) L\#(9 * u) \#(19 * u)"/>"#
            }
        return Data(
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="\#(grid)" height="\#(grid)" viewBox="0 0 \#(grid) \#(grid)" "#
                + #"fill="none" stroke="black" stroke-width="\#(width)" stroke-linejoin="round" stroke-linecap="round">"#
                + body + extra + "</svg>").utf8)
    }

    static func weight(_ icon: NormalizedIcon) throws -> Double {
        let largest = try #require(icon.renditions.max { $0.scale < $1.scale })
        return IconMeasures.measured(largest.bitmap, scale: largest.scale, box: .regular).strokeWeight
    }

    @Test(
        "the weight asked, within 0.1 pt, from any grid (source size) and any drawn width",
        arguments: ["ring", "rounded", "bar"])
    func weightAsked(shape: String) throws {
        for asked in [1.0, 1.5, 2.5] {
            for (grid, width) in [(16.0, 1.0), (24, 2), (48, 3), (96, 10)] {
                let icon = try Normalizer(options: NormalizeOptions(strokeWidth: asked)).normalize(
                    Self.svg(shape, grid: grid, width: width))
                let measured = try Self.weight(icon)
                #expect(abs(measured - asked) <= 0.1, "\(shape) grid \(grid) width \(width): \(measured) for \(asked)")
                #expect(!icon.lints.contains { $0.code == .strokeWidthNotApplied })
                // As drawn, the same shape weighs its own width (24 units of a 25 pt box: × 25/grid).
                let plain = try Self.weight(Normalizer().normalize(Self.svg(shape, grid: grid, width: width)))
                #expect(abs(plain - width * 25 / grid) <= 0.1, "\(shape) grid \(grid) width \(width): \(plain)")
            }
        }
    }

    @Test("thinner details in proportion; the vector file is what the renditions were drawn from")
    func detailsAndVectorFile() throws {
        // A 48-unit square outlined 3 units (1.5625 pt) with a 1-unit bar: asked 1.5 pt, the outline
        // (most of the length) becomes 1.5 pt and the bar 0.5 pt, as much thinner as it was.
        let data = Self.svg("bar", grid: 48, width: 3, extra: #"<path d="M8 40 H40" stroke-width="1"/>"#)
        let normalizer = Normalizer(options: NormalizeOptions(strokeWidth: 1.5))
        let planned = try normalizer.planned(data)
        guard case .redrawn(let svg)? = try normalizer.restrokedDocument(data, planned: planned) else {
            Issue.record("not redrawn")
            return
        }
        let text = String(decoding: svg, as: UTF8.self)
        let widths = text.matches(of: /stroke-width="([0-9.]+)"/).compactMap { Double($0.1) }
        // Written in the drawing's own units (48 a 25 pt side): points × 48 / 25.
        #expect(widths.sorted() == [0.96, 2.88, 2.88], "\(text)")
        let file = try #require(try normalizer.vectorFile(data, icon: planned, target: .svg)?.get())
        #expect(file == svg)
        // Its renditions are the vector file's, drawn as any SVG input is.
        let icon = try normalizer.normalize(data)
        let fromFile = try Normalizer().normalize(Data(file))
        #expect(icon.renditions == fromFile.renditions)
        #expect(icon.decodeScale == planned.decodeScale && icon.pointWidth == 25 && icon.source.pixelWidth == 48)
        // The VectorDrawable says the same widths in its own units.
        let drawable = try #require(try normalizer.vectorFile(data, icon: planned, target: .vectorDrawable)?.get())
        let androidWidths = String(decoding: drawable, as: UTF8.self).matches(of: /strokeWidth="([0-9.]+)"/).compactMap {
            Double($0.1)
        }
        #expect(androidWidths.sorted() == [0.96, 2.88, 2.88], "\(String(decoding: drawable, as: UTF8.self))")
    }

    @Test("a raster and a filled drawing stay as drawn, with the lint saying why")
    func asDrawn() throws {
        let filled = Data(
            #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="9"/></svg>"#.utf8)
        let ring = try Normalizer(options: NormalizeOptions(scales: [3])).normalize(Self.svg("ring", grid: 24, width: 2))
        let png = Data(try OutputFormat.png.encode(try #require(ring.renditions.first).bitmap))
        for (data, reason) in [
            (filled, "--stroke-width 1.5: the drawing has no strokes (it is filled)"),
            (png, "--stroke-width 1.5: a raster's strokes cannot be redrawn")
        ] {
            let asked = try Normalizer(options: NormalizeOptions(strokeWidth: 1.5)).normalize(data)
            let plain = try Normalizer().normalize(data)
            #expect(asked.renditions == plain.renditions)
            #expect(asked.lints == plain.lints + [Lint(.strokeWidthNotApplied, reason)])
            // `inspect`'s plan says the same.
            #expect(try Normalizer(options: NormalizeOptions(strokeWidth: 1.5)).planned(data).lints.last?.message == reason)
        }
        // A drawing the converter cannot read (a filter) is drawn as it is.
        let filtered = Self.svg(
            "ring", grid: 24, width: 2,
            extra: #"<filter id="f"><feGaussianBlur stdDeviation="1"/></filter><rect width="2" height="2" filter="url(#f)"/>"#)
        let asked = try Normalizer(options: NormalizeOptions(strokeWidth: 1.5)).normalize(filtered)
        #expect(asked.renditions == (try Normalizer().normalize(filtered)).renditions)
        #expect(
            asked.lints.last
                == Lint(.strokeWidthNotApplied, "--stroke-width 1.5: the drawing holds filters, which tabicon cannot redraw"))
    }

    @Test("a vector's weight from its drawing: width × transforms × fit, the median by length; none where it fills")
    func drawnWeight() throws {
        for (grid, width) in [(16.0, 1.0), (24, 2), (48, 3), (96, 10)] {
            let data = Self.svg("bar", grid: grid, width: width)
            let weight = try Normalizer().drawnStrokeWeight(data, icon: Normalizer().planned(data))
            #expect(weight == (width * 25 / grid * 100).rounded() / 100)
            // --stroke-width's drawing weighs what was asked.
            let asked = Normalizer(options: NormalizeOptions(strokeWidth: 1.75))
            #expect(try asked.drawnStrokeWeight(data, icon: asked.planned(data)) == 1.75)
        }
        // A stroke under a 2× transform is twice as wide; a short hairline does not move the median.
        let scaled = Data(
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" fill="none" stroke="black">"#
                + #"<g transform="scale(2)"><circle cx="6" cy="6" r="4" stroke-width="1"/></g><path d="M2 22 H5" stroke-width="0.5"/></svg>"#)
                .utf8)
        #expect(try Normalizer().drawnStrokeWeight(scaled, icon: Normalizer().planned(scaled)) == 2.08)
        // Filled parts: the ink's estimate, not the strokes'.
        let filled = Self.svg("ring", grid: 24, width: 2, extra: #"<circle cx="12" cy="12" r="3" fill="black"/>"#)
        #expect(try Normalizer().drawnStrokeWeight(filled, icon: Normalizer().planned(filled)) == nil)
        let png = Data(
            try OutputFormat.png.encode(
                try #require(Normalizer().normalize(Self.svg("ring", grid: 24, width: 2)).renditions.last).bitmap))
        #expect(try Normalizer().drawnStrokeWeight(png, icon: Normalizer().planned(png)) == nil)
    }

    @Test("a width that cannot work is refused before any work")
    func refused() {
        for width in [0, -1, .nan, .infinity, 6.26] {
            #expect(
                NormalizeOptions(strokeWidth: width).problem
                    == .strokeWidth(
                        "a stroke width of \(NumberText.decimal(width)) points must be above 0 and at most a quarter of the 25-point box"
                    ))
        }
        #expect(NormalizeOptions(strokeWidth: 6.25).problem == nil)
        #expect(NormalizeOptions(box: .compact, strokeWidth: 4.6).problem != nil)
    }
}
