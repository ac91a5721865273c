import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// `--vector`'s converter: drawn back by an independent reading (the VectorDrawable through the
/// test's own `VectorDrawableReader`), both written forms match tabicon's PNG renditions at 1×, 2×
/// and 3× within 2% mean difference; the features a vector file cannot hold fall back, each named.
@Suite("Vector conversion")
struct VectorConversionTests {
    static let fixtures = ["house-fill", "gear-wide-connected", "alarm", "person-circle", "toggles2"]

    static func fixture(_ name: String) throws -> Data {
        try Fixtures.data(Fixtures.fixture("svg/vector/\(name).svg"))
    }

    static func svg(_ body: String, viewBox: String = "0 0 16 16", size: String = "width=\"16\" height=\"16\"") -> Data {
        Data(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \(size) viewBox=\"\(viewBox)\">\(body)</svg>"
                .utf8)
    }

    static func converted(_ data: Data, options: NormalizeOptions = NormalizeOptions()) throws -> VectorComparison.Outcome {
        switch try VectorComparison.compare(data, options: options) {
        case .success(let outcome): return outcome
        case .failure(let unsupported): throw unsupported
        }
    }

    @Test("Bootstrap Icons fixtures: both forms draw as the PNGs within 2%, with every shape option", arguments: fixtures)
    func bootstrapFixtures(name: String) throws {
        let data = try Self.fixture(name)
        let optionSets: [NormalizeOptions] = [
            NormalizeOptions(),
            NormalizeOptions(box: .material, scales: [1, 1.5, 2, 3, 4]),
            NormalizeOptions(shape: .square, trim: true),
            NormalizeOptions(shape: .circle),
            NormalizeOptions(trim: true, padding: IconPadding(points: 3)),
            NormalizeOptions(render: .template)
        ]
        var worst = 0.0
        for options in optionSets {
            let outcome = try Self.converted(data, options: options)
            #expect(outcome.worst < 0.02, "\(name) \(options.shape) trim \(options.trim): \(outcome.worst)")
            worst = max(worst, outcome.worst)
        }
        print("vector fixtures: \(name) worst mean difference \(worst)")
    }

    @Test("the written SVG: the icon's point size, the normalized viewBox, paths only, the colour resolved")
    func writtenSVG() throws {
        let outcome = try Self.converted(try Self.fixture("house-fill"))
        let text = String(decoding: outcome.svg, as: UTF8.self)
        #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"25\" height=\"25\" viewBox=\"0 0 16 16\">\n"))
        #expect(text.contains("fill=\"#000000\""))
        #expect(!text.contains("currentColor") && !text.contains("class="))
        let drawable = String(decoding: outcome.drawable, as: UTF8.self)
        #expect(drawable.contains("android:width=\"25dp\"") && drawable.contains("android:viewportWidth=\"16\""))
        // Padding widens the viewBox around the same user space, never rewrites the paths.
        let padded = try Self.converted(
            try Self.fixture("house-fill"), options: NormalizeOptions(padding: IconPadding(points: 2.5)))
        let paddedText = String(decoding: padded.svg, as: UTF8.self)
        #expect(paddedText.contains("viewBox=\"-2 -2 20 20\""), "\(paddedText.prefix(200))")
    }

    @Test("CSS classes, currentColor through color, <use>, inherited attributes, transforms, strokes, gradients, clips")
    func themeFeatures() throws {
        let data = Self.svg(
            """
            <style type="text/css">.ColorScheme-Text { color:#3daee9; } .accent{fill:#e91e63}</style>
            <defs>
              <linearGradient id="lg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff" stop-opacity=".5"/></linearGradient>
              <radialGradient id="rg" cx="8" cy="8" r="6" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="yellow"/><stop offset="100%" stop-color="green"/></radialGradient>
              <clipPath id="cp"><circle cx="12" cy="4" r="3"/></clipPath>
              <path id="dot" d="M0 0h2v2h-2z"/>
            </defs>
            <g class="ColorScheme-Text" fill="currentColor" stroke-linejoin="round">
              <path d="M1 1h6v6H1z"/>
              <use xlink:href="#dot" x="1" y="9" class="accent"/>
            </g>
            <rect x="9" y="9" width="6" height="6" rx="1.5" fill="url(#lg)"/>
            <circle cx="4" cy="13" r="2" fill="none" stroke="url(#rg)" stroke-width="1.5"/>
            <rect x="8" y="0" width="8" height="8" fill="rgb(10, 200, 30)" clip-path="url(#cp)" transform="rotate(10 12 4)"/>
            <ellipse cx="12" cy="12" rx="1" ry="2" fill="#fff" transform="skewX(20)" opacity=".8"/>
            <polyline points="1 8 4 7 7 8" fill="none" stroke="#333" stroke-linecap="round"/>
            """)
        let outcome = try Self.converted(data)
        #expect(outcome.worst < 0.02, "\(outcome.worst)")
        let text = String(decoding: outcome.svg, as: UTF8.self)
        #expect(text.contains("#3daee9") && text.contains("#e91e63") && !text.contains("<use") && !text.contains("<style"))
        let drawable = String(decoding: outcome.drawable, as: UTF8.self)
        #expect(drawable.contains("<aapt:attr name=\"android:fillColor\">") && drawable.contains("android:type=\"radial\""))
        #expect(drawable.contains("<clip-path"))
    }

