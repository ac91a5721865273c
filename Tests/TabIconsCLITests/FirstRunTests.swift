import Foundation
import Testing

@testable import TabIconsBatch
@testable import TabIconsCLI
import TabIconsBatchTestSupport
import TabIconsTestSupport

/// What a newcomer meets on a first run, through the built binary: each command's help lists what
/// it takes, usage errors point at that help, the summary names the next step, `preview` takes
/// `--vector` and says where it wrote, the android layout keeps its manifest out of `res/`, and
/// `tabicons.json` is only ever the config.
@Suite("tabicon: the first runs", .enabled(if: TabiconBinary.url != nil, "needs the built tabicon"))
struct FirstRunTests {
    /// The built tabicon in `folder`; its status and what it printed (stdout and stderr together).
    static func tabicon(_ arguments: [String], in folder: String) throws -> (status: Int32, output: String) {
        try RecipeTests.run(try #require(TabiconBinary.url).path, arguments, in: folder)
    }

    @Test("each command's --help names only options it takes (or refuses, saying why)")
    func helpNamesOnlyItsOptions() throws {
        for command in CommandDeclaration.all {
            let help = try #require(TabIconCommand.usage(of: command.name))
            let named = help.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }
            let known = Set((command.helpOptions + command.refused).map(\.longName))
            #expect(Set(named).subtracting(known).isEmpty, "\(command.name) --help names \(Set(named).subtracting(known))")
        }
    }

    @Test("a usage error points at the command's own --help; an unknown command at tabicon --help")
    func usageErrorsPointAtTheirHelp() throws {
        let dir = try TemporaryDirectory("first-usage")
        for command in ["normalize", "inspect", "preview"] {
            let result = try Self.tabicon([command, "--frob", "x.png"], in: dir.url.path)
            #expect(result.status == 2)
            #expect(result.output.contains("Run 'tabicon \(command) --help' for its options."), "\(result.output)")
        }
        let unknown = try Self.tabicon(["frobnicate"], in: dir.url.path)
        #expect(unknown.status == 2 && unknown.output.contains("Run 'tabicon --help' for usage."))
    }

