import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// The preview's view of a set (SPEC §3a): the set's bar, the line naming what the set's lints flag,
/// and the measures drawn over each icon behind a toggle (a checkbox: the page has no script).
@Suite("tabicon preview: the set and its measures")
struct PreviewMeasuresTests {
    /// Four glyphs, `square` 25% heavier: normalize's manifest and preview's page of them.
    static func made() throws -> (manifest: Manifest, page: String, dir: TemporaryDirectory) {
        let dir = try TemporaryDirectory("preview-measures")
        try FileManager.default.createDirectory(atPath: dir.path("icons"), withIntermediateDirectories: true)
        for shape in SetMeasuresTests.shapes {
            try Data(SetMeasuresTests.svg(shape, width: shape == "square" ? 2.5 : 2).utf8).write(
                to: URL(fileURLWithPath: dir.path("icons/\(shape).svg")))
        }
        #expect(SilentCLI.run(["normalize", "-q", "-o", dir.path("out"), dir.path("icons")]) == .success)
        #expect(SilentCLI.run(["preview", "-q", "-o", dir.path("page.html"), dir.path("icons")]) == .success)
        return (
            try BuildStep.manifest(dir.path("out/manifest.json")),
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.path("page.html"))), as: UTF8.self), dir
        )
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("the set's bar, the line naming the flagged icon, and the measures over each icon as the manifest has them")
    func page() throws {
        let (manifest, page, _) = try Self.made()
        #expect(Self.count(#"<input type="checkbox" id="measures" class="toggle">"#, in: page) == 1)
        #expect(Self.count(#"<label class="toggle-label" for="measures">"#, in: page) == 1)
        // One bar per light platform, each with the four tabs.
        #expect(
            Self.count("data-set-bar=\"ios-light\"", in: page) == 1
                && Self.count("data-set-bar=\"material-light\"", in: page) == 1)
        let set = try #require(page.range(of: #"<section class="panel" id="set">"#).map { String(page[$0.lowerBound...]) })
        let section = String(set[..<set.range(of: "</section>")!.lowerBound])
        #expect(Self.count("<div class=\"it\"", in: section) == 8)
        #expect(section.contains(#"<p class="setlints" data-set-lints="stroke-mismatch"><b>stroke-mismatch</b>: "#))
        let line = section[section.range(of: "data-set-lints")!.lowerBound...]
        #expect(line.contains("square.svg") && !line.contains("ring.svg") && !line.contains("square-line.svg"))
        // Every icon's overlay says its measures (the figure's, the four bars' and the set bars' items: 7 each).
        for icon in manifest.icons {
            let m = try #require(icon.measures)
            let attributes =
                "data-weight=\"\(NumberText.decimal(m.strokeWeight))\" data-size=\"\(NumberText.decimal(m.opticalSize))\" "
                + "data-centre=\"\(NumberText.decimal(m.centre[0])),\(NumberText.decimal(m.centre[1]))\""
            #expect(Self.count(attributes, in: page) == 4 * 2 + 2 + 1, "\(icon.name): \(attributes)")
            #expect(
                page.contains(
                    "stroke \(NumberText.decimal(m.strokeWeight)) pt · optical size \(NumberText.decimal(m.opticalSize)) pt"))
        }
    }

    @Test("no set under three tabs: no set section; a set with nothing flagged says so")
    func smallAndClean() throws {
        let dir = try TemporaryDirectory("preview-small")
        try FileManager.default.createDirectory(atPath: dir.path("icons"), withIntermediateDirectories: true)
        for shape in SetMeasuresTests.shapes.prefix(2) {
            try Data(SetMeasuresTests.svg(shape).utf8).write(to: URL(fileURLWithPath: dir.path("icons/\(shape).svg")))
        }
        #expect(SilentCLI.run(["preview", "-q", "-o", dir.path("two.html"), dir.path("icons")]) == .success)
        #expect(
            !String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.path("two.html"))), as: UTF8.self).contains(
                "id=\"set\""))
        try Data(SetMeasuresTests.svg("square").utf8).write(to: URL(fileURLWithPath: dir.path("icons/square.svg")))
        #expect(SilentCLI.run(["preview", "-q", "-o", dir.path("three.html"), dir.path("icons")]) == .success)
        let three = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.path("three.html"))), as: UTF8.self)
        #expect(three.contains(#"<p class="setlints" data-set-lints="">No icon flagged by the set's lints"#))
    }

    @Test(
        "in a browser: the overlays appear when the toggle is on, and only then",
        .enabled(if: PreviewBrowser.isInstalled, "needs headless Chromium (Debian: apt-get install chromium)"))
    func toggle() throws {
        let browser = try #require(PreviewBrowser.found)
        let (_, page, dir) = try Self.made()
        // The checkbox as a click leaves it: checked (the page has no script to click with).
        let on = page.replacingOccurrences(
            of: #"<input type="checkbox" id="measures" class="toggle">"#,
            with: #"<input type="checkbox" id="measures" class="toggle" checked>"#)
        try Data(on.utf8).write(to: URL(fileURLWithPath: dir.path("on.html")))
        let circle = Screenshot.rgb("#d81b60")
        func circlePixels(_ file: String) throws -> Int {
            let shot = try ImageDecoder.decode(
                browser.screenshot(URL(fileURLWithPath: dir.path(file)), width: 1000, height: 1400, in: dir)
            ).bitmap
            var count = 0
            for i in stride(from: 0, to: shot.pixels.count, by: 4)
            where abs(Int(shot.pixels[i]) - circle.0) <= 12 && abs(Int(shot.pixels[i + 1]) - circle.1) <= 12
                && abs(Int(shot.pixels[i + 2]) - circle.2) <= 12
            {
                count += 1
            }
            return count
        }
        #expect(try circlePixels("page.html") == 0)
        #expect(try circlePixels("on.html") > 200)
    }
}
