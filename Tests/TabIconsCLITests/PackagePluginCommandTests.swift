import Foundation
import Testing
import TabIcons
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport

/// What `TabIconsPlugin`'s build commands run (SPEC §8): the Swift names from hostile file names,
/// the generated file, and `package-icon` holding a run to the files the plugin declared.
/// (Examples/check-plugin.sh runs the plugin itself under `swift build`.)
@Suite("tabicon package-icon / package-names")
struct PackagePluginCommandTests {
    @Test(
        "the identifier rule: camel case, digits first, keywords, scripts, invisible and bidi characters",
        arguments: [
            ("home", "home"), ("Home", "home"), ("tab bar-home_2", "tabBarHome2"), ("URLBar", "urlBar"),
            ("URL", "url"), ("HTTPServer-v2", "httpServerV2"), ("home-filled", "homeFilled"), ("home.fill", "homeFill"),
            ("24px", "_24px"), ("2 factor", "_2Factor"), ("default", "default_"), ("self", "self_"), ("Self", "self_"),
            ("init", "init_"), ("Type", "type"), ("_private", "private_"), ("in", "in_"), ("Protocol", "protocol_"),
            ("café", "café"), ("cafe\u{301}", "café"), ("naïve mode", "naïveMode"), ("домой", "домой"),
            ("ホーム", "ホーム"), ("ÜBER", "ÜBER"), ("home\u{202E}gpj", "homeGpj"), ("a\u{200B}b", "aB"),
            ("soft\u{AD}hyphen", "softHyphen"), ("\u{301}home", "home"), ("x", "x"), ("icon 🏠 home", "iconHome"),
            ("some", "some"), ("any", "any"), ("__", nil), ("🏠", nil), ("---", nil), ("", nil), ("\u{301}", nil)
        ] as [(String, String?)])
    func identifier(name: String, expected: String?) {
        #expect(SwiftIdentifier.make(from: name) == expected)
    }

    @Test("two icons giving one name fail naming both files; a name with nothing to keep fails naming it")
    func collisions() {
        for (a, b) in [("home.svg", "Home.png"), ("tab bar.svg", "tab-bar.png"), ("a_b.png", "aB.png")] {
            let source = IconAssetsSource(icons: [icon(a), icon(b)], scales: [1, 2, 3], fileExtension: "png")
            #expect(throws: IconAssetsSource.NamingError.self) { try source.text() }
            let message = Self.error(source)
            #expect(message.contains("Icons/\(a)") && message.contains("Icons/\(b)"), "\(message)")
        }
        let emoji = IconAssetsSource(icons: [icon("🏠.svg")], scales: [1], fileExtension: "png")
        #expect(Self.error(emoji).contains("Icons/🏠.svg"))
    }

