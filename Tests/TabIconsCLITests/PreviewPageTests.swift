import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport

/// `tabicon preview` and `normalize --preview` without a browser: what the page is made of, that
/// it is self-contained, escaped and deterministic, and what the command writes.
@Suite("tabicon preview: the page")
struct PreviewPageTests {
    static let hostileName = "<img src=x onerror=alert(1)>.png"

    /// A few TestImages, a valid PNG and a corrupt file with hostile names, in a fresh tree.
    static func makeInputs() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("preview-in")
        let icons = dir.url.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        for name in ["home.png", "home-filled.png", "search.png", "avatar-exif6.jpg", "rgba16-32.png"] {
            try FileManager.default.copyItem(at: Fixtures.testImage(name), to: icons.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(
            at: Fixtures.testImage("bell.png"),
            to: icons.appendingPathComponent("\"quoted\" & <b>bold.png"))
        try Data("not an image at all".utf8).write(to: icons.appendingPathComponent(hostileName))
        return dir
    }

    func page(_ url: URL) throws -> String { try String(decoding: Data(contentsOf: url), as: UTF8.self) }

    /// The page `tabicon preview` writes for `makeInputs()`.
    func inputsPage() throws -> String {
        let inputs = try Self.makeInputs()
        let out = try TemporaryDirectory("preview-out")
        _ = SilentCLI.run(["preview", "-q", "-o", out.path("p.html"), inputs.path("icons")])
        return try page(out.url.appendingPathComponent("p.html"))
    }

    @Test("the same inputs and options give the same bytes, for any --jobs, from preview and from normalize --preview")
    func deterministic() throws {
        let inputs = try Self.makeInputs()
        let out = try TemporaryDirectory("preview-out")
        let icons = inputs.path("icons")
        #expect(SilentCLI.run(["preview", "-q", "--jobs", "1", "-o", out.path("a.html"), icons]) == .someInputsFailed)
        #expect(SilentCLI.run(["preview", "-q", "--jobs", "3", "-o", out.path("b.html"), icons]) == .someInputsFailed)
        #expect(
            SilentCLI.run(["normalize", "-q", "-o", out.path("run"), "--preview", out.path("c.html"), icons])
                == .someInputsFailed)
        let a = try Data(contentsOf: out.url.appendingPathComponent("a.html"))
        #expect(a == (try Data(contentsOf: out.url.appendingPathComponent("b.html"))))
        // Read back from the written files, the page is the in-memory one byte for byte.
        #expect(a == (try Data(contentsOf: out.url.appendingPathComponent("c.html"))))
        #expect(a.count > 10_000)
    }

