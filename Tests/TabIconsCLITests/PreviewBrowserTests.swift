import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport

/// The preview in a real browser: headless Chromium opens the page from disk with the network
/// off. Two loads in all (Chromium starts in a second or two; the suite runs three times in CI).
@Suite(
    "tabicon preview: in a browser",
    .enabled(if: PreviewBrowser.isInstalled, "needs headless Chromium (Debian: apt-get install chromium)"))
struct PreviewBrowserTests {
    @Test("the TestImages page: one tab per icon pair, every lint and failure shown as text, nothing fetched")
    func testImagesPage() throws {
        let browser = try #require(PreviewBrowser.found)
        let scratch = try TemporaryDirectory("preview-browser")
        let bad = scratch.url.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        try Data("GIF89a not really".utf8).write(to: bad.appendingPathComponent(PreviewPageTests.hostileName))
        let page = scratch.url.appendingPathComponent("preview.html")
        let testImages = Fixtures.packageRoot.appendingPathComponent("TestImages").path
        #expect(SilentCLI.run(["preview", "-q", "-o", page.path, testImages, bad.path]) == .someInputsFailed)

        let load = try browser.dumpDOM(page, in: scratch)
        #expect(load.requestedURLs == [], "the page asked the network for \(load.requestedURLs)")
        let dom = load.dom

        // 24 files, 8 of them the selected twins of another (home, search, profile, bell, heart, and
        // the vectors house, person, star).
        let files = try FileManager.default.contentsOfDirectory(atPath: testImages).filter {
            InputCollector.imageExtensions.contains(($0 as NSString).pathExtension.lowercased())
        }
        let twins = files.filter { PreviewTab.baseName((($0 as NSString).deletingPathExtension)) != nil }
        #expect(files.count == 24 && twins.count == 8)
        #expect(Self.count("<article class=\"tab\"", in: dom) == files.count - twins.count)
        for twin in twins {
            let name = (twin as NSString).deletingPathExtension
            #expect(dom.contains("data-selected-twin=\"\(name)\""))
        }

        // Every lint the normalizer reports is on its icon's card, and counted in the summary (the
        // set's lints are the batch's: OneEngineTests checks the page's rows are normalize's).
        var expected: [Lint.Code: Int] = [:]
        for file in files {
            let icon = try Normalizer().normalize(Data(contentsOf: Fixtures.testImage(file)))
            for lint in icon.lints { expected[lint.code, default: 0] += 1 }
        }
        #expect(!expected.isEmpty)
        for code in Lint.Code.allCases where !SetLints.codes.contains(code) {
            #expect(Self.count("<li data-lint=\"\(code.rawValue)\">", in: dom) == expected[code] ?? 0, "\(code)")
            if let n = expected[code] { #expect(dom.contains("data-kind=\"\(code.rawValue)\" data-count=\"\(n)\"")) }
        }

        // The failure, with its code and reason, its hostile name shown as text and no element made.
        #expect(dom.contains("data-code=\"unsupportedFormat\""))
        #expect(dom.contains("GIF"))
        #expect(dom.contains("&lt;img src=x onerror=alert(1)&gt;.png"))
        #expect(!dom.contains("<img"))
        #expect(!dom.contains("<script"))
    }

    @Test("template glyphs in the tint on the selected tab and gray on the other; dark bars dark, light bars light")
    func tintedPixels() throws {
        let browser = try #require(PreviewBrowser.found)
        let scratch = try TemporaryDirectory("preview-browser")
        let page = scratch.url.appendingPathComponent("pair.html")
        #expect(
            SilentCLI.run([
                "preview", "-q", "-o", page.path, Fixtures.testImage("home.png").path,
                Fixtures.testImage("home-filled.png").path
            ]) == .success)
        let shot = try ImageDecoder.decode(browser.screenshot(page, width: 760, height: 900, in: scratch)).bitmap
        let screen = Screenshot(bitmap: shot)

        for bar in PreviewPlatforms.bars {
            let c = bar.colours
            let background = Screenshot.rgb(c.background)
            let frame = try #require(screen.bounds(of: background), "no \(bar.id) bar on screen")
            #expect(frame.width >= 198 && frame.width <= 200, "\(bar.id) is \(frame.width) px wide")
            #expect(
                frame.height >= (bar.isMaterial ? 78 : 47) && frame.height <= (bar.isMaterial ? 80 : 49),
                "\(bar.id) is \(frame.height) px tall")
            let luma = Screenshot.luma(background)
            #expect(bar.id.hasSuffix("dark") ? luma < 0.2 : luma > 0.9)

            // The glyph box of each item: iOS's 25 pt box 4 px below the bar's top, Material's 24 dp
            // icon centred in the 32 dp pill 12 dp below it; items split the bar in two.
            let top = frame.maxY + 1 - (bar.isMaterial ? 80 : 49)
            let rows = bar.isMaterial ? (top + 16)..<(top + 40) : (top + 4)..<(top + 29)
            let centre = (left: frame.minX + frame.width / 4, right: frame.minX + 3 * frame.width / 4)
            let unselected = (centre.left - 12)..<(centre.left + 13)
            let selected = (centre.right - 12)..<(centre.right + 13)
            let selectedGround = c.indicator.map(Screenshot.rgb) ?? background
            let ink = screen.glyph(columns: unselected, rows: rows, ground: background, tint: Screenshot.rgb(c.unselected))
            let tinted = screen.glyph(columns: selected, rows: rows, ground: selectedGround, tint: Screenshot.rgb(c.selected))
            // Every glyph pixel is a blend of the ground and the tint, and the solid ones are the tint exactly.
            #expect(ink.offTint == 0 && tinted.offTint == 0, "\(bar.id): \(ink.offTint) + \(tinted.offTint) pixels off the tint")
            // And there is a glyph: the outline home and the filled one, at least three quarters ink.
            #expect(ink.strong >= 40, "\(bar.id): \(ink.strong) unselected pixels in \(c.unselected)")
            #expect(tinted.strong >= 150, "\(bar.id): \(tinted.strong) selected pixels in \(c.selected)")
            #expect(ink.solid > 0 && tinted.solid > 0)
        }
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }
}

