import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// What aborts librsvg 2.54 or makes it explode (issue 17, SPEC §2 "a crash or a bomb costs one
/// input"): every class refused by screening with its code and a reason naming the feature, through
/// the decoder and the normalizer at several sizes (24 px: Android's 1x), never a crash. Each
/// panic class was first run against librsvg directly in a child process, where it aborted
/// (SIGABRT, or SIGSEGV for the selectors); the documents here are variants of those, built here.
@Suite("SVG: what librsvg 2.54 panics or explodes on")
struct SVGPanicScreeningTests {
    typealias S = SVGTestSupport

    /// Android's sizes (24 px at 1x up to 96) and iOS's (25 to 75).
    static let optionSets = [NormalizeOptions(box: .material, scales: [1, 1.5, 2, 3, 4]), NormalizeOptions()]

    /// The error of the decoder and of the normalizer under every option set: all the same code,
    /// each naming `feature`.
    func expectRefused(
        _ data: Data, _ code: TabIconsError.Code, naming feature: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var errors: [TabIconsError?] = [
            #expect(throws: TabIconsError.self, sourceLocation: sourceLocation) { _ = try ImageDecoder.decode(data) }
        ]
        for options in Self.optionSets {
            errors.append(
                #expect(throws: TabIconsError.self, sourceLocation: sourceLocation) {
                    _ = try Normalizer(options: options).normalize(data)
                })
        }
        for error in errors {
            #expect(
                error?.code == code && error?.format == .svg, "\(error?.description ?? "no error")",
                sourceLocation: sourceLocation)
            #expect(error?.message.contains(feature) == true, "\(error?.message ?? "")", sourceLocation: sourceLocation)
        }
    }

    /// A 24-unit drawing whose rect is filtered by `primitives`.
    static func filtered(_ primitives: String, size: Int = 24) -> Data {
        S.svg(
            "width=\"\(size)\" height=\"\(size)\" viewBox=\"0 0 24 24\"",
            "<filter id=\"f\">\(primitives)</filter><rect x=\"2\" y=\"2\" width=\"20\" height=\"20\" filter=\"url(#f)\"/>")
    }

    static func convolution(_ x: Int, _ y: Int, _ extra: String = "") -> String {
        "<feConvolveMatrix order=\"\(x) \(y)\" kernelMatrix=\"\(Array(repeating: "1", count: x * y).joined(separator: " "))\" \(extra)/>"
    }

    @Test(
        "feConvolveMatrix past 400 kernel cells (librsvg aborts loading it) is unsupported; 20×20 renders",
        arguments: [(21, 21, ""), (25, 25, ""), (401, 1, "edgeMode=\"wrap\""), (30, 30, "edgeMode=\"none\"")])
    func convolutionOrder(x: Int, y: Int, extra: String) {
        expectRefused(Self.filtered(Self.convolution(x, y, extra)), .unsupported, naming: "feConvolveMatrix order \(x)×\(y)")
    }

    @Test("feConvolveMatrix 3×3, 20×1, wrap: drawn at 24 px")
    func convolutionWithinLimits() throws {
        for primitive in [Self.convolution(3, 3), Self.convolution(20, 1, "edgeMode=\"wrap\"")] {
            let icon = try Normalizer(options: Self.optionSets[0]).normalize(Self.filtered(primitive))
            #expect(icon.renditions.first?.bitmap.width == 24)
        }
    }

    @Test(
        "feTile over a primitive with its own empty or positioned subregion is unsupported",
        arguments: [
            "<feFlood flood-color=\"red\" width=\"0\" result=\"a\"/><feTile in=\"a\"/>",
            "<feFlood height=\"0%\"/><feTile/>",
            "<feOffset dx=\"1\" x=\"30\" result=\"a\"/><feTile in=\"a\"/>",
            "<feFlood height=\"0\" result=\"a\"/><feOffset in=\"a\" result=\"b\"/><feTile in=\"b\"/>",
            "<feGaussianBlur stdDeviation=\"1\" width=\" 0 \" result=\"a\"/><feTile in=\"a\"/>"
        ])
    func tileOverEmptySubregion(primitives: String) {
        expectRefused(Self.filtered(primitives), .unsupported, naming: "feTile")
    }

    @Test("feTile over a sized flood renders")
    func tileOverFlood() throws {
        let icon = try Normalizer().normalize(
            Self.filtered("<feFlood flood-color=\"red\" width=\"4\" height=\"4\" result=\"a\"/><feTile in=\"a\"/>"))
        #expect(icon.renditions.count == 3)
    }

    @Test("style sheet selectors nested deep (SIGSEGV in librsvg) are unsupported, huge style sheets tooLarge")
    func styleSheets() {
        for (open, close) in [(":not(", ")"), (":is(", ")"), (":where(", ")")] {
            let selector = String(repeating: open, count: 3_000) + "a" + String(repeating: close, count: 3_000)
            expectRefused(
                S.svg("viewBox=\"0 0 24 24\"", "<style>\(selector){fill:red}</style><rect width=\"5\" height=\"5\"/>"),
                .unsupported, naming: "nested more than 32 parentheses")
        }
        expectRefused(
            S.svg(
                "viewBox=\"0 0 24 24\"", "<rect width=\"5\" height=\"5\" style=\"fill:\(String(repeating: "(", count: 100))\"/>"),
            .unsupported, naming: "a style attribute nested")
        let big = String(repeating: "rect{fill:red}\n", count: 5_000)
        expectRefused(
            S.svg("viewBox=\"0 0 24 24\"", "<style>\(big)</style><rect width=\"5\" height=\"5\"/>"),
            .tooLarge, naming: "bytes of style sheet")
    }

    @Test(
        "an absurd font size against the drawing is tooLarge at every size, also from CSS, em and transforms",
        arguments: [
            "<text y=\"20\" font-size=\"1e9\">AB</text>",
            "<text y=\"20\" style=\"font-size: 5e7px\">x</text>",
            "<text y=\"20\" font=\"bold 2000000px serif\">x</text>",
            "<g font-size=\"1000\"><text y=\"20\" font-size=\"500em\">x</text></g>",
            "<g transform=\"scale(100000)\"><text y=\"20\" font-size=\"10\">x</text></g>",
            "<style>text{font-size:30000px}</style><text y=\"20\">x</text>"
        ])
    func absurdFontSize(body: String) {
        expectRefused(S.svg("width=\"24\" height=\"24\" viewBox=\"0 0 24 24\"", body), .tooLarge, naming: "font-size")
    }

    @Test("long text, entity-escaped text and stacked combining marks are tooLarge")
    func text() {
        let plain = String(repeating: "abcdefghij", count: 1_000)
        let escaped = String(repeating: "&#x61;&amp;", count: 2_000)
        for content in [plain, escaped, "<tspan>" + String(repeating: "xy", count: 1_100) + "</tspan>"] {
            expectRefused(
                S.svg("viewBox=\"0 0 24 24\"", "<text y=\"20\" font-size=\"2\">\(content)</text>"), .tooLarge,
                naming: "characters of text")
        }
        let zalgo = "a" + String(repeating: "\u{0301}\u{0316}", count: 50)
        expectRefused(S.svg("viewBox=\"0 0 24 24\"", "<text y=\"20\">\(zalgo)</text>"), .tooLarge, naming: "combining marks")
    }

    @Test(
        "lighting and convolution with a tiny kernelUnitLength are tooLarge (the filter surface rescaled past 4 Mpx)",
        arguments: [
            "<feDiffuseLighting kernelUnitLength=\"0.001\"><feDistantLight azimuth=\"45\" elevation=\"45\"/></feDiffuseLighting>",
            "<feSpecularLighting kernelUnitLength=\"0.001 0.05\"><fePointLight x=\"3\" y=\"3\" z=\"5\"/></feSpecularLighting>",
            "<feDiffuseLighting kernelUnitLength=\"0\"><feDistantLight/></feDiffuseLighting>",
            SVGPanicScreeningTests.convolution(3, 3, "kernelUnitLength=\"0.005\"")
        ])
    func kernelUnitLength(primitive: String) {
        expectRefused(Self.filtered(primitive), .tooLarge, naming: "kernelUnitLength")
    }

    @Test("lighting with a kernelUnitLength of a unit renders")
    func ordinaryLighting() throws {
        let icon = try Normalizer(options: Self.optionSets[0]).normalize(
            Self.filtered(
                "<feDiffuseLighting kernelUnitLength=\"1\"><feDistantLight azimuth=\"45\" elevation=\"45\"/></feDiffuseLighting>")
        )
        #expect(icon.renditions.count == 5)
    }

    /// `count` alternating arcs (or lines) of one path, stroked.
    static func zigzag(_ count: Int, arcs: Bool, stroke: String) -> Data {
        let steps = (0..<count).map { arcs ? "a 1 1 0 0 1 \($0 % 2 == 0 ? 1 : -1) 0" : "l \($0 % 2 == 0 ? 1 : -1) 0" }
        return S.svg(
            "width=\"24\" height=\"24\" viewBox=\"0 0 24 24\"",
            "<path d=\"M12 12 \(steps.joined(separator: " "))\" fill=\"none\" stroke=\"black\" \(stroke)/>")
    }

    @Test("paths: many crossing arcs or lines stroked wide, tiny dashes along a long path, markers on every vertex")
    func paths() {
        expectRefused(
            Self.zigzag(30_000, arcs: true, stroke: "stroke-width=\"20\" stroke-linejoin=\"round\""), .tooLarge,
            naming: "weighted segments")
        expectRefused(
            Self.zigzag(40_000, arcs: false, stroke: "stroke-width=\"8\" stroke-linejoin=\"round\""), .tooLarge,
            naming: "weighted segments")
        let long = String(repeating: "M0 0 L24 24 ", count: 2_000)
        expectRefused(
            S.svg(
                "width=\"24\" height=\"24\" viewBox=\"0 0 24 24\"",
                "<path d=\"\(long)\" stroke=\"black\" stroke-dasharray=\"0.02\"/>"),
            .tooLarge, naming: "dashes")
        expectRefused(
            S.svg(
                "width=\"24\" height=\"24\" viewBox=\"0 0 24 24\"",
                "<style>path{stroke-dasharray:0.01 0.01}</style><path d=\"\(long)\" stroke=\"black\"/>"),
            .tooLarge, naming: "dashes")
        let points = (0..<20_000).map { "\($0 % 24) \($0 * 7 % 24)" }.joined(separator: " ")
        expectRefused(
            S.svg(
                "width=\"24\" height=\"24\" viewBox=\"0 0 24 24\"",
                "<marker id=\"m\" markerWidth=\"4\" markerHeight=\"4\"><circle r=\"2\" cx=\"2\" cy=\"2\"/></marker><g marker-mid=\"url(#m)\"><polyline points=\"\(points)\" stroke=\"black\" fill=\"none\"/></g>"
            ),
            .tooLarge, naming: "markers")
        let entries = Array(repeating: "0.5", count: 100_000).joined(separator: " ")
        expectRefused(
            S.svg("viewBox=\"0 0 24 24\"", "<path d=\"M0 0 L24 24\" stroke=\"black\" stroke-dasharray=\"\(entries)\"/>"),
            .tooLarge, naming: "stroke-dasharray of 100000 numbers")
    }

    @Test("ordinary icons still render: text, a dashed stroke, markers, a modest stroked path")
    func ordinaryIcons() throws {
        let documents = [
            S.svg(
                "width=\"24\" height=\"24\" viewBox=\"0 0 24 24\"",
                "<text x=\"2\" y=\"18\" font-size=\"16\" font-family=\"sans-serif\">Ab</text>"),
            S.svg(
                "width=\"24\" height=\"24\" viewBox=\"0 0 24 24\"",
                "<circle cx=\"12\" cy=\"12\" r=\"9\" fill=\"none\" stroke=\"black\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>"
            ),
            S.svg(
                "width=\"24\" height=\"24\" viewBox=\"0 0 24 24\"",
                "<marker id=\"m\" markerWidth=\"4\" markerHeight=\"4\" refX=\"2\" refY=\"2\"><circle r=\"2\" cx=\"2\" cy=\"2\"/></marker><polyline points=\"2 2 12 20 22 2\" stroke=\"black\" fill=\"none\" marker-mid=\"url(#m)\" marker-end=\"url(#m)\"/>"
            ),
            Self.zigzag(500, arcs: true, stroke: "stroke-width=\"2\" stroke-linejoin=\"round\"")
        ]
        for data in documents {
            for options in Self.optionSets {
                let icon = try Normalizer(options: options).normalize(data)
                #expect(icon.renditions.allSatisfy { $0.bitmap.pixels.contains { $0 != 0 } })
            }
        }
    }

    @Test(
        "Bootstrap Icons and librsvg's Adwaita reftests pass screening at Android's sizes",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func corpusStillRenders() throws {
        var refused: [String] = []
        for folder in ["svg/bootstrap-icons", "svg/librsvg/reftests-adwaita"] {
            for file in try Fixtures.corpusFiles(folder, extensions: ["svg"]) {
                let data = try Fixtures.data(file)
                if case .failure(let error) = Result(catching: { () throws(TabIconsError) in
                    try Normalizer(options: Self.optionSets[0]).normalize(data)
                }) {
                    refused.append("\(file.lastPathComponent): \(error)")
                }
            }
        }
        #expect(refused.isEmpty, "\(refused.prefix(5))")
    }
}
