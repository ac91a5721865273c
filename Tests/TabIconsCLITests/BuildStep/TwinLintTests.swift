import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsNormalize
@testable import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// `twin-mismatch` (SPEC §3) on both icons of a pair, the preview's dark bars, and the item a tab
/// bar publishes from a run's manifest (`ItemIcons(entry:in:outputRoot:)`).
@Suite("twin lints, the preview's dark twins, items from a manifest")
struct TwinLintTests {
    static func row(_ input: String, _ width: Double, _ height: Double, _ intent: IconIntent, lints: [Lint] = []) -> Manifest.Icon
    {
        let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        let info = ImageInfo(
            format: .png, pixelWidth: 96, pixelHeight: 96, hasAlpha: true,
            hasTransparentPixels: true, orientation: .up, isAnimated: false, bitDepth: 8, colorModel: .rgba)
        var entry = Manifest.Icon(
            input: input, name: name, info: info, contentHash: ContentHash(high: 0, low: 0),
            decodeScale: 1, pointWidth: width, pointHeight: height, renditions: [], lints: lints)
        entry.intent = intent
        return entry
    }

    static func mismatch(_ icon: Manifest.Icon) -> String? { icon.lints.first { $0.code == .twinMismatch }?.message }

    @Test("the rule: point size or aspect beyond a pixel at 3×, or the intent; on both icons, with what differs")
    func rule() {
        var icons = [
            Self.row("a/home.png", 25, 25, .template), Self.row("a/home-dark.png", 25, 25, .template),
            Self.row("a/bell.png", 25, 25, .template), Self.row("a/bell-filled.png", 25, 20, .template),
            Self.row("a/star.png", 25, 25, .template), Self.row("a/star.dark.png", 25, 25, .original),
            Self.row("a/map.png", 25, 20, .template), Self.row("a/map-dark.png", 24.8, 19.9, .template),
            Self.row("a/pin.png", 20, 20, .template), Self.row("a/pin-fill.png", 25, 25, .template),
            Self.row("a/tag.png", 25, 19, .template), Self.row("a/tag-dark.png", 25, 19.4, .template)
        ]
        IconTwins.link(&icons)
        let lint = Dictionary(uniqueKeysWithValues: icons.map { ($0.name, Self.mismatch($0)) })
        // Equal, and within a pixel at 3× (0.2 pt off is 0.6 px): nothing.
        #expect(lint["home"]! == nil && lint["home-dark"]! == nil && lint["map"]! == nil && lint["map-dark"]! == nil)
        // Height 20 against 25: point size and aspect, on both, each naming the other.
        #expect(
            lint["bell"]!
                == "its selected twin a/bell-filled.png differs: point size 25×20 pt, not 25×25 pt; aspect 1.25:1, not 1:1 (over a pixel at 3×)"
        )
        #expect(
            lint["bell-filled"]!
                == "the icon it is the selected twin of, a/bell.png, differs: point size 25×25 pt, not 25×20 pt; aspect 1:1, not 1.25:1 (over a pixel at 3×)"
        )
        #expect(lint["star"]! == "its dark twin a/star.dark.png differs: intent original, not template")
        #expect(lint["star.dark"]! != nil)
        // The same aspect at another size: the point size alone.
        #expect(lint["pin"]! == "its selected twin a/pin-fill.png differs: point size 25×25 pt, not 20×20 pt")
        // 0.4 pt is 1.2 px at 3×: beyond a pixel.
        #expect(lint["tag"]!?.contains("point size 25×19.4 pt") == true)
        // Rerun over carried-over rows: a pair that no longer exists drops the lint; none doubles.
        var again = icons.filter { $0.name != "bell-filled" }
        IconTwins.link(&again)
        IconTwins.link(&again)
        #expect(Self.mismatch(again.first { $0.name == "bell" }!) == nil)
        #expect(again.first { $0.name == "star" }!.lints.filter { $0.code == .twinMismatch }.count == 1)
    }

    @Test("a run lints both icons of a pair that differs, and the manifest keeps it across a rerun")
    func runLints() throws {
        let dir = try BuildStep.inputs([
            ("home.png", "home.png"), ("home-dark.png", "rgba-32.png"), ("bell.png", "bell.png"),
            ("bell-filled.png", "bell-filled.webp")
        ])
        let out = try TemporaryDirectory("out")
        #expect(BuildStep.cli(["--layout", "xcassets", dir.path("icons"), "-o", out.url.path]) == .success)
        let manifest = try BuildStep.manifest(out.path("manifest.json"))
        let icons = Dictionary(uniqueKeysWithValues: manifest.icons.map { ($0.name, $0) })
        let home = try #require(icons["home"]), dark = try #require(icons["home-dark"])
        // rgba-32 is a colour image (original) at 25 pt beside a one-ink glyph (template).
        #expect(Self.mismatch(home) == "its dark twin \(dark.input) differs: intent original, not template")
        #expect(Self.mismatch(dark) == "the icon it is the dark twin of, \(home.input), differs: intent template, not original")
        #expect(Self.mismatch(try #require(icons["bell"])) == nil)
        #expect(BuildStep.cli(["--layout", "xcassets", dir.path("icons"), "-o", out.url.path]) == .success)
        #expect(try BuildStep.manifest(out.path("manifest.json")) == manifest)
    }

    @Test(
        "inspect links twins and lints a pair that differs as normalize does: in its document and in a line of its own",
        .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
    func inspectLinksTwins() throws {
        let dir = try BuildStep.inputs([
            ("home.png", "home.png"), ("home-dark.png", "rgba-32.png"), ("bell.png", "bell.png"),
            ("bell-filled.png", "bell-filled.webp")
        ])
        let json = try OutputHygieneTests.run(["inspect", "--json", dir.path("icons")])
        #expect(json.status == 0)
        let document = try TemporaryDirectory("inspect-json")
        try Data(json.out.utf8).write(to: document.url.appendingPathComponent("inspect.json"))
        let icons = Dictionary(
            uniqueKeysWithValues: try BuildStep.manifest(document.path("inspect.json")).icons.map { ($0.name, $0) })
        let home = try #require(icons["home"]), dark = try #require(icons["home-dark"]), bell = try #require(icons["bell"])
        #expect(home.darkTwin == dark.input && home.selectedTwin == nil)
        #expect(bell.selectedTwin == icons["bell-filled"]?.input && Self.mismatch(bell) == nil)
        #expect(Self.mismatch(home) == "its dark twin \(dark.input) differs: intent original, not template")
        #expect(Self.mismatch(dark) == "the icon it is the dark twin of, \(home.input), differs: intent template, not original")
        let lines = try OutputHygieneTests.run(["inspect", dir.path("icons")]).out.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(
            lines.contains(
                "\(home.input)  lints: twin-mismatch: its dark twin \(dark.input) differs: intent original, not template"))
        #expect(lines.filter { $0.contains("twin-mismatch") }.count == 2)
    }

    @Test("the preview: the dark twin in the dark bars, the light icon in the light ones; twin-mismatch explained")
    func previewDarkBars() throws {
        let out = try TemporaryDirectory("preview")
        let dir = try BuildStep.inputs([
            ("home.png", "home.png"), ("home-filled.png", "home-filled.png"), ("home-dark.png", "bell.png"),
            ("home-filled-dark.png", "heart.png"), ("star.png", "search.png"), ("star-dark.png", "rgba-32.png")
        ])
        #expect(SilentCLI.run(["preview", "-q", "-o", out.path("p.html"), dir.path("icons")]) == .success)
        let html = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out.path("p.html"))), as: UTF8.self)
        // Two tabs: the twins are in them, not tabs of their own.
        #expect(html.components(separatedBy: "<article class=\"tab\"").count - 1 == 2)
        #expect(html.contains("data-tab=\"home\" data-selected-twin=\"home-filled\" data-dark-twin=\"home-dark\""))
        for (bar, shows) in [
            ("ios-light", ["home", "home-filled"]), ("ios-dark", ["home-dark", "home-filled-dark"]),
            ("material-light", ["home", "home-filled"]), ("material-dark", ["home-dark", "home-filled-dark"])
        ] {
            let section = try #require(Self.bar(bar, tab: "home", in: html))
            #expect(section.contains("data-state=\"unselected\" data-shows=\"\(shows[0])\""), "\(bar)")
            #expect(section.contains("data-state=\"selected\" data-shows=\"\(shows[1])\""), "\(bar)")
        }
        // star has no selected twin: its dark twin in both states of the dark bars.
        let starDark = try #require(Self.bar("ios-dark", tab: "star", in: html))
        #expect(
            starDark.contains("data-state=\"unselected\" data-shows=\"star-dark\"")
                && starDark.contains("data-state=\"selected\" data-shows=\"star-dark\""))
        #expect(html.contains("data-icon=\"home-dark\" data-role=\"dark\""))
        #expect(html.contains("data-icon=\"home-filled-dark\" data-role=\"selected-dark\""))
        // rgba-32 is undersized and colourful beside a 25 pt glyph: twin-mismatch on both, with the sentence.
        #expect(html.contains("data-kind=\"twin-mismatch\""))
        #expect(html.contains(PreviewHTML.escape(PreviewPlatforms.consequence(.twinMismatch))))
    }

    /// The markup of one bar of one tab.
    static func bar(_ id: String, tab: String, in html: String) -> String? {
        guard let article = html.range(of: "data-tab=\"\(tab)\"") else { return nil }
        let rest = html[article.upperBound...]
        guard let start = rest.range(of: "data-bar=\"\(id)\"") else { return nil }
        let after = rest[start.upperBound...]
        let end = after.range(of: "data-bar=")?.lowerBound ?? after.range(of: "</article>")?.lowerBound ?? after.endIndex
        return String(after[..<end])
    }

    @Test("ItemIcons from a manifest entry: its rendition and its selected twin's, or their dark twins'")
    func itemFromManifest() throws {
        let dir = try BuildStep.inputs([
            ("home.png", "home.png"), ("home-filled.png", "home-filled.png"), ("home-dark.png", "bell.png"),
            ("search.png", "search.png")
        ])
        let out = try TemporaryDirectory("out")
        #expect(BuildStep.cli(["--layout", "xcassets", dir.path("icons"), "-o", out.url.path]) == .success)
        let manifest = try BuildStep.manifest(out.path("manifest.json"))
        let home = try #require(manifest.icons.first { $0.name == "home" })
        let file = { (path: String) in try Data(contentsOf: URL(fileURLWithPath: out.path(path))) }
        let item = try ItemIcons(entry: home, in: manifest, outputRoot: out.url, scale: 2)
        #expect(item.icon == (try file("icons/home.imageset/home@2x.png")))
        #expect(item.selectedIcon == (try file("icons/home-filled.imageset/home-filled@2x.png")))
        // Dark: the dark twin stands in for the icon; the selected twin has none, so stays.
        let dark = try ItemIcons(entry: home, in: manifest, outputRoot: out.url, dark: true)
        #expect(dark.icon == (try file("icons/home.imageset/home-dark@3x.png")))
        #expect(dark.selectedIcon == (try file("icons/home-filled.imageset/home-filled@3x.png")))
        let search = try ItemIcons(
            entry: try #require(manifest.icons.first { $0.name == "search" }), in: manifest, outputRoot: out.url)
        let searchFile = try file("icons/search.imageset/search@3x.png")
        #expect(search.selectedIcon == nil && search.icon == searchFile)
        // The item publishes like any bytes.
        #expect(try IconTable().publish(slot: 1, items: [item]) > 0)
        // A hostile entry's path is never read.
        var hostile = home
        hostile.renditions?[0].path = "../../etc/passwd"
        #expect(throws: TabIconsError.self) { try ItemIcons(entry: hostile, in: manifest, outputRoot: out.url, scale: 1) }
    }
}