/// A decoded screenshot and the few measurements the browser test makes on it.
struct Screenshot {
    let bitmap: Bitmap

    static func rgb(_ hex: String) -> (Int, Int, Int) {
        let value = Int(hex.dropFirst(), radix: 16)!
        return (value >> 16, (value >> 8) & 0xff, value & 0xff)
    }

    static func luma(_ c: (Int, Int, Int)) -> Double {
        (0.2126 * Double(c.0) + 0.7152 * Double(c.1) + 0.0722 * Double(c.2)) / 255
    }

    func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * bitmap.width + x) * 4
        return (Int(bitmap.pixels[i]), Int(bitmap.pixels[i + 1]), Int(bitmap.pixels[i + 2]))
    }

    /// The bounding box of the rows holding at least `minimum` pixels of exactly `colour` (a bar's
    /// background), so a stray pixel of that colour elsewhere (in a magnified rendition) is not
    /// taken for part of the bar.
    func bounds(of colour: (Int, Int, Int), minimum: Int = 100)
        -> (minX: Int, minY: Int, maxX: Int, maxY: Int, width: Int, height: Int)?
    {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<bitmap.height {
            let xs = (0..<bitmap.width).filter { pixel($0, y) == colour }
            guard xs.count >= minimum, let first = xs.first, let last = xs.last else { continue }
            minX = min(minX, first); maxX = max(maxX, last); minY = min(minY, y); maxY = max(maxY, y)
        }
        guard maxX >= 0 else { return nil }
        return (minX, minY, maxX, maxY, maxX - minX + 1, maxY - minY + 1)
    }

    /// In a region whose ground is `ground`: pixels that are exactly `tint` (solid glyph), pixels
    /// at least three quarters of the way from ground to tint, and pixels that are neither the
    /// ground nor any blend of ground and tint (off by more than 3 of 255 in a channel from the
    /// nearest blend).
    func glyph(columns: Range<Int>, rows: Range<Int>, ground: (Int, Int, Int), tint: (Int, Int, Int))
        -> (solid: Int, strong: Int, offTint: Int)
    {
        var solid = 0, strong = 0, off = 0
        let g = [ground.0, ground.1, ground.2], t = [tint.0, tint.1, tint.2]
        for y in rows {
            for x in columns {
                let p = pixel(x, y)
                if p == tint { solid += 1; strong += 1; continue }
                if p == ground { continue }
                let q = [p.0, p.1, p.2]
                let span = (0..<3).map { Double(t[$0] - g[$0]) }
                let dot = (0..<3).reduce(0.0) { $0 + Double(q[$1] - g[$1]) * span[$1] }
                let length = span.reduce(0.0) { $0 + $1 * $1 }
                let blend = max(0, min(1, dot / length))
                if (0..<3).contains(where: { abs(Double(q[$0]) - (Double(g[$0]) + blend * span[$0])) > 3 }) {
                    off += 1
                } else if blend >= 0.75 {
                    strong += 1
                }
            }
        }
        return (solid, strong, off)
    }
}
