import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The symbol template (issue 39) read back with Foundation's XMLParser (libxml2, not our
/// writer's code): Apple's groups and guides, margins enclosing each source's ink, sources that
/// interpolate command for command, nothing active or external; the placement checked against
/// Apple's own symbols; Regular-S drawn by librsvg against the icon's rendition.
@Suite("Symbol template")
struct SymbolTemplateTests {
    static let stroked =
        "<path d=\"M3 9l9-7 9 7v11a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" stroke-linejoin=\"round\"/><polyline points=\"9 22 9 12 15 12 15 22\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" stroke-linecap=\"round\"/>"
    static let filled =
        "<path fill-rule=\"evenodd\" d=\"M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20zm0 4a6 6 0 1 1 0 12a6 6 0 1 1 0-12z\"/>"

    /// A 24-unit drawing on a 25 pt canvas, as the normalizer places a square icon.
    static func svg(_ body: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\" width=\"25\" height=\"25\">\(body)</svg>"
    }

    static func drawing(_ body: String) throws -> VectorDrawing {
        let tree = try Array(svg(body).utf8).withUnsafeBytes { raw throws(TabIconsError) in try SVGElementTree(raw) }
        var builder = try VectorDrawingBuilder(tree: tree, viewport: (25, 25))
        return VectorDrawing(viewBox: (0, 0, 24, 24), width: 25, height: 25, root: try builder.build())
    }

    static func template(_ body: String) throws -> (bytes: [UInt8], outlines: SymbolOutlines) {
        let outlines = try SymbolOutlines.make(try drawing(body), weights: .standard)
        return (SymbolTemplate.document(outlines, width: 25, height: 25), outlines)
    }

    /// An element as Foundation's XMLParser (libxml2's SAX reader) reports it.
    final class Element {
        let name: String
        let uri: String?
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""
        weak var parent: Element?

        init(name: String, uri: String?, attributes: [String: String], parent: Element?) {
            (self.name, self.uri, self.attributes, self.parent) = (name, uri, attributes, parent)
        }
    }

    /// The element tree. (XMLParser rather than XMLDocument, whose nodes LeakSanitizer reports as
    /// leaked on Linux's Foundation.)
    final class TreeBuilder: NSObject, XMLParserDelegate {
        var root: Element?
        var open: [Element] = []

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let element = Element(name: elementName, uri: namespaceURI, attributes: attributes, parent: open.last)
            open.last?.children.append(element)
            if root == nil { root = element }
            open.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { open.last?.text += string }
    }

    /// Every element with an `id`, and the document's root, as the XML reader sees them.
    struct Read {
        var root: Element
        var byID: [String: Element] = [:]

        init(_ bytes: [UInt8]) throws {
            let parser = XMLParser(data: Data(bytes))
            parser.shouldProcessNamespaces = true
            let builder = TreeBuilder()
            parser.delegate = builder
            try #require(parser.parse(), "\(String(describing: parser.parserError))")
            root = try #require(builder.root)
            var stack = [root]
            while let element = stack.popLast() {
                if let id = element.attributes["id"] { byID[id] = element }
                stack += element.children
            }
        }

        func number(_ id: String, _ attribute: String) throws -> Double {
            let text = try #require(byID[id]?.attributes[attribute])
            return try #require(Double(text))
        }

        func paths(_ id: String) -> [String] { (byID[id]?.children ?? []).compactMap { $0.attributes["d"] } }

        /// The source's translation (its `matrix(1 0 0 1 x y)`).
        func origin(_ id: String) throws -> (x: Double, y: Double) {
            let text = try #require(byID[id]?.attributes["transform"])
            let numbers = text.dropFirst("matrix(".count).dropLast().split(separator: " ").compactMap { Double($0) }
            try #require(numbers.count == 6 && Array(numbers[0..<4]) == [1, 0, 0, 1])
            return (numbers[4], numbers[5])
        }
    }

    /// Each path's command letters (the interpolation rule compares these).
    static func letters(_ d: String) -> String { String(d.filter(\.isLetter)) }

