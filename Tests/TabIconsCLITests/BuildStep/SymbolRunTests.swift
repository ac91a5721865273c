import Foundation
import Testing
import TabIcons
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsBatchTestSupport
import TabIconsTestSupport

/// `normalize --layout xcassets --symbols` (issue 39): each SVG a symbol set in place of its image
/// set, what a symbol cannot hold (a gradient, a raster) an image set with `symbol-fallback`, a
/// dark twin of a symbol not written; the manifest's `symbolFile`; reruns carry symbols over and
/// other weights redo them; the options' errors.
@Suite("symbol sets")
struct SymbolRunTests {
    static let stroked =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\"><path d=\"M3 9l9-7 9 7v11a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" stroke-linejoin=\"round\"/></svg>"
    static let filled =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\"><path fill-rule=\"evenodd\" d=\"M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20zm0 4a6 6 0 1 1 0 12a6 6 0 1 1 0-12z\"/></svg>"
    static let gradient =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\"><defs><linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"#f00\"/><stop offset=\"1\" stop-color=\"#00f\"/></linearGradient></defs><circle cx=\"12\" cy=\"12\" r=\"10\" fill=\"url(#g)\"/></svg>"

    static func inputs() throws -> TemporaryDirectory {
        let dir = try BuildStep.inputs([("bell.png", "bell.png")])
        for (name, text) in [("home.svg", stroked), ("home-dark.svg", filled), ("ring.svg", filled), ("fancy.svg", gradient)] {
            try Data(text.utf8).write(to: dir.url.appendingPathComponent("icons/" + name))
        }
        return dir
    }