    @Test("inputs whose outputs collide are named as normalize names them, one tab each")
    func collidingNames() throws {
        let dir = try TemporaryDirectory("preview-in")
        let icons = dir.url.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        // home.png and home.webp both want home.png: the later input keeps its extension, home-webp.
        for (source, name) in [("home.png", "home.png"), ("lossy-alpha.webp", "home.webp"), ("search.png", "search.png")] {
            try FileManager.default.copyItem(at: Fixtures.testImage(source), to: icons.appendingPathComponent(name))
        }
        let out = try TemporaryDirectory("preview-out")
        #expect(SilentCLI.run(["preview", "-q", "-o", out.path("a.html"), icons.path]) == .success)
        #expect(
            SilentCLI.run(["normalize", "-q", "-o", out.path("run"), "--preview", out.path("b.html"), icons.path])
                == .success)
        #expect(FileManager.default.fileExists(atPath: out.path("run/icons/home-webp@3x.png")))
        let a = try page(out.url.appendingPathComponent("a.html"))
        #expect(a == (try page(out.url.appendingPathComponent("b.html"))))
        #expect(a.components(separatedBy: "data-tab=\"home\"").count - 1 == 1)
        #expect(a.contains("data-tab=\"home-webp\""))
    }

    @Test("preview writes only its page, and -o naming an input, a folder or nothing is a usage error")
    func writesOnlyThePage() throws {
        let inputs = try Self.makeInputs()
        let before = try inputs.snapshot()
        let out = try TemporaryDirectory("preview-out")
        #expect(SilentCLI.run(["preview", "-q", "-o", out.path("p.html"), inputs.path("icons/home.png")]) == .success)
        #expect(out.files() == ["p.html"])
        let home = inputs.path("icons/home.png")
        #expect(SilentCLI.run(["preview", "-q", "-o", home, home]) == .usage)
        #expect(SilentCLI.run(["preview", "-q", "-o", out.url.path, home]) == .usage)
        #expect(SilentCLI.run(["preview", "-q", home]) == .usage)
        #expect(SilentCLI.run(["preview", "-q", "-o", out.path("q.html")]) == .usage)
        for refused in [["--manifest", out.path("m.json")], ["--json"], ["--preview", out.path("x.html")]] {
            #expect(SilentCLI.run(["preview", "-q", "-o", out.path("q.html")] + refused + [home]) == .usage)
        }
        #expect(try inputs.snapshot() == before)
        #expect(out.files() == ["p.html"])
    }

    @Test("normalize --preview at the path of an input is exit 2 before any work, the input left alone")
    func previewOverInput() throws {
        let inputs = try Self.makeInputs()
        let out = try TemporaryDirectory("preview-out")
        let home = inputs.path("icons/home.png")
        let before = try Data(contentsOf: URL(fileURLWithPath: home))
        #expect(SilentCLI.run(["normalize", "-q", "-o", out.path("run"), "--preview", home, home]) == .usage)
        #expect(try Data(contentsOf: URL(fileURLWithPath: home)) == before)
        #expect(out.files().isEmpty)
    }

    @Test("every file name and message is escaped: a hostile name reads as text and makes no element")
    func escaping() throws {
        let html = try inputsPage()
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;.png"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("onerror=alert(1)>"))
        #expect(html.contains("&quot;quoted&quot; &amp; &lt;b&gt;bold"))
        #expect(!html.contains("<b>bold"))
        // The corrupt file is listed with its code and the decoder's reason.
        #expect(html.contains("data-code=\"unsupportedFormat\""))
    }

    @Test("self-contained: no script, nothing fetched from anywhere but data: URLs, a CSP forbidding the rest")
    func selfContained() throws {
        let html = try inputsPage()
        #expect(html.contains("content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\""))
        let outsideData = Self.removingDataURLs(html)
        // (`src=` itself appears, escaped, in the hostile file name; no element that loads anything does.)
        for forbidden in [
            "http:", "https:", "//", "<script", "<link", "@import", "<img", "<iframe", "<object",
            "<embed", "<source", "<video", "<audio", "file:/", "ftp:"
        ] {
            #expect(!outsideData.lowercased().contains(forbidden), "found \(forbidden)")
        }
        // Every url( is a data: URL, and every link is an anchor inside the page.
        #expect(html.components(separatedBy: "url(").dropFirst().allSatisfy { $0.hasPrefix("\"data:image/") })
        #expect(html.components(separatedBy: "href=\"").dropFirst().allSatisfy { $0.hasPrefix("#") })
    }

    /// The page with every `data:` URL's payload cut out.
    static func removingDataURLs(_ html: String) -> String {
        var result = ""
        var rest = Substring(html)
        while let start = rest.range(of: "\"data:") {
            result += rest[..<start.lowerBound]
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { return result }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    @Test("the document has one tab per icon pair, each lint and failure, and the decode scale and point size")
    func contents() throws {
        let html = try inputsPage()
        // 7 inputs: 6 icons (home + home-filled pair) and 1 failure: 5 tabs.
        #expect(html.components(separatedBy: "<article class=\"tab\"").count - 1 == 5)
        #expect(html.contains("data-tab=\"home\" data-selected-twin=\"home-filled\""))
        #expect(html.contains("<div data-stat=\"failures\" class=\"bad\"><dt>failed</dt><dd>1</dd>"))
        #expect(html.contains("<b>decode scale 3.84</b> · <b>25×25 pt</b>"))
        // The avatar is opaque (drawn as it is); the undersized 16-bit file shows its skipped scales.
        #expect(html.contains("data-icon=\"avatar-exif6\" data-role=\"icon\" data-tint=\"original\" data-lints=\"opaque\""))
        #expect(html.contains("<li data-lint=\"opaque\">"))
        #expect(html.contains(PreviewPlatforms.consequence(.opaque)))
        #expect(html.components(separatedBy: "data-skipped").count - 1 == 2)
        #expect(html.contains("data-icon=\"home\" data-role=\"icon\" data-tint=\"template\""))
        // Every rendition once, as a data: URL.
        #expect(html.components(separatedBy: "url(\"data:image/png;base64,").count - 1 == 3 * 5 + 1)
    }

    @Test("--render template tints every icon, colour or not")
    func templateRun() throws {
        let out = try TemporaryDirectory("preview-out")
        let status = SilentCLI.run([
            "preview", "-q", "--render", "template", "-o", out.path("p.html"),
            Fixtures.testImage("avatar-exif6.jpg").path, Fixtures.testImage("home.png").path
        ])
        #expect(status == .success)
        let html = try page(out.url.appendingPathComponent("p.html"))
        #expect(!html.contains("data-tint=\"original\""))
        #expect(html.components(separatedBy: "data-tint=\"template\"").count - 1 == 2)
    }

    @Test("selected twins pair by name within a folder: -filled, -selected, -fill, .fill")
    func pairing() {
        func icon(_ input: String) -> PreviewDocument.Icon {
            let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
            let info = ImageInfo(
                format: .png, pixelWidth: 25, pixelHeight: 25, hasAlpha: true,
                hasTransparentPixels: true, orientation: .up, isAnimated: false, bitDepth: 8, colorModel: .rgba)
            let entry = Manifest.Icon(
                input: input, name: name, info: info, contentHash: ContentHash(high: 0, low: 0),
                decodeScale: 1, pointWidth: 25, pointHeight: 25, renditions: [], lints: [])
            return PreviewDocument.Icon(entry: entry, renditions: [])
        }
        let icons = [
            "a/home.png", "a/gear.png", "a/home-filled.png", "a/star.fill.png", "a/star.png",
            "a/bell-selected.png", "a/bell.png", "b/gear-fill.png", "a/lonely-filled.png", "a/map-filled.png",
            "a/map-selected.png", "a/map.png"
        ].map(icon)
        let tabs = PreviewTab.pair(icons)
        let names = tabs.map { tab in [icons[tab.icon].entry.name] + (tab.selected.map { [icons[$0].entry.name] } ?? []) }
        // A second twin of one icon (map-selected beside map-filled) and a twin in another folder
        // (b/gear-fill) are tabs of their own.
        #expect(
            names == [
                ["home", "home-filled"], ["gear"], ["star", "star.fill"], ["bell", "bell-selected"],
                ["gear-fill"], ["lonely-filled"], ["map-selected"], ["map", "map-filled"]
            ])
    }
}
