import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// Recognising SVG from its bytes, `.svgz`, and SVG as `data:` URL text (SPEC §2).
@Suite("SVG: sniffing, .svgz and data: URLs")
struct SVGSniffTests {
    static let svgs: [String] = [
        "<svg xmlns='http://www.w3.org/2000/svg'/>",
        "\u{FEFF}  \n<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'></svg>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- exported --><svg xmlns='http://www.w3.org/2000/svg'/>",
        "<?xml version='1.0'?><!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\"><svg/>",
        "<!-- a > b --><?xml-stylesheet href='x.css'?><svg:svg xmlns:svg='http://www.w3.org/2000/svg'/>"
    ]

    @Test("XML whose root element is svg is SVG, after a BOM, whitespace, declarations, comments, a DOCTYPE", arguments: svgs)
    func sniffsSVG(text: String) {
        #expect(ImageFormat.sniff(Data(text.utf8)) == .svg)
    }

    static let notSVG: [(text: String, named: String)] = [
        ("<?xml version='1.0'?><html><body/></html>", "<html>"),
        ("<!DOCTYPE html><svgx/>", "<svgx>"),
        ("<?xml version='1.0'?>", "XML")
    ]

    @Test("other XML is unsupportedFormat and named", arguments: notSVG)
    func otherXML(text: String, named: String) {
        #expect(ImageFormat.sniff(Data(text.utf8)) == nil)
        let error = #expect(throws: TabIconsError.self) { try ImageDecoder.decode(Data(text.utf8)) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains(named) == true, "\(error?.message ?? "")")
    }

    @Test(".svgz (gzip holding an SVG) decodes to the same pixels as the plain file")
    func svgz() throws {
        let plain = try Fixtures.data(Fixtures.testImage("house-fill.svg"))
        let compressed = try Fixtures.data(Fixtures.fixture("svg/house-fill.svgz"))
        #expect(ImageFormat.sniff(compressed) == .svg)
        let a = try ImageDecoder.decode(plain), b = try ImageDecoder.decode(compressed)
        #expect(a.bitmap == b.bitmap && a.info == b.info)
        #expect(a.bitmap.width == 16 && a.info.pixelWidth == 16)
    }

    @Test("gzip that does not hold an SVG is not SVG")
    func gzipOfSomethingElse() throws {
        let compressed = try Fixtures.data(Fixtures.fixture("svg/house-fill.svgz"))
        // The same gzip header with its deflate data cut: nothing inflates, so nothing is recognised.
        #expect(ImageFormat.sniff(compressed.prefix(12)) == nil)
    }

    @Test("data:image/svg+xml URLs, percent-encoded, raw or base64, decode to the file's pixels")
    func dataURLs() throws {
        let plain = try Fixtures.data(Fixtures.testImage("star-fill.svg"))
        let text = String(decoding: plain, as: UTF8.self)
        let expected = try ImageDecoder.decode(plain)
        let percent = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        for url in [
            "data:image/svg+xml," + percent,
            "data:image/svg+xml;charset=utf-8," + percent,
            "data:image/svg+xml;utf8," + text.replacingOccurrences(of: "\n", with: " "),
            "data:image/svg+xml;base64," + plain.base64EncodedString()
        ] {
            let image = try ImageDecoder.decode(Data(url.utf8))
            #expect(image.bitmap == expected.bitmap, "\(url.prefix(40))")
            #expect(image.info.format == .svg)
        }
    }

    @Test("a data: URL that is neither base64 nor SVG is still unsupportedFormat")
    func dataURLNotSVG() {
        let error = #expect(throws: TabIconsError.self) { try ImageDecoder.decode(Data("data:image/png,abc".utf8)) }
        #expect(error?.code == .unsupportedFormat)
    }
}
