import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// `ImageDecoder.decode`: format from the bytes, text inputs, what is not supported, input limit.
@Suite("The decoding front door")
struct ImageDecoderFrontDoorTests {
    let home = try! Fixtures.data(Fixtures.testImage("home.png"))

    @Test(
        "the format is sniffed from the bytes, never from a name",
        arguments: [
            ("home.png", ImageFormat.png), ("avatar-exif6.jpg", .jpeg), ("lossless.webp", .webp),
            ("heart-filled.webp", .webp), ("cmyk.jpg", .jpeg)
        ])
    func sniffing(name: String, format: ImageFormat) throws {
        let data = try Fixtures.data(Fixtures.testImage(name))
        #expect(ImageFormat.sniff(data) == format)
        #expect(try ImageDecoder.decode(data).info.format == format)
    }

    static let notSupported: [(bytes: [UInt8], named: String)] = [
        (Array("GIF89a\u{1}\0\u{1}\0".utf8), "GIF"),
        (Array("BM".utf8) + [UInt8](repeating: 0, count: 20), "BMP"),
        ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], "TIFF"),
        ([0, 0, 0, 0x1C] + Array("ftypheic".utf8) + [0, 0, 0, 0], "HEIC"),
        ([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0], "AVIF"),
        (Array("  <html xmlns='http://www.w3.org/1999/xhtml'/>".utf8), "<html>, not SVG"),
        (Array("<?xml version='1.0'?><rss/>".utf8), "<rss>, not SVG"),
        ([0, 0, 1, 0, 1, 0, 16, 16], "ICO"),
        ([0xDE, 0xAD, 0xBE, 0xEF, 0x01, 0x02, 0x03, 0x04, 0x05], "de ad be ef 01 02 03 04")
    ]

    @Test("what is not PNG, JPEG, WebP or SVG is named when recognisable", arguments: notSupported)
    func unsupportedFormats(bytes: [UInt8], named: String) {
        let error = #expect(throws: TabIconsError.self) { try ImageDecoder.decode(Data(bytes)) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains(named) == true, "\(error?.message ?? "")")
    }

    @Test("empty input is an unsupportedFormat error that says so")
    func empty() {
        let error = #expect(throws: TabIconsError.self) { try ImageDecoder.decode(Data()) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message == "the input is empty")
    }

    @Test("base64 text and data: URLs decode to the same pixels as the binary file")
    func textInputs() throws {
        let binary = try ImageDecoder.decode(home)
        let base64 = home.base64EncodedString()
        var wrapped = ""
        for (i, c) in base64.enumerated() { wrapped.append(c); if i % 76 == 75 { wrapped.append("\n") } }
        let urlSafe = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .trimmingCharacters(in: CharacterSet(charactersIn: "="))
        for text in [base64, wrapped, "data:image/png;base64," + base64, "  DATA:image/png;BASE64," + wrapped + "\n", urlSafe] {
            let image = try ImageDecoder.decode(Data(text.utf8))
            #expect(image.bitmap == binary.bitmap)
            #expect(image.info.format == .png)
        }
    }

    @Test("text that is not base64, or a data: URL without base64, is unsupportedFormat")
    func badText() {
        for text in ["hello, world", "data:image/png,rawtext", "data:image/png;base64,!!!!"] {
            let error = #expect(throws: TabIconsError.self) { try ImageDecoder.decode(Data(text.utf8)) }
            #expect(error?.code == .unsupportedFormat, "\(text)")
        }
    }

    @Test("base64 of something that is not an image names what it is")
    func base64OfGif() {
        let gif = Data("GIF89a\u{1}\0\u{1}\0".utf8).base64EncodedString()
        let error = #expect(throws: TabIconsError.self) { try ImageDecoder.decode(Data(gif.utf8)) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message == "base64 text of a GIF image, which is not supported")
    }

    /// "GIF89a not really" is also valid base64; the input is described as it arrived, never by
    /// the bytes of that decoding.
    @Test(
        "text is described as it arrived, never by the bytes of its base64 decoding",
        arguments: [
            ("GIF89a not really", "looks like GIF, which is not supported"),
            ("hello world", "11 bytes of text that is neither an image, base64 nor a data: URL of one"),
            ("abcdefgh", "8 bytes of text that is neither an image, base64 nor a data: URL of one"),
            ("%PDF-1.7 and so on", "looks like PDF, which is not supported")
        ])
    func textDescribedAsItArrived(text: String, message: String) {
        let error = #expect(throws: TabIconsError.self) { try ImageDecoder.decode(Data(text.utf8)) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message == message)
    }

    @Test("binary that is no known format shows its first bytes in hex")
    func unknownBinary() {
        let error = #expect(throws: TabIconsError.self) {
            try ImageDecoder.decode(Data([0x00, 0xFF, 0x10, 0x7F, 0x80, 0x01, 0x02, 0x03, 0x04]))
        }
        #expect(error?.message == "not a PNG, JPEG, WebP or SVG file (starts with 00 ff 10 7f 80 01 02 03)")
    }

    @Test("input over the byte limit is tooLarge before it is parsed")
    func inputLimit() {
        var options = DecodeOptions()
        options.limits.maxInputBytes = home.count - 1
        let error = #expect(throws: TabIconsError.self) { try ImageDecoder.decode(home, options: options) }
        #expect(error?.code == .tooLarge)
        options.limits.maxInputBytes = home.count
        #expect(throws: Never.self) { try ImageDecoder.decode(home, options: options) }
    }

    @Test("pixel and side limits are configurable and give tooLarge")
    func pixelLimits() {
        var options = DecodeOptions()
        options.limits.maxPixels = 96 * 96 - 1
        #expect((#expect(throws: TabIconsError.self) { try ImageDecoder.decode(home, options: options) })?.code == .tooLarge)
        options = DecodeOptions()
        options.limits.maxSide = 95
        #expect((#expect(throws: TabIconsError.self) { try ImageDecoder.decode(home, options: options) })?.code == .tooLarge)
    }

    @Test("an error names its input once named, and prints as input: format: code: reason")
    func errorDescription() {
        let error = TabIconsError(.corrupt, "IDAT: incorrect data check", format: .png).naming("icons/bad.png")
        #expect(error.description == "icons/bad.png: png: corrupt: IDAT: incorrect data check")
        #expect(error.naming("other").input == "icons/bad.png")
    }
}
