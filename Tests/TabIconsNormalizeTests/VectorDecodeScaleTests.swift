import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// A vector's decode scale has one owner (`IconBox.vectorDecodeScale`, from the exact intrinsic
/// size): the normalizer's plan and `IconBox.decodeScale(of:)` give the same answer; and an
/// intrinsic size past the side limit is refused rather than reaching the manifest.
@Suite("SVG: one decode scale, from the exact size")
struct VectorDecodeScaleTests {
    typealias S = SVGTestSupport

    @Test("a 16.5 px drawing: 0.66 from the normalizer and from IconBox (whole pixels would say 0.68)")
    func fractionalSize() throws {
        let data = S.svg("width=\"16.5\" height=\"16.5\" viewBox=\"0 0 16 16\"", "<rect width=\"16\" height=\"16\"/>")
        let icon = try Normalizer().normalize(data)
        #expect(icon.source.pixelWidth == 17)
        #expect(icon.decodeScale == 0.66)
        #expect(IconBox.regular.decodeScale(of: icon.source) == icon.decodeScale)
        #expect(IconBox.regular.decodeScale(of: try ImageDecoder.decode(data).info) == 0.66)
    }

    @Test("trimmed: the plan's scale is IconBox's for the region laid out (0.4 for 10 of 20 px), the source's whole is 0.8")
    func trimmed() throws {
        let data = S.svg("width=\"20\" height=\"20\" viewBox=\"0 0 20 20\"", "<rect x=\"5\" y=\"5\" width=\"10\" height=\"10\"/>")
        let icon = try Normalizer(options: NormalizeOptions(trim: true)).normalize(data)
        #expect(icon.decodeScale == IconBox.regular.vectorDecodeScale(width: 10, height: 10))
        #expect(icon.decodeScale == 0.4)
        #expect(IconBox.regular.decodeScale(of: icon.source) == 0.8)
        #expect(icon.pointWidth == 25 && icon.pointHeight == 25)
    }

    @Test(
        "an intrinsic size past the side limit (a viewBox of 1e20 × 1) is tooLarge, with the reason",
        arguments: [
            "viewBox=\"0 0 1e20 1\"",
            "viewBox=\"0 0 1e30 1e30\"",
            "width=\"40000\" height=\"16\""
        ])
    func absurdSize(attributes: String) throws {
        let data = S.svg(attributes, "<rect width=\"10\" height=\"10\"/>")
        #expect {
            _ = try Normalizer().normalize(data)
        } throws: { error in
            guard let error = error as? TabIconsError else { return false }
            return error.code == .tooLarge && error.message.contains("exceeds the limit of 32768 px a side")
        }
    }
}