    @Test("symbol sets for what a symbol holds, image sets with the lint for the rest; reruns carry them over")
    func symbolSets() throws {
        let dir = try Self.inputs()
        let out = try TemporaryDirectory("out")
        let arguments = ["--layout", "xcassets", "--symbols", dir.path("icons"), "-o", out.url.path]
        #expect(BuildStep.cli(arguments) == .success)
        #expect(
            out.files().filter { $0.hasPrefix("icons/") } == [
                "icons/bell.imageset/Contents.json", "icons/bell.imageset/bell.png", "icons/bell.imageset/bell@2x.png",
                "icons/bell.imageset/bell@3x.png", "icons/fancy.imageset/Contents.json", "icons/fancy.imageset/fancy.png",
                "icons/fancy.imageset/fancy@2x.png", "icons/fancy.imageset/fancy@3x.png",
                "icons/home.symbolset/Contents.json", "icons/home.symbolset/home.svg",
                "icons/ring.symbolset/Contents.json", "icons/ring.symbolset/ring.svg"
            ])
        let contents = try String(contentsOfFile: out.path("icons/home.symbolset/Contents.json"), encoding: .utf8)
        #expect(
            contents == """
                {
                  "info": {"author": "tabicon", "version": 1},
                  "symbols": [
                    {"filename": "home.svg", "idiom": "universal"}
                  ]
                }

                """)
        let template = try Data(contentsOf: URL(fileURLWithPath: out.path("icons/home.symbolset/home.svg")))
        #expect(String(decoding: template, as: UTF8.self).contains(">Template v.3.0</text>"))

        let manifest = try BuildStep.manifest(out.path("manifest.json"))
        #expect(manifest.options?.symbols == SymbolWeights.standard)
        let text = try String(contentsOfFile: out.path("manifest.json"), encoding: .utf8)
        #expect(text.contains("\"symbols\": {\"template\": \"3.0\", \"ultralight\": 0.4, \"black\": 1.8}"))
        func row(_ name: String) throws -> Manifest.Icon {
            try #require(manifest.icons.first { $0.input.hasSuffix("/icons/" + name) })
        }
        let home = try row("home.svg")
        #expect(home.symbolFile?.path == "icons/home.symbolset/home.svg")
        #expect(home.symbolFile?.bytes == template.count && home.symbolFile?.hash == ContentHash(of: template).description)
        #expect(home.contentsFile?.path == "icons/home.symbolset/Contents.json")
        #expect(home.renditions == [] && home.vectorFile == nil)
        #expect(!home.lints.contains { $0.code == .symbolFallback })
        let fancy = try row("fancy.svg")
        #expect(fancy.symbolFile == nil && fancy.renditions?.count == 3)
        #expect(
            fancy.lints.contains(
                Lint(
                    .symbolFallback,
                    "kept as an image set: a symbol cannot hold a gradient paint (a symbol has one template colour)")))
        #expect(
            try row("bell.png").lints.contains(
                Lint(.symbolFallback, "kept as an image set: a symbol is drawn from an SVG, not a PNG image")))
        let dark = try row("home-dark.svg")
        #expect(dark.renditions == [] && dark.vectorFile == nil && dark.symbolFile == nil)
        #expect(
            dark.lints.contains(
                Lint(
                    .symbolFallback,
                    "not written: \(dir.path("icons/home.svg")) is a symbol, tinted in the dark appearance as in the light")))

        // A rerun writes nothing, --check finds nothing; other weights redo the symbols, wider at Black.
        let stamps = BuildStep.stamps(out)
        #expect(BuildStep.cli(arguments) == .success)
        #expect(BuildStep.stamps(out) == stamps)
        #expect(BuildStep.cli(["--check"] + arguments) == .success)
        #expect(BuildStep.cli(arguments + ["--symbol-weights", "0.3,2.2"]) == .success)
        let heavier = try Data(contentsOf: URL(fileURLWithPath: out.path("icons/home.symbolset/home.svg")))
        #expect(heavier != template)
        // Without --symbols the symbol sets go and image sets come back.
        #expect(BuildStep.cli(["--layout", "xcassets", dir.path("icons"), "-o", out.url.path]) == .success)
        #expect(!out.files().contains { $0.contains(".symbolset") })
        #expect(out.files().contains("icons/home.imageset/home@3x.png"))
    }

    @Test("an input folder named like a symbol set makes no symbol: --vector writes its SVGs as SVGs")
    func folderNamedLikeASymbolSet() throws {
        let dir = try TemporaryDirectory("build-in")
        try FileManager.default.createDirectory(
            at: dir.url.appendingPathComponent("home.symbolset"), withIntermediateDirectories: true)
        try Data(Self.stroked.utf8).write(to: dir.url.appendingPathComponent("home.symbolset/home.svg"))
        for layout in ["flat", "xcassets"] {
            let out = try TemporaryDirectory("out")
            #expect(BuildStep.cli(["--layout", layout, "--vector", dir.path("home.symbolset"), "-o", out.url.path]) == .success)
            let vector = layout == "flat" ? "home.symbolset/home.svg" : "home.symbolset/home.imageset/home.svg"
            #expect(!out.files().contains { $0.hasSuffix("symbolset/Contents.json") }, "\(layout)")
            let written = try String(contentsOfFile: out.path(vector), encoding: .utf8)
            #expect(!written.contains("Template v."), "\(layout): a plain SVG, not a symbol template")
            let icon = try #require(try BuildStep.manifest(out.path("manifest.json")).icons.first)
            #expect(icon.vectorFile?.path == vector && icon.symbolFile == nil, "\(layout)")
        }
    }

    @Test("inspect --symbols says which inputs cannot become symbols, and why; without it, nothing of symbols")
    func inspect() throws {
        let dir = try Self.inputs()
        let names = ["bell.png", "fancy.svg", "home.svg", "ring.svg"]
        var run = InspectRun(box: .regular, limits: .default)
        run.symbols = .standard
        let rows = try run.run(BuildStep.batchInputs(dir, names)).map { try #require($0).get() }
        let fallbacks = rows.map { $0.lints.filter { $0.code == .symbolFallback }.map(\.message) }
        #expect(
            fallbacks == [
                ["kept as an image set: a symbol is drawn from an SVG, not a PNG image"],
                ["kept as an image set: a symbol cannot hold a gradient paint (a symbol has one template colour)"], [], []
            ])
        run.symbols = nil
        let plain = try run.run(BuildStep.batchInputs(dir, names)).map { try #require($0).get() }
        #expect(plain.allSatisfy { !$0.lints.contains { $0.code == .symbolFallback } })
    }

    @Test("--symbols needs an asset catalog; --symbol-weights two factors, and --symbols")
    func usage() throws {
        let dir = try Self.inputs()
        let out = try TemporaryDirectory("out")
        for extra in [
            ["--symbols"], ["--layout", "android", "--symbols"], ["--layout", "xcassets", "--symbol-weights", "0.4,1.8"],
            ["--layout", "xcassets", "--symbols", "--symbol-weights", "2,1"],
            ["--layout", "xcassets", "--symbols", "--symbol-weights", "0.4"],
            ["--layout", "xcassets", "--symbols", "--symbol-weights", "0,1.8"],
            ["--layout", "xcassets", "--symbols", "--symbol-weights", "0.4,nan"]
        ] {
            #expect(BuildStep.cli(extra + [dir.path("icons"), "-o", out.url.path]) == .usage, "\(extra)")
        }
        #expect(out.files().isEmpty)
    }
}
