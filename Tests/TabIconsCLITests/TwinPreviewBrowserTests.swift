import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport

/// The preview's dark twins in a real browser (headless Chromium, as `PreviewBrowserTests`): the
/// dark bars draw the dark twin, the light bars the icon.
@Suite(
    "tabicon preview: dark twins in a browser",
    .enabled(if: PreviewBrowser.isInstalled, "needs headless Chromium (Debian: apt-get install chromium)"))
struct TwinPreviewBrowserTests {
    @Test("a one-ink icon with a full-colour dark twin: pure tint in the light bars, the twin's colours in the dark ones")
    func darkTwinOnDarkBars() throws {
        let browser = try #require(PreviewBrowser.found)
        let scratch = try TemporaryDirectory("preview-browser")
        let icons = scratch.url.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.testImage("home.png"), to: icons.appendingPathComponent("home.png"))
        try FileManager.default.copyItem(
            at: Fixtures.testImage("avatar-exif6.jpg"), to: icons.appendingPathComponent("home-dark.jpg"))
        let page = scratch.url.appendingPathComponent("dark.html")
        #expect(SilentCLI.run(["preview", "-q", "-o", page.path, icons.path]) == .success)

        let load = try browser.dumpDOM(page, in: scratch)
        #expect(load.requestedURLs == [])
        #expect(PreviewBrowserTests.count("<article class=\"tab\"", in: load.dom) == 1)
        #expect(load.dom.contains("data-dark-twin=\"home-dark\""))
        #expect(PreviewBrowserTests.count("<li data-lint=\"twin-mismatch\">", in: load.dom) == 2)

        let shot = try ImageDecoder.decode(browser.screenshot(page, width: 760, height: 1600, in: scratch)).bitmap
        let screen = Screenshot(bitmap: shot)
        for bar in PreviewPlatforms.bars {
            let c = bar.colours
            let background = Screenshot.rgb(c.background)
            let frame = try #require(screen.bounds(of: background), "no \(bar.id) bar on screen")
            let top = frame.maxY + 1 - (bar.isMaterial ? 80 : 49)
            let rows = bar.isMaterial ? (top + 16)..<(top + 40) : (top + 4)..<(top + 29)
            let centre = frame.minX + frame.width / 4
            // The unselected item: the icon tinted in the light bars; in the dark bars the photo,
            // whose pixels are no blend of the bar and the tint.
            let item = screen.glyph(
                columns: (centre - 12)..<(centre + 13), rows: rows, ground: background,
                tint: Screenshot.rgb(c.unselected))
            if bar.id.hasSuffix("-dark") {
                #expect(item.offTint > 200, "\(bar.id): only \(item.offTint) pixels of the dark twin's colours")
            } else {
                #expect(item.offTint == 0 && item.strong >= 40, "\(bar.id): \(item.offTint) off the tint, \(item.strong) ink")
            }
        }
    }
}