    @Test(
        "icons in subfolders: named by the file name alone, the source keeps the folder, a clash across folders names both paths")
    func subfolders() throws {
        let icons = ["tabs/home.svg", "tabs/home-filled.svg", "home-dark.png", "tabs/deep/search.png"].map(icon)
        let text = try IconAssetsSource(icons: icons, scales: [1, 2, 3], fileExtension: "png").text()
        #expect(
            text.contains(
                """
                    /// Icons/tabs/home.svg
                    static let home = TabIconAsset(name: "home", source: "tabs/home.svg",
                        scales: [1, 2, 3], fileNames: ["home.png", "home@2x.png", "home@3x.png"],
                        selectedName: "home-filled", darkName: nil)
                """))
        // home-dark.png is in Icons/, not in tabs/: an icon of its own, no twin of tabs/home.svg.
        #expect(
            text.contains(
                """
                    static let homeDark = TabIconAsset(name: "home-dark", source: "home-dark.png",
                        scales: [1, 2, 3], fileNames: ["home-dark.png", "home-dark@2x.png", "home-dark@3x.png"],
                        selectedName: nil, darkName: nil)
                """))
        #expect(text.contains(#"static let search = TabIconAsset(name: "search", source: "tabs/deep/search.png","#))
        #expect(
            text.contains(
                "static let all: [TabIconAsset] = [TabIconAssets.home, TabIconAssets.homeDark, TabIconAssets.homeFilled, TabIconAssets.search]"
            ))

        for (a, b) in [("tabs/home.svg", "home.png"), ("a/tab bar.svg", "b/tab-bar.svg")] {
            let message = Self.error(IconAssetsSource(icons: [icon(a), icon(b)], scales: [1], fileExtension: "png"))
            #expect(message.contains("Icons/\(a)") && message.contains("Icons/\(b)"), "\(message)")
        }
    }

    @Test("the generated file: one constant per icon, its files by the flat layout, twins linked, escaped literals")
    func generatedText() throws {
        let icons = ["home.svg", "home-filled.svg", "home-dark.png", "search.png", "we\"ird\\name.png"].map(icon)
        let text = try IconAssetsSource(icons: icons, scales: [1, 1.5, 3], fileExtension: "webp").text()
        #expect(
            text.contains(
                """
                    static let home = TabIconAsset(name: "home", source: "home.svg",
                        scales: [1, 1.5, 3], fileNames: ["home.webp", "home@1.5x.webp", "home@3x.webp"],
                        selectedName: "home-filled", darkName: "home-dark")
                """))
        #expect(text.contains("static let homeFilled = TabIconAsset(name: \"home-filled\""))
        #expect(text.contains("static let search = TabIconAsset(name: \"search\", source: \"search.png\","))
        #expect(text.contains(#"static let weIrdName = TabIconAsset(name: "we\"ird\\name", source: "we\"ird\\name.png","#))
        #expect(
            text.contains(
                "static let all: [TabIconAsset] = [TabIconAssets.home, TabIconAssets.homeDark, TabIconAssets.homeFilled, TabIconAssets.search, TabIconAssets.weIrdName]"
            ))
        // The same icons in another order give the same bytes.
        #expect(try IconAssetsSource(icons: icons.reversed(), scales: [1, 1.5, 3], fileExtension: "webp").text() == text)
    }

    @Test("hostile names compile: the generated file and a use of every name pass swiftc -typecheck")
    func hostileNamesCompile() throws {
        guard let swiftc = Self.swiftc else {
            Issue.record("swiftc not found on PATH or in /opt/swift/usr/bin")
            return
        }
        let names = [
            "default", "self", "init", "Type", "Protocol", "24px", "2 factor", "café", "cafe\u{301}x",
            "домой", "ホーム", "home\u{202E}gpj", "a\u{200B}b", "URLBar", "some", "any", "in", "is",
            "home-filled", "home.dark", "new\nline", "quote\"d", "back\\slash", "dollar$sign", "x\u{0}y"
        ]
        let icons = names.map { icon($0 + ".png") }
        let source = IconAssetsSource(icons: icons, scales: [1, 2, 3], fileExtension: "png")
        let text = try source.text()
        let identifiers = names.compactMap(SwiftIdentifier.make)
        #expect(identifiers.count == names.count && Set(identifiers).count == names.count)
        let dir = try TemporaryDirectory("names")
        try text.write(to: dir.url.appendingPathComponent("TabIconAssets.swift"), atomically: true, encoding: .utf8)
        let use =
            "import Foundation\nextension Bundle { static var module: Bundle { .main } }\n"
            + "let used: [TabIconAsset] = [" + identifiers.map { "TabIconAssets.\($0)" }.joined(separator: ", ") + "]\n"
        try use.write(to: dir.url.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let (status, output) = try Self.runProcess(
            swiftc,
            [
                "-typecheck", "-swift-version", "6",
                dir.path("TabIconAssets.swift"), dir.path("main.swift")
            ])
        #expect(status == 0, "\(output)")
    }

    @Test("package-icon writes exactly the declared files; a smaller raster is upscaled so every scale exists")
    func packageIcon() throws {
        let dir = try TemporaryDirectory("package-icon")
        let out = dir.path("icons/rgba-32"), manifest = dir.path("manifests/rgba-32.json")
        let status = SilentCLI.run([
            "package-icon", "--out", out, "--manifest", manifest,
            "--expect", "rgba-32.png", "--expect", "rgba-32@2x.png", "--expect", "rgba-32@3x.png",
            "--", Fixtures.testImage("rgba-32.png").path
        ])
        #expect(status == .success)
        #expect(
            dir.files() == [
                "icons/rgba-32/rgba-32.png", "icons/rgba-32/rgba-32@2x.png", "icons/rgba-32/rgba-32@3x.png",
                "manifests/rgba-32.json", "manifests/rgba-32.json.stat-cache", "manifests/tool.txt"
            ])
        let third = try ImageDecoder.decode(Data(contentsOf: URL(fileURLWithPath: out + "/rgba-32@3x.png")))
        #expect(third.bitmap.width == 75 && third.bitmap.height == 75)
    }

    @Test("package-icon forgets a manifest another tabicon wrote (other bytes), and keeps its own")
    func toolStamp() throws {
        let dir = try TemporaryDirectory("package-icon")
        let manifest = dir.path("manifest.json")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: manifest))
        let stamp = PackageCommands.ToolStamp(manifest: manifest)
        #expect(stamp.path == dir.path("tool.txt"))
        #expect(stamp.current?.hasPrefix("xxh3-128:") == true)

        stamp.record()
        stamp.forgetRunsOfAnotherTool()
        #expect(FileManager.default.fileExists(atPath: manifest))  // this tabicon's: kept

        try Data("xxh3-128:00000000000000000000000000000000".utf8).write(to: URL(fileURLWithPath: stamp.path))
        stamp.forgetRunsOfAnotherTool()
        #expect(!FileManager.default.fileExists(atPath: manifest))  // another's: forgotten

        try Data("{}".utf8).write(to: URL(fileURLWithPath: manifest))
        try FileManager.default.removeItem(atPath: stamp.path)
        stamp.forgetRunsOfAnotherTool()
        #expect(!FileManager.default.fileExists(atPath: manifest))  // no stamp: a tabicon before stamps
    }

    @Test("package-icon fails when the files differ from the declared ones, and when the icon does not decode")
    func packageIconFailures() throws {
        let dir = try TemporaryDirectory("package-icon")
        let mismatch = SilentCLI.run([
            "package-icon", "--out", dir.path("a"), "--manifest", dir.path("a.json"),
            "--expect", "home.png", "--expect", "home@2x.png",
            "--", Fixtures.testImage("home.png").path
        ])
        #expect(mismatch == .someInputsFailed)  // three files written, two declared

        let broken = dir.path("broken.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]).write(to: URL(fileURLWithPath: broken))
        let failed = SilentCLI.run([
            "package-icon", "--out", dir.path("b"), "--manifest", dir.path("b.json"),
            "--expect", "broken.png", "--expect", "broken@2x.png", "--expect", "broken@3x.png",
            "--", broken
        ])
        #expect(failed == .someInputsFailed)
        let recorded = try Manifest(parsing: Data(contentsOf: URL(fileURLWithPath: dir.path("b.json"))))
        #expect(recorded.errors.map(\.code) == ["truncated"])

        #expect(SilentCLI.run(["package-icon", "--out", dir.path("c"), "--", broken]) == .usage)
        #expect(
            SilentCLI.run([
                "package-icon", "--bogus", "x", "--out", dir.path("c"), "--manifest", dir.path("c.json"),
                "--", broken
            ]) == .usage)
    }

    @Test("package-names writes the file once (the same bytes leave it untouched) and fails on a collision, writing nothing")
    func packageNames() throws {
        let dir = try TemporaryDirectory("package-names")
        let out = dir.path("TabIconAssets.swift")
        #expect(
            SilentCLI.run([
                "package-names", "--out", out, "--scales", "1,2,3", "--format", "png", "--",
                "home.svg", "--weird.png"
            ]) == .success)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("static let home = ") && text.contains("static let weird = "))
        let before = try FileManager.default.attributesOfItem(atPath: out)
        Thread.sleep(forTimeInterval: 0.01)
        #expect(
            SilentCLI.run(["package-names", "--out", out, "--scales", "1,2,3", "--", "home.svg", "--weird.png"]) == .success)
        let after = try FileManager.default.attributesOfItem(atPath: out)
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)

        let clash = dir.path("Clash.swift")
        #expect(SilentCLI.run(["package-names", "--out", clash, "--scales", "0", "--", "home.svg"]) == .usage)
        #expect(
            SilentCLI.run(["package-names", "--out", clash, "--scales", "1", "--format", "gif", "--", "a.png"]) == .usage)
    }

    @Test(
        "package-names fails on two icons of one Swift name with one line naming both, and writes nothing",
        .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
    func packageNamesClash() throws {
        let dir = try TemporaryDirectory("package-names")
        let clash = dir.path("Clash.swift")
        let result = try OutputHygieneTests.run([
            "package-names", "--out", clash, "--scales", "1,2,3", "--", "home.svg", "Home.png"
        ])
        #expect(result.status == 1 && result.out.isEmpty)
        #expect(result.err == "tabicon: error: Icons/Home.png and Icons/home.svg both give the Swift name `home`; rename one\n")
        #expect(!FileManager.default.fileExists(atPath: clash))
    }

    @Test("package-names reads tabicons.json only to warn: a typo'd entry or a broken file leaves the names as without it")
    func packageNamesWithConfig() throws {
        let dir = try TemporaryDirectory("package-names")
        let plain = dir.path("Plain.swift"), typo = dir.path("Typo.swift"), broken = dir.path("Broken.swift")
        try Data(#"{"icons": [{"match": "Icons/hom.svg", "render": "original"}]}"#.utf8).write(
            to: dir.url.appendingPathComponent("typo.json"))
        try Data(#"{"icons": [{"match": "#.utf8).write(to: dir.url.appendingPathComponent("broken.json"))
        let names = ["--scales", "1,2,3", "--", "home.svg", "search.png"]
        #expect(SilentCLI.run(["package-names", "--out", plain] + names) == .success)
        #expect(SilentCLI.run(["package-names", "--out", typo, "--config", dir.path("typo.json")] + names) == .success)
        #expect(SilentCLI.run(["package-names", "--out", broken, "--config", dir.path("broken.json")] + names) == .success)
        let expected = try Data(contentsOf: URL(fileURLWithPath: plain))
        #expect(try Data(contentsOf: URL(fileURLWithPath: typo)) == expected)
        #expect(try Data(contentsOf: URL(fileURLWithPath: broken)) == expected)
    }

    private func icon(_ path: String) -> IconAssetsSource.Icon { .init(path: path) }

    private static func error(_ source: IconAssetsSource) -> String {
        do { _ = try source.text(); return "" } catch { return error.description }
    }

    private static var swiftc: String? {
        let candidates =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" }
            + ["/opt/swift/usr/bin/swiftc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func runProcess(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
