import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// Hostile SVG (SPEC §2): each one a coded error naming the reason, or a rendering; never a crash,
/// never a file read from outside the document. (Time and memory are measured by
/// `scripts/peak-memory.sh`, which runs these same shapes through the release CLI.)
@Suite("SVG: hostile input")
struct SVGHostileInputTests {
    typealias S = SVGTestSupport

    /// Decodes and normalizes (the normalizer renders at every rendition size, where the filter
    /// checks apply) and answers the error.
    func refusal(_ data: Data) -> TabIconsError? {
        #expect(throws: TabIconsError.self) { _ = try Normalizer().normalize(data) }
    }

    static var billionLaughs: Data {
        var entities = "<!ENTITY a \"lollollollol\">"
        var previous = "a"
        for name in "bcdefghij" {
            entities += "<!ENTITY \(name) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
            previous = String(name)
        }
        return Data(
            "<?xml version=\"1.0\"?><!DOCTYPE svg [\(entities)]><svg \(S.namespace) viewBox=\"0 0 16 16\"><text>&j;</text></svg>"
                .utf8)
    }

    @Test("billion laughs and one big entity referenced many times are refused: no <!ENTITY")
    func entities() {
        let big =
            "<!DOCTYPE svg [<!ENTITY e \"" + String(repeating: "x", count: 50_000) + "\">]>"
            + "<svg \(S.namespace) viewBox=\"0 0 16 16\"><desc>" + String(repeating: "&e;", count: 5_000) + "</desc></svg>"
        for data in [Self.billionLaughs, Data(big.utf8)] {
            let error = refusal(data)
            #expect(error?.code == .unsupported && error?.format == .svg)
            #expect(error?.message.contains("<!ENTITY") == true, "\(error?.message ?? "")")
        }
    }

