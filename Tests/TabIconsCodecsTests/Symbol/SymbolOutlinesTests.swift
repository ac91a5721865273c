import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// The symbol geometry (issue 39): strokes expanded, even-odd rewound, three weights compatible.
@Suite("Symbol outlines")
struct SymbolOutlinesTests {
    /// A drawing (canvas = viewBox) of `body`.
    static func drawing(_ body: String, size: Double = 24) throws -> VectorDrawing {
        let svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(size) \(size)\" width=\"\(size)\" height=\"\(size)\">\(body)</svg>"
        let tree = try Array(svg.utf8).withUnsafeBytes { raw throws(TabIconsError) in try SVGElementTree(raw) }
        var builder = try VectorDrawingBuilder(tree: tree, viewport: (size, size))
        return VectorDrawing(viewBox: (0, 0, size, size), width: size, height: size, root: try builder.build())
    }

    static func outlines(_ body: String, size: Double = 24) throws -> SymbolOutlines {
        try SymbolOutlines.make(try drawing(body, size: size), weights: .standard)
    }

    static func contours(_ path: VectorPath) -> [[VectorPoint]] {
        CubicContour.contours(of: path).map { $0.flattened(steps: 64) }
    }

    static func has(_ path: VectorPath, _ p: VectorPoint, within e: Double = 1e-9) -> Bool {
        path.commands.contains { c in
            switch c {
            case .move(let q), .line(let q), .cubic(_, _, let q): return (q - p).length <= e
            default: return false
            }
        }
    }

    @Test func circleRingLiesAtRadiusPlusMinusHalfWidth() throws {
        let r = 8.0, w = 2.0
        let o = try Self.outlines("<circle cx=\"12\" cy=\"12\" r=\"\(r)\" fill=\"none\" stroke=\"#000\" stroke-width=\"\(w)\"/>")
        let bound = 24 * 0.0004
        for (weight, path) in [(0.4, o.ultralight[0]), (1.0, o.regular[0]), (1.8, o.black[0])] {
            let rings = Self.contours(path)
            #expect(rings.count == 2)
            var worst = 0.0
            for point in rings.joined() {
                let d = (point - VectorPoint(x: 12, y: 12)).length
                worst = max(worst, min(abs(d - (r + w * weight / 2)), abs(d - (r - w * weight / 2))))
            }
            #expect(worst <= bound, "weight \(weight): \(worst)")
        }
    }

    @Test func squareMiterAndBevelCorners() throws {
        func square(_ join: String, _ limit: String) throws -> VectorPath {
            try Self.outlines(
                "<path d=\"M4 4H20V20H4Z\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" stroke-linejoin=\"\(join)\" stroke-miterlimit=\"\(limit)\"/>"
            ).regular[0]
        }
        let miter = try square("miter", "4")
        // Outer corners at the miter tips; the inner side turns through the corner itself (the
        // pivot the other side's ink covers) between its two offset ends.
        for p in [(3.0, 3.0), (21, 3), (21, 21), (3, 21), (4, 20), (5, 20), (4, 19), (20, 4), (19, 4), (20, 5)] {
            #expect(Self.has(miter, VectorPoint(x: p.0, y: p.1)), "miter corner \(p)")
        }
        // A right angle's miter ratio is √2: a limit of 1.4 bevels it.
        let cut = try square("miter", "1.4")
        #expect(!Self.has(cut, VectorPoint(x: 3, y: 3), within: 1e-6))
        #expect(Self.has(cut, VectorPoint(x: 3, y: 4)) && Self.has(cut, VectorPoint(x: 4, y: 3)))
        #expect(Self.has(cut, VectorPoint(x: 3.5, y: 3.5)))  // the bevel's coincident midpoint
        let bevel = try square("bevel", "4")
        #expect(bevel.commands.map(\.kind) == cut.commands.map(\.kind))
        #expect(miter.commands.map(\.kind) == cut.commands.map(\.kind))
    }