    @Test(
        "the summary names the next step: the preview and --allow-upscale for icons too small; none when nothing is left to see")
    func nextStep() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("small.png", "rgba-32.png")])
        let run = try Self.tabicon(["normalize", "-o", "out", "icons"], in: dir.url.path)
        #expect(run.status == 0)
        #expect(
            run.output.contains(
                "\nnext: see the icons in tab bars, with their lints: tabicon preview -o preview.html icons; "
                    + "--allow-upscale renders the scales skipped as too small\n"), "\(run.output)")
        let upscaled = try Self.tabicon(["normalize", "--allow-upscale", "-o", "up", "icons/home.png"], in: dir.url.path)
        #expect(upscaled.status == 0 && !upscaled.output.contains("next:"), "\(upscaled.output)")
        let withPage = try Self.tabicon(["normalize", "-o", "out", "--preview", "page.html", "icons"], in: dir.url.path)
        #expect(withPage.output.contains("; preview: page.html\nnext: --allow-upscale renders"), "\(withPage.output)")
    }

    @Test("preview takes --vector (the page normalize --vector --preview makes) and says where it wrote the page")
    func previewVector() throws {
        let dir = try BuildStep.inputs([("house.svg", "house.svg"), ("home.png", "home.png")])
        let preview = try Self.tabicon(["preview", "--vector", "-o", "page.html", "icons"], in: dir.url.path)
        #expect(preview.status == 0, "\(preview.output)")
        #expect(preview.output.hasSuffix("previewed 2 icons in page.html; open it in a browser\n"), "\(preview.output)")
        let normalized = try Self.tabicon(
            ["normalize", "-q", "--vector", "-o", "out", "--preview", "normalized.html", "icons"], in: dir.url.path)
        #expect(normalized.status == 0)
        let page = try Data(contentsOf: dir.url.appendingPathComponent("page.html"))
        #expect(page == (try Data(contentsOf: dir.url.appendingPathComponent("normalized.html"))))
        #expect(String(decoding: page, as: UTF8.self).contains("image/svg+xml"))
        // A VectorDrawable is shown by its SVG, as normalize --preview shows it.
        let android = try Self.tabicon(
            ["preview", "-q", "--vector", "--layout", "android", "-o", "a.html", "icons"], in: dir.url.path)
        #expect(android.status == 0 && android.output.isEmpty, "\(android.output)")
        #expect(
            String(decoding: try Data(contentsOf: dir.url.appendingPathComponent("a.html")), as: UTF8.self).contains(
                "drawable/house.xml"))
    }

    @Test("--layout android without --manifest: the manifest, its stat cache and journal beside -o, only resource folders in it")
    func androidManifestBesideRes() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png")])
        for out in ["res", "app/res/"] {
            let run = try Self.tabicon(["normalize", "--layout", "android", "-o", out, "icons"], in: dir.url.path)
            #expect(run.status == 0, "\(run.output)")
            let res = dir.path(out)
            let top = try FileManager.default.contentsOfDirectory(atPath: res)
            #expect(top.allSatisfy { $0.hasPrefix("drawable-") }, "\(top)")
            let manifest = dir.path(out.hasSuffix("/") ? String(out.dropLast()) : out) + ".manifest.json"
            #expect(FileManager.default.fileExists(atPath: manifest))
            #expect(FileManager.default.fileExists(atPath: StatCache.path(manifestPath: manifest)))
            #expect(run.output.contains("; manifest: \(manifest.dropFirst(dir.url.path.count + 1))"), "\(run.output)")
            #expect(
                try Self.tabicon(["normalize", "--check", "--layout", "android", "-o", out, "icons"], in: dir.url.path).status
                    == 0)
        }
        // A rerun prunes by that manifest.
        try FileManager.default.removeItem(atPath: dir.path("icons/bell.png"))
        #expect(try Self.tabicon(["normalize", "-q", "--layout", "android", "-o", "res", "icons"], in: dir.url.path).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.path("res/drawable-mdpi/bell.png")))
        // An -o with no name to put a manifest beside: refused, naming --manifest; nothing written.
        try FileManager.default.createDirectory(atPath: dir.path("here"), withIntermediateDirectories: true)
        let dot = try Self.tabicon(["normalize", "--layout", "android", "-o", ".", "../icons"], in: dir.path("here"))
        #expect(dot.status == 2 && dot.output.contains("name it with --manifest FILE"), "\(dot.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("here")).isEmpty)
    }

    @Test("a manifest at ./tabicons.json is refused as a config, naming --config and --manifest; --manifest may not write there")
    func manifestIsNotAConfig() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        #expect(try Self.tabicon(["normalize", "-q", "-o", "out", "icons"], in: dir.url.path).status == 0)
        try FileManager.default.copyItem(atPath: dir.path("out/manifest.json"), toPath: dir.path("tabicons.json"))
        let run = try Self.tabicon(["normalize", "-o", "out", "icons"], in: dir.url.path)
        #expect(run.status == 2)
        #expect(run.output.hasPrefix("tabicon: ./tabicons.json is a tabicon manifest, not a config"), "\(run.output)")
        #expect(run.output.contains("--manifest FILE") && run.output.contains("--config FILE"))
        let preview = try Self.tabicon(["preview", "-o", "p.html", "icons"], in: dir.url.path)
        #expect(preview.status == 2 && preview.output.contains("is a tabicon manifest, not a config"))
        let named = try Self.tabicon(["normalize", "--config", "out/manifest.json", "-o", "out", "icons"], in: dir.url.path)
        #expect(named.status == 2)
        #expect(named.output.hasPrefix("tabicon: --config out/manifest.json is a tabicon manifest"), "\(named.output)")
        // A config that is not a manifest keeps its own message.
        try Data(#"{"version": 1}"#.utf8).write(to: URL(fileURLWithPath: dir.path("tabicons.json")))
        let stray = try Self.tabicon(["normalize", "-o", "out", "icons"], in: dir.url.path)
        #expect(stray.status == 2 && stray.output.contains(#"has the key "version"; a config holds only"#), "\(stray.output)")

        try FileManager.default.removeItem(atPath: dir.path("tabicons.json"))
        for manifest in ["tabicons.json", "./tabicons.json", dir.path("tabicons.json")] {
            let refused = try Self.tabicon(["normalize", "-o", "elsewhere", "--manifest", manifest, "icons"], in: dir.url.path)
            #expect(refused.status == 2 && refused.output.contains("is where tabicon looks for its config"), "\(refused.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("tabicons.json")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("elsewhere")))
    }
}
