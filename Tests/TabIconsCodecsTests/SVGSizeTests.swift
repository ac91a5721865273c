import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// An SVG's intrinsic size (SPEC §2): width/height in CSS px at 96 dpi, the viewBox where they are
/// missing or percentages, and coded errors for what has no size.
@Suite("SVG: intrinsic size")
struct SVGSizeTests {
    static let sized: [(attributes: String, width: Int, height: Int)] = [
        ("width=\"24\" height=\"24\"", 24, 24),
        ("width=\"24px\" height=\"12px\"", 24, 12),
        ("width=\"18pt\" height=\"9pt\"", 24, 12),  // 96/72 px a point (not librsvg's 90 dpi)
        ("width=\"1in\" height=\"0.5in\"", 96, 48),
        ("width=\"25.4mm\" height=\"2.54cm\"", 96, 96),
        ("width=\"2pc\" height=\"1pc\"", 32, 16),
        ("width=\"10mm\" height=\"10mm\"", 38, 38),  // 37.795… px: the nearest whole pixel
        ("width=\"16.000002\" height=\"15.99\"", 16, 16),  // what exporters write for 16
        ("viewBox=\"0 0 20 10\"", 20, 10),  // viewBox only
        ("width=\"48\" viewBox=\"0 0 24 12\"", 48, 24),  // width only: the viewBox's aspect
        ("height=\"30\" viewBox=\"0 0 24 12\"", 60, 30),
        ("width=\"50%\" height=\"100%\" viewBox=\"0 0 30 20\"", 30, 20)  // percentages: the viewBox
    ]

    @Test("width and height in px, pt, pc, mm, cm and in, and the viewBox where they are missing", arguments: sized)
    func intrinsicSize(attributes: String, width: Int, height: Int) throws {
        let image = try ImageDecoder.decode(SVGTestSupport.svg(attributes, "<rect width=\"100%\" height=\"100%\"/>"))
        #expect(image.info.format == .svg && image.info.isVector && image.info.hasAlpha)
        #expect(image.info.pixelWidth == width && image.info.pixelHeight == height)
        #expect(image.bitmap.width == width && image.bitmap.height == height)
    }

    static let refused: [(attributes: String, reason: String)] = [
        ("", "no intrinsic size"),
        ("width=\"50%\" height=\"50%\"", "no intrinsic size"),
        ("width=\"24\"", "no intrinsic size"),
        ("width=\"2em\" height=\"2em\"", "font-relative"),
        ("width=\"16\" height=\"3ex\"", "font-relative"),
        ("width=\"0\" height=\"16\"", "not a positive size"),
        ("width=\"16\" height=\"0\" viewBox=\"0 0 16 16\"", "not a positive size")
    ]

    @Test("no size and no viewBox, font-relative units and zero sizes are unsupported, with the reason", arguments: refused)
    func refusedSizes(attributes: String, reason: String) {
        let error = #expect(throws: TabIconsError.self) { try ImageDecoder.decode(SVGTestSupport.svg(attributes)) }
        #expect(error?.code == .unsupported)
        #expect(error?.format == .svg)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test("a negative size is a coded error, never a rendering of nothing")
    func negativeSize() {
        let error = #expect(throws: TabIconsError.self) {
            try ImageDecoder.decode(SVGTestSupport.svg("width=\"-16\" height=\"16\" viewBox=\"0 0 16 16\""))
        }
        #expect(error?.code == .unsupported || error?.code == .corrupt, "\(error?.description ?? "")")
        #expect(error?.message.isEmpty == false)
    }

    @Test("whole pixels are the nearest, halves up, never a pixel more from floating error")
    func wholePixels() {
        #expect(SVGSize.wholePixels(24) == 24)
        #expect(SVGSize.wholePixels(25.0 / 22.0 * 22.0) == 25)  // 25.000000000000004
        #expect(SVGSize.wholePixels(22.5) == 23)
        #expect(SVGSize.wholePixels(16.53125) == 17)
        #expect(SVGSize.wholePixels(16.000002) == 16)
        #expect(SVGSize.wholePixels(0.2) == 1)
    }
}