    @Test func roundCapsReachHalfWidthBeyondTheEnds() throws {
        let path = try Self.outlines(
            "<path d=\"M4 12H20\" fill=\"none\" stroke=\"#000\" stroke-width=\"4\" stroke-linecap=\"round\"/>"
        ).regular[0]
        #expect(Self.has(path, VectorPoint(x: 22, y: 12)) && Self.has(path, VectorPoint(x: 2, y: 12)))
        var worst = 0.0
        for p in Self.contours(path).joined() {
            let along = min(20, max(4, p.x))
            worst = max(worst, abs((p - VectorPoint(x: along, y: 12)).length - 2))
        }
        #expect(worst <= 24 * 0.0004)
        let butt = try Self.outlines("<path d=\"M4 12H20\" fill=\"none\" stroke=\"#000\" stroke-width=\"4\"/>").regular[0]
        #expect(
            butt.commands == [
                .move(VectorPoint(x: 4, y: 10)), .line(VectorPoint(x: 20, y: 10)), .line(VectorPoint(x: 20, y: 14)),
                .line(VectorPoint(x: 4, y: 14)), .line(VectorPoint(x: 4, y: 10)), .close
            ])
    }

    @Test func cubicOffsetWithinBound() throws {
        let stroker = PathStroker(tolerance: 0.0096)
        let (p0, a, b, p) = (
            VectorPoint(x: 2, y: 20), VectorPoint(x: 4, y: 2), VectorPoint(x: 18, y: 2), VectorPoint(x: 22, y: 20)
        )
        var centre = PathStroker.Centre(CubicContour(start: p0, segments: [.cubic(a, b, p)], closed: false))
        stroker.plan(&centre, distances: [0.4, 1, 1.8])
        let n = centre.pieces[0]
        #expect(n > 1 && n <= PathStroker.maxPieces)
        for d in [0.4, 1, 1.8, -1.8] {
            #expect(stroker.offsetError(p0, a, b, p, pieces: n, distance: d) <= 0.0096, "d \(d) pieces \(n)")
        }
        // One piece is measurably off: the check can fail.
        #expect(stroker.offsetError(p0, a, b, p, pieces: 1, distance: 1.8) > 0.0096)
    }

    @Test func evenOddDonutBecomesOppositeContours() throws {
        let o = try Self.outlines("<path fill-rule=\"evenodd\" d=\"M2 2H22V22H2Z M8 8H16V16H8Z\"/>")
        let rings = CubicContour.contours(of: o.regular[0])
        #expect(rings.count == 2)
        let areas = rings.map { Polygon.signedArea($0.flattened()) }
        #expect(areas[0] * areas[1] < 0)
        #expect(abs(abs(areas[0]) - 400) < 1e-9 && abs(abs(areas[1]) - 64) < 1e-9)
    }

    @Test func weightsAreOrderedByInk() throws {
        for body in [
            "<path d=\"M4 12H20\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>",
            "<rect x=\"4\" y=\"4\" width=\"16\" height=\"3\"/>"
        ] {
            let o = try Self.outlines(body)
            let area = [o.ultralight, o.regular, o.black].map { paths in
                paths.flatMap { CubicContour.contours(of: $0) }.reduce(0.0) { $0 + abs($1.signedArea) }
            }
            #expect(area[0] < area[1] && area[1] < area[2], "\(body): \(area)")
        }
    }

    @Test func refusesWhatASymbolCannotHold() throws {
        #expect(throws: VectorUnsupported(.translucency)) {
            try Self.outlines("<rect width=\"4\" height=\"4\" opacity=\"0.5\"/>")
        }
        #expect(throws: VectorUnsupported(.gradientPaint)) {
            try Self.outlines(
                "<linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"red\"/><stop offset=\"1\"/></linearGradient><rect width=\"4\" height=\"4\" fill=\"url(#g)\"/>"
            )
        }
        #expect(throws: VectorUnsupported(.clipCutsInk)) {
            try Self.outlines(
                "<clipPath id=\"c\"><rect width=\"10\" height=\"10\"/></clipPath><rect width=\"20\" height=\"20\" clip-path=\"url(#c)\"/>"
            )
        }
        let kept = try Self.outlines(
            "<clipPath id=\"c\"><rect width=\"24\" height=\"24\"/></clipPath><rect x=\"4\" y=\"4\" width=\"8\" height=\"8\" clip-path=\"url(#c)\"/>"
        )
        #expect(kept.regular.count == 1)
    }

    /// Degenerate and hostile centre lines: zero-length segments, huge coordinates, 100k segments
    /// — outlines or a coded refusal, never a crash or an unbounded output.
    @Test func degenerateInputIsBounded() throws {
        let dots = try Self.outlines(
            "<path d=\"M4 4L4 4M8 8Z\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" stroke-linecap=\"round\"/>")
        #expect(dots.regular.count == 1 && CubicContour.contours(of: dots.regular[0]).count == 2)
        #expect(throws: VectorUnsupported(.value("a coordinate beyond the range a symbol can hold"))) {
            try Self.outlines("<path d=\"M1e300 1e300L-1e300 5\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>")
        }
        let zigzag = "M0 0" + String(repeating: "l1 1 1-1", count: 50_000)
        #expect(throws: VectorUnsupported(.symbolSize(SymbolOutlines.maxCommands))) {
            try Self.outlines("<path d=\"\(zigzag)\" fill=\"none\" stroke=\"#000\" stroke-width=\"0.1\"/>")
        }
    }

    /// Lucide-style icons (stroke-width 2, round caps and joins), written for these tests.
    static let stroked = [
        "<path d=\"M3 12h18M12 3v18\"/>",
        "<circle cx=\"12\" cy=\"12\" r=\"10\"/><path d=\"m9 12 2 2 4-4\"/>",
        "<path d=\"M21 12a9 9 0 1 1-6.2-8.6\"/><path d=\"M22 4 12 14.01l-3-3\"/>",
        "<rect x=\"3\" y=\"3\" width=\"18\" height=\"18\" rx=\"2\"/><path d=\"M7 7h.01M3 9h18\"/>",
        "<path d=\"M20.8 4.6a5.5 5.5 0 0 0-7.8 0L12 5.7l-1-1.1a5.5 5.5 0 0 0-7.8 7.8l1 1 7.8 7.8 7.8-7.8 1-1a5.5 5.5 0 0 0 0-7.8z\"/>",
        "<polyline points=\"22 12 18 12 15 21 9 3 6 12 2 12\"/>"
    ]

    @Test func strokedIconsAreCompatible() throws {
        for body in Self.stroked {
            let o = try Self.outlines(
                "<g fill=\"none\" stroke=\"#000\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\(body)</g>"
            )
            #expect(!o.regular.isEmpty)
            try Self.expectCompatible(o, body)
        }
    }

    static func expectCompatible(_ o: SymbolOutlines, _ name: String) throws {
        try #require(o.ultralight.count == o.regular.count && o.black.count == o.regular.count, "\(name)")
        for i in o.regular.indices {
            #expect(o.ultralight[i].commands.map(\.kind) == o.regular[i].commands.map(\.kind), "\(name) path \(i)")
            #expect(o.black[i].commands.map(\.kind) == o.regular[i].commands.map(\.kind), "\(name) path \(i)")
            #expect(o.regular[i].commands.allSatisfy { $0.kind != "Q" && $0.kind != "A" })
        }
    }

    @Test(.enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func bootstrapIconsAreCompatible() throws {
        let files = try Fixtures.corpusFiles("svg/bootstrap-icons", extensions: ["svg"])
        var made = 0
        var fallbacks: [String: Int] = [:]
        var failures: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let tree = try Array(text.utf8).withUnsafeBytes { raw throws(TabIconsError) in try SVGElementTree(raw) }
            do throws(VectorUnsupported) {
                var builder = try VectorDrawingBuilder(tree: tree, viewport: (16, 16))
                let d = VectorDrawing(viewBox: (0, 0, 16, 16), width: 16, height: 16, root: try builder.build())
                let o = try SymbolOutlines.make(d, weights: .standard)
                try? Self.expectCompatible(o, file.lastPathComponent)
                made += 1
            } catch {
                if error.feature == .incompatibleWeights || error.feature == .symbolSize(SymbolOutlines.maxCommands) {
                    failures.append("\(file.lastPathComponent): \(error.feature)")
                } else {
                    fallbacks[error.feature.description, default: 0] += 1
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failed: \(failures.prefix(20))")
        #expect(made > files.count * 9 / 10, "made \(made) of \(files.count); fallbacks \(fallbacks)")
    }
}

extension VectorPath.Command {
    var kind: String {
        switch self {
        case .move: "M"
        case .line: "L"
        case .cubic: "C"
        case .quad: "Q"
        case .arc: "A"
        case .close: "Z"
        }
    }
}