    static func inkBounds(_ paths: [String]) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        paths.compactMap { VectorPath(svg: $0).bounds }.reduce(nil) { acc, b in
            guard let a = acc else { return b }
            return (min(a.minX, b.minX), min(a.minY, b.minY), max(a.maxX, b.maxX), max(a.maxY, b.maxY))
        }
    }

    @Test(
        "Apple's structure and guides, three sources that interpolate, margins round each source's ink",
        arguments: [stroked, filled])
    func structure(body: String) throws {
        let (bytes, outlines) = try Self.template(body)
        let read = try Read(bytes)
        #expect(read.root.name == "svg" && read.root.uri == "http://www.w3.org/2000/svg")
        #expect(try read.number("artboard", "width") == 3300 && read.number("artboard", "height") == 2200)
        #expect(read.byID["template-version"]?.text == "Template v.3.0")
        for id in ["Notes", "Guides", "Symbols"] { #expect(read.byID[id]?.parent === read.root, "\(id)") }
        for (scale, baseline) in [("S", 696.0), ("M", 1126), ("L", 1556)] {
            #expect(try read.number("Baseline-\(scale)", "y1") == baseline && read.number("Baseline-\(scale)", "y2") == baseline)
            #expect(try abs(read.number("Capline-\(scale)", "y1") - (baseline - 70.459)) < 1e-9)
        }
        let sources = ["Ultralight-S", "Regular-S", "Black-S"]
        let paths = sources.map(read.paths)
        #expect(paths[1].count == outlines.regular.count && !paths[1].isEmpty)
        #expect(paths[0].map(Self.letters) == paths[1].map(Self.letters))
        #expect(paths[2].map(Self.letters) == paths[1].map(Self.letters))
        #expect(paths.joined().allSatisfy { Set($0.filter(\.isLetter)).isSubset(of: ["M", "L", "C", "Z"]) })
        var widths: [Double] = []
        for (k, id) in sources.enumerated() {
            let origin = try read.origin(id)
            #expect(origin.y == 696)
            let left = try read.number("left-margin-\(id)", "x1"), right = try read.number("right-margin-\(id)", "x1")
            #expect(left == origin.x, "the source sits at its left margin")
            #expect(try read.number("left-margin-\(id)", "y1") == 600.785 && read.number("left-margin-\(id)", "y2") == 720.121)
            let ink = try #require(Self.inkBounds(paths[k]))
            // The margins enclose the ink, a side bearing either side (0.001: the written decimals).
            #expect(abs(origin.x + ink.minX - left - SymbolTemplate.sideBearing) < 0.002, "\(id)")
            #expect(abs(right - (origin.x + ink.maxX) - SymbolTemplate.sideBearing) < 0.002, "\(id)")
            #expect(abs((left + right) / 2 - SymbolTemplate.columns[k].centre) < 0.002)
            widths.append(ink.maxX - ink.minX)
        }
        #expect(widths[0] < widths[1] && widths[1] < widths[2], "heavier weights are wider: \(widths)")
        // Nothing active or external: no script, link, style sheet, font, image or foreign content.
        let text = String(decoding: bytes, as: UTF8.self)
        for word in ["script", "href", "url(", "style", "font", "image", "foreignObject", "<a ", "http://www.w3.org/1999"] {
            #expect(!text.contains(word), "\(word)")
        }
        #expect(text.components(separatedBy: "http").count == 2, "the one namespace URI and nothing else")
    }

    @Test("a glyph filling the box is as tall as Apple's symbols and centred on the cap band")
    func placement() throws {
        // A disc filling the 24-unit viewBox: the whole 25 pt box.
        let read = try Read(try Self.template("<circle cx=\"12\" cy=\"12\" r=\"12\"/>").bytes)
        let ink = try #require(Self.inkBounds(read.paths("Regular-S")))
        #expect(abs((ink.maxY - ink.minY) - 94.4) < 0.05)
        #expect(abs((ink.minY + ink.maxY) / 2 + 70.459 / 2) < 0.05, "the ink's middle on the cap band's")
        // Drawn smaller in its box, it stays smaller, and where it was: a disc of half the size, high.
        let small = try Read(try Self.template("<circle cx=\"12\" cy=\"6\" r=\"6\"/>").bytes)
        let smallInk = try #require(Self.inkBounds(small.paths("Regular-S")))
        #expect(abs((smallInk.maxY - smallInk.minY) - 47.2) < 0.05)
        #expect(abs((smallInk.minY + smallInk.maxY) / 2 - (-70.459 / 2 - 6 * 25 / 24 * SymbolTemplate.unitsPerPoint)) < 0.05)
    }

    /// A sample's Regular-S: longest ink side, vertical ink centre (from the baseline), and
    /// 2·area/perimeter of each source (its stroke weight).
    static func sample(_ url: URL) throws -> (longest: Double, centre: Double, weights: [Double]) {
        let read = try Read(Array(try Data(contentsOf: url)))
        var weights: [Double] = []
        for id in ["Ultralight-S", "Regular-S", "Black-S"] {
            var area = 0.0, perimeter = 0.0
            for d in read.paths(id) {
                for contour in CubicContour.contours(of: VectorPath(svg: d)) {
                    let points = contour.flattened(steps: 32)
                    area += Polygon.signedArea(points)
                    for i in points.indices { perimeter += (points[(i + 1) % points.count] - points[i]).length }
                }
            }
            weights.append(2 * abs(area) / perimeter)
        }
        let ink = try #require(inkBounds(read.paths("Regular-S")))
        return (max(ink.maxX - ink.minX, ink.maxY - ink.minY), (ink.minY + ink.maxY) / 2, weights)
    }

    @Test(
        "Apple's sample symbols give the placement and the weights' defaults",
        .enabled(if: FileManager.default.fileExists(atPath: Self.samples.path), "needs ../shared/symbols/samples"))
    func appleSamples() throws {
        var longest: [Double] = [], ultralight: [Double] = [], black: [Double] = []
        for name in [
            "apple-foodtruck-donut.symbolset/donut.svg", "apple-foodtruck-bitter.symbolset/bitter.svg",
            "apple-foodtruck-spicy.symbolset/spicy.svg", "apple-backyardbirds-fountain.symbolset/fountain.svg"
        ] {
            let s = try Self.sample(Self.samples.appendingPathComponent(name))
            longest.append(s.longest)
            #expect(abs(s.centre + 70.459 / 2) < 0.2, "\(name): centred on the cap band (\(s.centre))")
            ultralight.append(s.weights[0] / s.weights[1])
            black.append(s.weights[2] / s.weights[1])
        }
        func median(_ v: [Double]) -> Double { let s = v.sorted(); return (s[(s.count - 1) / 2] + s[s.count / 2]) / 2 }
        #expect(abs(median(longest) - 25 * SymbolTemplate.unitsPerPoint) < 0.2, "\(longest)")
        #expect(abs(median(ultralight) - SymbolWeights.standard.ultralight) < 0.05, "\(ultralight)")
        #expect(abs(median(black) - SymbolWeights.standard.black) < 0.1, "\(black)")
    }

    static let samples = Fixtures.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/symbols/samples")

    @Test("Regular-S drawn by librsvg covers what the icon's rendition covers", arguments: [stroked, filled])
    func regularDrawn(body: String) throws {
        let (bytes, outlines) = try Self.template(body)
        let read = try Read(bytes)
        let origin = try read.origin("Regular-S")
        // Where the 25 pt canvas lies in the template: the ink's left edge is a side bearing in
        // from the margin, and the canvas's middle is on the cap band's.
        let s = SymbolTemplate.unitsPerPoint
        let inkLeft = try #require(outlines.regular.compactMap(\.bounds).map(\.minX).min())
        let x = origin.x + SymbolTemplate.sideBearing - inkLeft * s
        let y = 696 - 70.459 / 2 - 12.5 * s
        let only = read.paths("Regular-S").map { "<path d=\"\($0)\"/>" }.joined()
        let view =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(x) \(y) \(25 * s) \(25 * s)\" width=\"75\" height=\"75\"><g transform=\"translate(\(origin.x) \(origin.y))\">\(only)</g></svg>"
        let template = try Self.render(view)
        let icon = try Self.render(
            Self.svg(body).replacingOccurrences(of: "width=\"25\" height=\"25\"", with: "width=\"75\" height=\"75\""))
        var differing = 0, inked = 0
        for i in stride(from: 3, to: icon.pixels.count, by: 4) {
            if icon.pixels[i] > 127 { inked += 1 }
            if (icon.pixels[i] > 127) != (template.pixels[i] > 127) { differing += 1 }
        }
        #expect(inked > 300)
        #expect(Double(differing) / Double(inked) < 0.03, "\(differing) of \(inked) ink pixels differ")
    }

    static func render(_ svg: String) throws -> Bitmap {
        let data = Data(svg.utf8)
        let document = try data.withUnsafeBytesTyped { bytes throws(TabIconsError) in
            try SVGDecoder.parse(bytes, limits: .default)
        }
        return try document.render(width: 75, height: 75)
    }
}