    @Test("any other DOCTYPE internal subset is refused (an ATTLIST default could add an href)")
    func attlist() {
        let data = Data("<!DOCTYPE svg [<!ATTLIST use href CDATA \"#a\">]><svg \(S.namespace) viewBox=\"0 0 1 1\"/>".utf8)
        let error = refusal(data)
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("internal subset") == true)
    }

    @Test("an embedded data: PNG whose header passes the decode limits is refused before librsvg")
    func hugeEmbeddedPNG() {
        let png = S.pngHeader(width: 30_000, height: 30_000).base64EncodedString()
        let data = S.svg("viewBox=\"0 0 16 16\"", "<image width=\"16\" height=\"16\" href=\"data:image/png;base64,\(png)\"/>")
        let error = refusal(data)
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("embedded data: PNG") == true, "\(error?.message ?? "")")
        // Past the embedded budget but inside the decode limits: refused too, naming the budget.
        let mid = S.pngHeader(width: 5_000, height: 5_000).base64EncodedString()
        let second = refusal(
            S.svg("viewBox=\"0 0 16 16\"", "<image width=\"16\" height=\"16\" xlink:href=\"data:image/png;base64,\(mid)\"/>"))
        #expect(second?.code == .tooLarge)
        #expect(second?.message.contains("embedded images may hold") == true, "\(second?.message ?? "")")
    }

    @Test("embedded images that are not PNG, JPEG or WebP, or nested SVG, are refused")
    func embeddedOtherFormats() {
        let gif = Data("GIF89a\u{1}\0\u{1}\0".utf8).base64EncodedString()
        let nested = S.square.base64EncodedString()
        for href in ["data:image/gif;base64,\(gif)", "data:image/svg+xml;base64,\(nested)", "data:image/png;base64,@@@"] {
            let error = refusal(S.svg("viewBox=\"0 0 16 16\"", "<image width=\"16\" height=\"16\" href=\"\(href)\"/>"))
            #expect(error?.code == .unsupported, "\(href.prefix(30)): \(error?.description ?? "")")
        }
    }

    @Test("a small embedded PNG renders")
    func smallEmbeddedPNG() throws {
        let png = try Fixtures.data(Fixtures.testImage("home.png")).base64EncodedString()
        let data = S.svg("viewBox=\"0 0 16 16\"", "<image width=\"16\" height=\"16\" href=\"data:image/png;base64,\(png)\"/>")
        let icon = try Normalizer().normalize(data)
        #expect(icon.renditions.count == 3)
        #expect(icon.renditions[2].bitmap.pixels.contains { $0 != 0 })
    }

    @Test("more elements than the limit are refused, and the limit is configurable")
    func tooManyElements() throws {
        let body = String(repeating: "<g/>", count: 10_000)
        let data = S.svg("viewBox=\"0 0 16 16\"", body)
        let error = refusal(data)
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("more than 10000 elements") == true, "\(error?.message ?? "")")
        // 5,000 elements pass by default and are refused under a lower limit.
        let half = S.svg("viewBox=\"0 0 16 16\"", String(repeating: "<g/>", count: 5_000))
        _ = try ImageDecoder.decode(half)
        var limits = DecodeOptions.Limits()
        limits.maxSVGElements = 2_000
        let lowered = #expect(throws: TabIconsError.self) {
            try ImageDecoder.decode(half, options: DecodeOptions(limits: limits))
        }
        #expect(lowered?.message.contains("more than 2000 elements") == true, "\(lowered?.message ?? "")")
    }

    @Test("what would take too long to draw is refused: many full-size masks, translucent groups")
    func drawingWork() {
        let masks = S.svg(
            "viewBox=\"0 0 16 16\"",
            "<mask id=\"m\"><rect width=\"8\" height=\"8\" fill=\"white\"/></mask>"
                + String(repeating: "<circle r=\"8\" cx=\"8\" cy=\"8\" mask=\"url(#m)\"/>", count: 3_000))
        let groups = S.svg(
            "viewBox=\"0 0 16 16\"", String(repeating: "<g opacity=\"0.5\"><circle r=\"8\" cx=\"8\" cy=\"8\"/></g>", count: 4_500)
        )
        for data in [masks, groups] {
            let error = refusal(data)
            #expect(error?.code == .tooLarge)
            #expect(error?.message.contains("too much to draw") == true, "\(error?.message ?? "")")
        }
    }

    @Test("an SVG past the size limit is refused, and so is an .svgz that inflates past it")
    func sizeLimits() throws {
        let big = S.svg("viewBox=\"0 0 16 16\"", "<!--" + String(repeating: " ", count: 1 << 20) + "-->")
        let error = refusal(big)
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("exceeds the SVG limit of 1048576 bytes") == true, "\(error?.message ?? "")")
        let bomb = try Fixtures.data(Fixtures.fixture("svg/bomb.svgz"))
        #expect(ImageFormat.sniff(bomb) == .svg)
        let inflated = refusal(bomb)
        #expect(inflated?.code == .tooLarge)
        #expect(inflated?.message.contains(".svgz inflates past the SVG limit") == true, "\(inflated?.message ?? "")")
        let truncated = refusal(bomb.prefix(bomb.count / 2))
        #expect(truncated?.code == .tooLarge || truncated?.code == .truncated)
    }

    @Test("deep nesting is refused")
    func deepNesting() {
        let data = S.svg(
            "viewBox=\"0 0 16 16\"", String(repeating: "<g>", count: 10_000) + String(repeating: "</g>", count: 10_000))
        let error = refusal(data)
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("nested deeper than 128") == true, "\(error?.message ?? "")")
    }

    @Test("<use> bombs are counted at their expanded size and refused; cycles are refused")
    func useBombs() {
        var defs = "<rect id=\"l0\" width=\"1\" height=\"1\"/>"
        for level in 1...8 {
            defs += "<g id=\"l\(level)\">" + String(repeating: "<use href=\"#l\(level - 1)\"/>", count: 10) + "</g>"
        }
        let bomb = refusal(S.svg("viewBox=\"0 0 16 16\"", "<defs>\(defs)</defs><use href=\"#l8\"/>"))
        #expect(bomb?.code == .tooLarge)
        #expect(bomb?.message.contains("counting every <use> copy") == true, "\(bomb?.message ?? "")")
        // The href hidden behind a character reference is still seen.
        let hidden = defs.replacingOccurrences(of: "href=\"#", with: "xlink:href=\"&#35;")
        #expect(
            refusal(S.svg("viewBox=\"0 0 16 16\"", "<defs>\(hidden)</defs><use xlink:href=\"&#x23;l8\"/>"))?.code == .tooLarge)
        for cycle in [
            "<g id=\"a\"><use href=\"#a\"/></g>",
            "<g id=\"a\"><use href=\"#b\"/></g><g id=\"b\"><use href=\"#a\"/></g>",
            "<use id=\"self\" href=\"#self\"/>"
        ] {
            let error = refusal(S.svg("viewBox=\"0 0 16 16\"", cycle))
            #expect(error?.code == .unsupported)
            #expect(error?.message.contains("reference cycle") == true, "\(error?.message ?? "")")
        }
    }

    @Test("nested patterns multiply like <use> and are counted so (a fuzzer finding: 1 s and more)")
    func patternBomb() {
        var defs =
            "<pattern id=\"p0\" width=\"1\" height=\"1\" patternUnits=\"userSpaceOnUse\"><rect width=\"1\" height=\"1\"/></pattern>"
        for level in 1...9 {
            defs +=
                "<pattern id=\"p\(level)\" width=\"20\" height=\"20\" patternUnits=\"userSpaceOnUse\">"
                + String(repeating: "<rect width=\"20\" height=\"20\" fill=\"url(#p\(level - 1))\" stroke=\"red\"/>", count: 9)
                + "</pattern>"
        }
        let error = refusal(
            S.svg(
                "width=\"40\" height=\"20\" viewBox=\"0 0 800 400\"",
                "<defs>\(defs)</defs><rect width=\"800\" height=\"400\" style=\"fill: url('#p9')\"/>"))
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("pattern, mask or marker drawn again") == true, "\(error?.message ?? "")")
        // A pattern that fills its own content is a cycle.
        let cycle = refusal(
            S.svg(
                "viewBox=\"0 0 16 16\"",
                "<pattern id=\"p\" width=\"4\" height=\"4\"><rect width=\"4\" height=\"4\" fill=\"url(#p)\"/></pattern><rect width=\"16\" height=\"16\" fill=\"url(#p)\"/>"
            ))
        #expect(cycle?.code == .unsupported && cycle?.message.contains("reference cycle") == true, "\(cycle?.message ?? "")")
    }

    @Test("the circle's square of an extremely long drawing is a coded error (a fuzzer finding)")
    func extremeAspectCircle() throws {
        let data = S.svg("width=\"30\" height=\"27%\" viewBox=\"0 0 6E20 540\"", "<rect width=\"6E20\" height=\"540\"/>")
        let image = try ImageDecoder.decode(data)
        #expect(image.info.pixelWidth == 30 && image.info.pixelHeight == 1)
        let error = #expect(throws: TabIconsError.self) {
            _ = try Normalizer(options: NormalizeOptions(shape: .circle)).normalize(data)
        }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("would scale the whole of it") == true, "\(error?.message ?? "")")
    }

    @Test("filter bombs: a huge blur, a huge morphology radius, a million turbulence octaves")
    func filterBombs() throws {
        let filtered = { (primitive: String) in
            S.svg(
                "width=\"16\" height=\"16\" viewBox=\"0 0 16 16\"",
                "<filter id=\"f\">\(primitive)</filter><rect width=\"8\" height=\"8\" filter=\"url(#f)\"/>")
        }
        let blur = refusal(filtered("<feGaussianBlur stdDeviation=\"1e9\"/>"))
        #expect(blur?.code == .tooLarge && blur?.message.contains("blur stdDeviation") == true, "\(blur?.message ?? "")")
        for primitive in [
            "<feMorphology operator=\"dilate\" radius=\"1000000\"/>",
            "<feTurbulence baseFrequency=\"0.9\" numOctaves=\"1000000\"/>"
        ] {
            let error = refusal(filtered(primitive))
            #expect(error?.code == .tooLarge, "\(primitive)")
            #expect(error?.message.contains("filter bomb") == true, "\(error?.message ?? "")")
        }
        // An order past librsvg's 400 kernel cells is refused before it (SVGPanicScreeningTests).
        let convolution = refusal(filtered("<feConvolveMatrix order=\"3000\" kernelMatrix=\"1\"/>"))
        #expect(
            convolution?.code == .unsupported && convolution?.message.contains("feConvolveMatrix order") == true,
            "\(convolution?.message ?? "")")
        // An ordinary drop shadow renders.
        let shadow = try Normalizer().normalize(filtered("<feGaussianBlur stdDeviation=\"0.5\"/>"))
        #expect(shadow.renditions.count == 3)
    }

    @Test("nothing outside the document is loaded: file:/// and ../ references show nothing of a canary")
    func externalReferences() throws {
        let dir = try TemporaryDirectory("svg-canary")
        let canary = Bitmap(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64))
        try Data(OutputFormat.png.encode(canary)).write(to: dir.url.appendingPathComponent("canary.png"))
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("icons"), withIntermediateDirectories: true)
        let absolute = dir.url.appendingPathComponent("canary.png").path
        for href in ["file://\(absolute)", "../canary.png", "canary.png", absolute] {
            let data = S.svg(
                "width=\"16\" height=\"16\" viewBox=\"0 0 16 16\"",
                "<image width=\"16\" height=\"16\" href=\"\(href)\"/><image width=\"16\" height=\"16\" xlink:href=\"\(href)\"/>")
            let file = dir.url.appendingPathComponent("icons/icon.svg")
            try data.write(to: file)
            let icon = try Normalizer().normalize(Data(contentsOf: file))
            for rendition in icon.renditions {
                #expect(rendition.bitmap.pixels.allSatisfy { $0 == 0 }, "\(href): the canary showed")
            }
        }
    }

    static let broken: [(name: String, bytes: Data, codes: Set<TabIconsError.Code>)] = [
        ("malformed", Data("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\"><g></svg>".utf8), [.corrupt]),
        ("truncated", S.square.prefix(S.square.count / 2), [.corrupt]),
        ("empty", Data(), [.unsupportedFormat]),
        ("only a prolog", Data("<?xml version=\"1.0\"?>".utf8), [.unsupportedFormat]),
        (
            "UTF-16", Data([0xFF, 0xFE]) + String(decoding: S.square, as: UTF8.self).data(using: .utf16LittleEndian)!,
            [.unsupported]
        ),
        ("unquoted attribute", Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=16/>".utf8), [.corrupt]),
        (
            "undeclared entity", Data("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\">&bogus;</svg>".utf8),
            [.corrupt]
        )
    ]

    @Test("malformed, truncated, empty and UTF-16 XML are coded errors with the parser's reason", arguments: broken)
    func brokenXML(name: String, bytes: Data, codes: Set<TabIconsError.Code>) {
        let error = refusal(bytes)
        #expect(error.map { codes.contains($0.code) } == true, "\(name): \(error?.description ?? "no error")")
        #expect(error?.message.isEmpty == false)
    }

    @Test("libxml2's own words, with line and column, are kept")
    func parserMessage() {
        let error = refusal(Data("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\">\n<g></svg>".utf8))
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("line 2") == true, "\(error?.message ?? "")")
    }

    @Test(
        "librsvg's own regression files are each a coded error or a rendering",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func librsvgRegressionFiles() throws {
        var rendered = 0, refused = 0
        for folder in ["crash", "render-crash", "errors"] {
            for file in try Fixtures.corpusFiles("svg/librsvg/\(folder)", extensions: ["svg", "svgz"]) {
                let data = try Fixtures.data(file)
                switch Result(catching: { () throws(TabIconsError) in try Normalizer().normalize(data) }) {
                case .success: rendered += 1
                case .failure(let error):
                    #expect(!error.message.isEmpty, "\(file.lastPathComponent)")
                    refused += 1
                }
            }
        }
        #expect(rendered + refused > 0)
    }
}