    @Test("a paint that does not parse is ignored (the inherited one draws, as librsvg draws it); hsl() and named colours")
    func colourValues() throws {
        let data = Self.svg(
            """
            <g fill="#ff0000"><path style="fill:#value_dark" d="M1 1h6v6H1z"/></g>
            <path fill="hsl(120, 100%, 25%)" d="M9 1h6v6H9z"/><path fill="hsla(240, 50%, 50%, .5)" stroke="rebeccapurple" d="M1 9h6v6H1z"/>
            <path fill="cornflowerblue" d="M9 9h6v6H9z"/>
            """)
        let outcome = try Self.converted(data)
        #expect(outcome.worst < 0.02, "\(outcome.worst)")
        let text = String(decoding: outcome.svg, as: UTF8.self)
        #expect(
            text.contains("fill=\"#ff0000\"") && text.contains("fill=\"#008000\"") && text.contains("fill=\"#6495ed\"")
                && text.contains("stroke=\"#663399\""), "\(text)")
    }

    @Test("fill-rule evenodd becomes fillType evenOdd")
    func evenOdd() throws {
        let data = Self.svg("<path fill-rule=\"evenodd\" d=\"M1 1h14v14H1zM4 4h8v8H4z\"/>")
        let outcome = try Self.converted(data)
        #expect(outcome.worst < 0.02)
        #expect(String(decoding: outcome.drawable, as: UTF8.self).contains("android:fillType=\"evenOdd\""))
    }

    @Test(
        "each feature a vector file cannot hold falls back, naming it",
        arguments: [
            ("<text x=\"1\" y=\"12\">A</text>", "<text>"),
            (
                "<image width=\"4\" height=\"4\" href=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==\"/>",
                "<image>"
            ),
            (
                "<filter id=\"f\"><feGaussianBlur stdDeviation=\"1\"/></filter><rect width=\"8\" height=\"8\" filter=\"url(#f)\"/>",
                "filters"
            ),
            (
                "<mask id=\"m\"><rect width=\"4\" height=\"4\" fill=\"#fff\"/></mask><rect width=\"8\" height=\"8\" mask=\"url(#m)\"/>",
                "masks"
            ),
            (
                "<pattern id=\"p\" width=\"2\" height=\"2\"><rect width=\"1\" height=\"1\"/></pattern><rect width=\"8\" height=\"8\" fill=\"url(#p)\"/>",
                "<pattern>"
            ),
            (
                "<marker id=\"k\"><path d=\"M0 0h1v1z\"/></marker><path d=\"M1 1L9 9\" stroke=\"#000\" marker-end=\"url(#k)\"/>",
                "markers"
            ),
            ("<path d=\"M1 1L9 9\" stroke=\"#000\" stroke-dasharray=\"2 1\"/>", "dashed strokes (stroke-dasharray)"),
            (
                "<radialGradient id=\"r\" fx=\"0.2\"><stop offset=\"0\"/><stop offset=\"1\" stop-color=\"red\"/></radialGradient><rect width=\"8\" height=\"8\" fill=\"url(#r)\"/>",
                "a radial gradient with a focal point (fx, fy)"
            ),
            ("<style>g path { fill: red }</style><path d=\"M1 1h4v4z\"/>", "CSS beyond simple selectors (the selector g path)"),
            ("<svg x=\"1\"><path d=\"M1 1h4v4z\"/></svg>", "<svg>"),
            (
                "<clipPath id=\"c\"><path clip-rule=\"evenodd\" d=\"M0 0h8v8H0zM2 2h4v4H2z\"/></clipPath><rect width=\"16\" height=\"16\" clip-path=\"url(#c)\"/>",
                "clip-rule evenodd"
            ),
            (
                "<radialGradient id=\"r\" gradientTransform=\"scale(2 1)\"><stop offset=\"0\"/><stop offset=\"1\" stop-color=\"red\"/></radialGradient><rect width=\"8\" height=\"8\" fill=\"url(#r)\"/>",
                "a radial gradient stretched by a transform"
            ),
            (
                "<symbol id=\"s\" viewBox=\"0 0 4 4\"><rect width=\"4\" height=\"4\"/></symbol><use href=\"#s\" width=\"8\" height=\"8\"/>",
                "<symbol with a viewBox>"
            ),
            ("<rect width=\"2em\" height=\"4\"/>", "the value length 2em"),
            ("<g stroke=\"#000\" opacity=\".5\"><rect width=\"8\" height=\"8\"/></g>", "opacity on a group of several shapes")
        ])
    func fallbacks(body: String, feature: String) throws {
        let result = try VectorComparison.compare(Self.svg(body))
        guard case .failure(let unsupported) = result else { Issue.record("converted: \(body)"); return }
        #expect(unsupported.feature.description == feature)
    }

    @Test("group opacity over overlapping shapes falls back on Android only; the SVG keeps it exactly")
    func groupOpacity() throws {
        let data = Self.svg(
            "<g opacity=\".5\"><rect width=\"8\" height=\"8\"/><rect x=\"4\" y=\"4\" width=\"8\" height=\"8\"/></g>")
        let normalizer = Normalizer()
        let icon = try normalizer.normalize(data)
        #expect(
            try normalizer.vectorFile(data, icon: icon, target: .vectorDrawable) == .failure(VectorUnsupported(.groupOpacity)))
        guard case .success(let svg) = try #require(try normalizer.vectorFile(data, icon: icon, target: .svg)) else {
            Issue.record("the SVG fell back"); return
        }
        #expect(String(decoding: svg, as: UTF8.self).contains("<g opacity=\"0.5\">"))
        // Apart, the shapes take the group's alpha exactly.
        let apart = try Self.converted(
            Self.svg("<g opacity=\".5\"><rect width=\"4\" height=\"4\"/><rect x=\"8\" y=\"8\" width=\"4\" height=\"4\"/></g>"))
        #expect(apart.worst < 0.02)
        #expect(String(decoding: apart.drawable, as: UTF8.self).contains("android:fillAlpha=\"0.5\""))
    }

    @Test("template-luminance cannot be a vector: it falls back")
    func luminanceIntent() throws {
        let result = try VectorComparison.compare(
            try Self.fixture("alarm"), options: NormalizeOptions(render: .templateLuminance))
        #expect(result == .failure(VectorUnsupported(.renderIntent("template-luminance"))))
    }

    @Test("nothing that refers outside the file survives: external href, url(), script, foreignObject, event attributes")
    func sanitized() throws {
        let data = Self.svg(
            """
            <script>alert(1)</script>
            <foreignObject width="16" height="16"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
            <use href="http://example.com/a.svg#x"/><use xlink:href="file:///etc/passwd#x"/>
            <path d="M1 1h6v6H1z" onclick="alert(2)" fill="url(http://example.com/p.svg#g) #123456"/>
            <rect x="8" y="8" width="6" height="6" style="fill: url('https://example.com/x#y')" onload="alert(3)"/>
            <a href="javascript:alert(4)"><circle cx="4" cy="12" r="2"/></a>
            """)
        let outcome = try Self.converted(data)
        #expect(outcome.worst < 0.02, "\(outcome.worst)")
        for bytes in [outcome.svg, outcome.drawable] {
            let text = String(decoding: bytes, as: UTF8.self).lowercased()
            for banned in [
                "script", "alert", "file:", "javascript", "onclick", "onload", "foreignobject", "href", "example", "url("
            ] {
                #expect(!text.contains(banned), "\(banned) in \(text)")
            }
        }
        #expect(String(decoding: outcome.svg, as: UTF8.self).contains("fill=\"#123456\""))
    }

    @Test(
        "hostile documents: entity bombs and deep nesting are refused as the decoder refuses them; huge and NaN numbers stay finite"
    )
    func hostile() throws {
        let bomb = Data(
            """
            <?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><text>&b;</text></svg>
            """.utf8)
        #expect(throws: TabIconsError.self) { try Normalizer().normalize(bomb) }
        let placement = VectorPlacement(
            region: .whole, canvasWidth: 25, canvasHeight: 25, glyphWidth: 25, glyphHeight: 25, circle: false)
        let document = try #require(try ImageDecoder.decode(Self.svg("<path d=\"M1 1h2v2z\"/>")).vector)
        #expect(throws: TabIconsError.self) {
            _ = try VectorConversion.convert(bomb, document: document, placement: placement, target: .svg, limits: .default)
        }
        let deep = Self.svg(
            String(repeating: "<g>", count: 400) + "<path d=\"M1 1h2v2z\"/>" + String(repeating: "</g>", count: 400))
        #expect(throws: TabIconsError.self) {
            _ = try VectorConversion.convert(
                deep, document: document, placement: placement, target: .vectorDrawable, limits: .default)
        }
        // Numbers past Double, NaN and infinities: the path stops at the bad number (SVG's error
        // rule), transforms that do not parse are ignored; the output is always plain decimals.
        let numbers = Self.svg(
            """
            <path d="M1 1L1e400 2L3 3z"/><path d="M2 2h1e308v1e308z"/><path d="M1 1 L NaN 4 z"/>
            <rect width="4" height="4" transform="scale(1e999)"/><rect width="inf" height="4"/>
            <circle cx="8" cy="8" r="1e30"/>
            """)
        for target in [VectorConversion.Target.svg, .vectorDrawable] {
            let result = try VectorConversion.convert(
                numbers, document: document, placement: placement, target: target, limits: .default)
            guard case .success(let bytes) = result else { Issue.record("fell back: \(result)"); continue }
            let text = String(decoding: bytes, as: UTF8.self).lowercased()
            #expect(!text.contains("nan") && !text.contains("inf") && !text.contains("e+"), "\(text)")
            #expect(bytes.count < 2_000, "\(text)")
            #expect(text.contains("1000000000"))
        }
        // A <use> cycle is the screening's refusal, before the converter reads anything.
        let cycle = Self.svg("<g id=\"a\"><use href=\"#b\"/></g><g id=\"b\"><use href=\"#a\"/></g><path d=\"M1 1h4v4z\"/>")
        #expect(throws: TabIconsError.self) {
            _ = try VectorConversion.convert(cycle, document: document, placement: placement, target: .svg, limits: .default)
        }
    }

    @Test("the root's own opacity, clip and filter count as a group's")
    func rootProperties() throws {
        let translucent = Data(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\" opacity=\".5\"><rect width=\"8\" height=\"8\"/><rect x=\"8\" y=\"8\" width=\"8\" height=\"8\"/></svg>"
                .utf8)
        #expect(try Self.converted(translucent).worst < 0.02)
        let filtered = Data(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\" filter=\"url(#f)\"><filter id=\"f\"><feGaussianBlur stdDeviation=\"1\"/></filter><rect width=\"8\" height=\"8\"/></svg>"
                .utf8)
        #expect(try VectorComparison.compare(filtered) == .failure(VectorUnsupported(.filter)))
    }

    @Test("deterministic: the same input and options give the same bytes")
    func deterministic() throws {
        let data = try Self.fixture("gear-wide-connected")
        let a = try Self.converted(data, options: NormalizeOptions(shape: .circle, padding: IconPadding(percent: 10)))
        let b = try Self.converted(data, options: NormalizeOptions(shape: .circle, padding: IconPadding(percent: 10)))
        #expect(a.svg == b.svg && a.drawable == b.drawable)
    }

    @Test("aapt2 compiles every VectorDrawable the fixtures make", .enabled(if: AndroidTools.isInstalled, "needs aapt2"))
    func aapt2Compiles() throws {
        let directory = try TemporaryDirectory()
        let drawable = directory.url.appendingPathComponent("res/drawable")
        try FileManager.default.createDirectory(at: drawable, withIntermediateDirectories: true)
        let gradient = Self.svg(
            "<linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"red\"/><stop offset=\"1\" stop-color=\"blue\"/></linearGradient><rect width=\"16\" height=\"16\" rx=\"3\" fill=\"url(#g)\"/>"
        )
        var inputs = try Self.fixtures.map { ($0, try Self.fixture($0)) }
        inputs.append(("gradient", gradient))
        for (name, data) in inputs {
            let outcome = try Self.converted(data, options: NormalizeOptions(box: .material, shape: .circle))
            let file = drawable.appendingPathComponent(name.replacingOccurrences(of: "-", with: "_") + ".xml")
            try Data(outcome.drawable).write(to: file)
            let result = try AndroidTools.aapt2(["compile", "-o", directory.url.path, file.path])
            #expect(result.status == 0, "\(name): \(result.output)")
        }
    }
}
