import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// `--config FILE` (SPEC §6): per-icon settings by glob, with the precedence defaults < `options`
/// < the command line < each matching `icons` entry in file order; every mistake a usage error
/// naming the file and the key; an icon's options its own cache key and manifest entry.
@Suite("tabicon: --config")
struct ConfigFileTests {
    /// A folder with `icons/home.png`, `icons/bell.png`, `icons/tabs/search.png` and the config text.
    static func setUp(_ config: String) throws -> (dir: TemporaryDirectory, config: String) {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png"), ("tabs/search.png", "search.png")])
        let path = dir.path("tabicons.json")
        try Data(config.utf8).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    /// The usage error `normalize` answers, from its words or where its config meets its inputs,
    /// or nil when it takes them.
    static func usageError(_ arguments: [String]) -> String? {
        do {
            let command = try NormalizeCommand(arguments: arguments)
            _ = try command.batchInputs(
                InputCollector.collect(command.inputs).inputs, console: Console(quiet: true, silent: true))
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: precedence

    @Test("precedence: defaults, then options, then the command line, then each matching entry in file order")
    func precedence() throws {
        let (dir, config) = try Self.setUp(
            """
            {"options": {"box": 30, "shape": "square", "filter": "mitchell", "scales": [1, 2]},
             "icons": [
               {"match": "**/home.png", "box": 40, "format": "webp", "quality": 90},
               {"match": "**/icons/*", "box": "50", "trim": true},
               {"match": "**/icons/home.*", "trim": false, "quality": 70}
             ]}
            """)
        let command = try NormalizeCommand(arguments: [
            "--config", config, "--box", "20", "--shape", "circle", "-o", dir.path("out"),
            dir.path("icons")
        ])
        // The run: the command line over options over the defaults.
        #expect(command.options.box.points == 20)
        #expect(command.options.shape == .circle)
        #expect(command.options.filter == .mitchell)
        #expect(command.options.scales == [1, 2])
        #expect(command.options.render == .auto)
        #expect(!command.options.trim)
        #expect(command.format == .png)

        let items = InputCollector.collect([dir.path("icons")]).inputs
        let inputs = try command.batchInputs(items, console: Console(quiet: true, silent: true))
        let byName = Dictionary(uniqueKeysWithValues: inputs.map { (($0.name as NSString).lastPathComponent, $0.settings) })
        // bell: icons[1] only.
        var bell = command.options
        bell.box = IconBox(points: 50)!
        bell.trim = true
        #expect(byName["bell.png"] == IconSettings(options: bell, format: .png))
        // home: icons[0], [1], [2] in order: box 50 (the later entry), trim off again (the latest), quality 70.
        var home = command.options
        home.box = IconBox(points: 50)!
        #expect(byName["home.png"] == IconSettings(options: home, format: .webp(quality: 70)))
        // tabs/search: `**/icons/*` stays inside its folder; `**/home.png` is another name: the run's.
        #expect(byName["search.png"] == .some(nil))
    }

    @Test("an entry that sets what the run already has gives the input no settings of its own")
    func sameAsRun() throws {
        let (dir, config) = try Self.setUp(#"{"icons": [{"match": "**", "box": "regular", "trim": false}]}"#)
        let command = try NormalizeCommand(arguments: ["--config", config, dir.path("icons")])
        let inputs = try command.batchInputs(
            InputCollector.collect([dir.path("icons")]).inputs, console: Console(quiet: true, silent: true))
        #expect(inputs.count == 3)
        #expect(inputs.allSatisfy { $0.settings == nil })
    }

    // MARK: errors

    @Test(
        "every mistake is a usage error in one line naming the file and the key",
        arguments: [
            (
                #"{"icons": [{"match": "*", "box": "huge"}]}"#,
                ": icons[0].box must be regular, compact, material or a positive number of points, not 'huge'"
            ),
            (
                #"{"options": {"box": 0}}"#,
                ": options.box must be regular, compact, material or a positive number of points, not '0'"
            ),
            (
                #"{"options": {"scales": "1,,2"}}"#,
                ": options.scales must be positive decimal numbers separated by commas (1,2,3 or 1,1.5,2), not '1,,2'"
            ),
            (#"{"options": {"scales": [1, "2"]}}"#, ": options.scales must be a list of numbers, such as [1, 2, 3]"),
            (#"{"options": {"scales": []}}"#, ": options.scales must be a list of numbers, such as [1, 2, 3]"),
            (
                #"{"options": {"scales": 2}}"#,
                #": options.scales must be a list of numbers or a string, such as [1, 2, 3] or "1,2,3""#
            ),
            (#"{"options": {"layout": "ios"}}"#, ": options.layout: unknown value 'ios'"),
            (#"{"icons": [{"match": "*", "shape": "oval"}]}"#, ": icons[0].shape: unknown value 'oval'"),
            (#"{"icons": [{"match": "*", "shape": 3}]}"#, ": icons[0].shape must be a string"),
            (#"{"icons": [{"match": "*", "trim": "yes"}]}"#, ": icons[0].trim must be true or false"),
            (#"{"icons": [{"match": "*", "allow-upscale": 1}]}"#, ": icons[0].allow-upscale must be true or false"),
            (#"{"icons": [{"match": "*", "box": true}]}"#, ": icons[0].box must be a number or a string"),
            (
                #"{"icons": [{"match": "*", "padding": "lots"}]}"#,
                ": icons[0].padding must be a number of points or a percentage of the box (2, 2.5, 10%), not 'lots'"
            ),
            (#"{"icons": [{"match": "**", "padding": 20}]}"#, ": icons[0].padding: "),
            (
                #"{"icons": [{"match": "**", "quality": 80}]}"#,
                ": icons[0].quality applies to --format webp only (PNG is always lossless)"
            ),
            (
                #"{"icons": [{"match": "*", "format": "webp", "quality": 101}]}"#,
                ": icons[0].quality must be a number from 0 to 100, not '101'"
            ),
            (#"{"icons": [{"match": "*", "format": "gif"}]}"#, ": icons[0].format must be png or webp, not 'gif'"),
            (
                #"{"icons": [{"match": "*", "layout": "android"}]}"#,
                #": icons[0].layout is the same for every icon of a run; set it in "options""#
            ),
            (
                #"{"icons": [{"match": "*", "scales": [1]}]}"#,
                #": icons[0].scales is the same for every icon of a run; set it in "options""#
            ),
            (
                #"{"icons": [{"match": "*", "bx": 25}]}"#,
                ": icons[0].bx is not a setting (did you mean box?); the keys are box, shape, trim, render, filter, padding, allow-upscale, format, quality, stroke-width, fit, centre, layout, scales, vector"
            ),
            (
                #"{"options": {"jobs": 4}}"#,
                ": options.jobs is not a setting; the keys are box, shape, trim, render, filter, padding, allow-upscale, format, quality, stroke-width, fit, centre, layout, scales, vector"
            ),
            (
                #"{"icons": [{"match": "*", "vector": true}]}"#,
                #": icons[0].vector is the same for every icon of a run; set it in "options""#
            ),
            (#"{"options": {"vector": "yes"}}"#, ": options.vector must be true or false"),
            (#"{"icons": [{"box": 25}]}"#, #": icons[0] has no "match" (a glob over the input paths, such as "logos/*.png")"#),
            (#"{"icons": [{"match": 5}]}"#, ": icons[0].match must be a string, a glob"),
            (#"{"icons": [{"match": "[a"}]}"#, ": icons[0].match is not a glob: a [ without its ]"),
            (#"{"icons": [{"match": ""}]}"#, ": icons[0].match is not a glob: an empty pattern matches nothing"),
            (#"{"icons": [{"match": "*"}, "logo"]}"#, #": icons[1] must be an object with a "match""#),
            (#"{"icons": {"match": "*"}}"#, #": icons must be an array of objects, each with a "match""#),
            (#"{"options": []}"#, ": options must be an object of settings"),
            (
                #"{"icons": ["# + Array(repeating: #"{"match": "x"}"#, count: 1001).joined(separator: ",") + "]}",
                ": icons has 1001 entries, more than the 1000 a config may"
            ),
            (#"{"option": {}}"#, #" has the key "option"; a config holds only "options", "icons" and "lints""#),
            (
                #"["options"]"#,
                #" must be a JSON object {"options": {...}, "icons": [{"match": "GLOB", ...}, ...], "lints": {...}}"#
            ),
            (
                #"{"icons": [{"match": "*", "set": 3}]}"#,
                ": icons[0].set must be a name of 1 to 64 bytes without control characters"
            ),
            (
                #"{"icons": [{"match": "*", "set": ""}]}"#,
                ": icons[0].set must be a name of 1 to 64 bytes without control characters"
            ),
            (
                #"{"icons": [{"match": "*", "set": "a\u001bb"}]}"#,
                ": icons[0].set must be a name of 1 to 64 bytes without control characters"
            ),
            (
                #"{"icons": [{"match": "*", "set": ""# + String(repeating: "s", count: 65) + #""}]}"#,
                ": icons[0].set must be a name of 1 to 64 bytes without control characters"
            ),
            (#"{"lints": []}"#, #": lints must be an object such as {"strokeMismatch": 0.15}"#),
            (
                #"{"lints": {"stroke": 0.2}}"#,
                ": lints.stroke is not a lint threshold; the keys are strokeMismatch, opticalSizeMismatch, offCentre"
            ),
            (#"{"lints": {"strokeMismatch": 0}}"#, ": lints.strokeMismatch must be a number above 0 and at most 1"),
            (#"{"lints": {"strokeMismatch": 15}}"#, ": lints.strokeMismatch must be a number above 0 and at most 1"),
            (#"{"lints": {"offCentre": "0.5"}}"#, ": lints.offCentre must be a number above 0 and at most 25"),
            (#"{"lints": {"opticalSizeMismatch": -1}}"#, ": lints.opticalSizeMismatch must be a number above 0 and at most 25"),
            (#"{"options": {"box": 25}"#, " is not JSON"),
            ("", " is not JSON"),
            (String(repeating: "[", count: 100) + String(repeating: "]", count: 100), " must be a JSON object"),
            (String(repeating: "[", count: 100_000), " is not JSON")
        ] as [(String, String)])
    func errors(config text: String, message: String) throws {
        let (dir, config) = try Self.setUp(text)
        let words = ["--config", config, "-o", dir.path("out"), dir.path("icons")]
        let error = try #require(Self.usageError(words), "accepted: \(text)")
        #expect(error.hasPrefix("--config \(config)\(message)"), "\(text): \(error)")
        #expect(!error.contains("\n"))
        #expect(SilentCLI.run(["normalize", "-q"] + words) == .usage)
        #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
        // preview reads the same file the same way.
        #expect(
            SilentCLI.run(["preview", "-q", "--config", config, "-o", dir.path("page.html"), dir.path("icons")]) == .usage)
        #expect(!FileManager.default.fileExists(atPath: dir.path("page.html")))
    }

    @Test("the file itself: missing, too large, a folder, a FIFO; a link read as the file it names, a loop of links refused")
    func fileErrors() throws {
        let (dir, _) = try Self.setUp("{}")
        let missing = dir.path("missing.json")
        #expect(Self.usageError(["--config", missing, dir.path("icons")]) == "--config \(missing) does not exist")
        #expect(Self.usageError(["--config", "", dir.path("icons")]) == "--config needs a path, not an empty word")

        let large = dir.path("large.json")
        try Data(#"{"options": {}}"#.utf8 + Array(repeating: UInt8(ascii: " "), count: IconConfig.cap)).write(
            to: URL(fileURLWithPath: large))
        #expect(
            Self.usageError(["--config", large, dir.path("icons")])
                == "--config \(large) holds \(IconConfig.cap + 15) bytes, more than the 1 MiB a config file may")
        let atCap = dir.path("at-cap.json")
        try Data(#"{"options": {}}"#.utf8 + Array(repeating: UInt8(ascii: " "), count: IconConfig.cap - 15)).write(
            to: URL(fileURLWithPath: atCap))
        #expect(Self.usageError(["--config", atCap, dir.path("icons")]) == nil)

        // A link is read as the file it names (a build sandbox links the config in), and only then.
        let link = dir.path("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: atCap)
        #expect(Self.usageError(["--config", link, dir.path("icons")]) == nil)
        let fifo = dir.path("fifo.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        let linkToFifo = dir.path("link-to-fifo.json"), linkToFolder = dir.path("link-to-folder.json")
        try FileManager.default.createSymbolicLink(atPath: linkToFifo, withDestinationPath: fifo)
        try FileManager.default.createSymbolicLink(atPath: linkToFolder, withDestinationPath: dir.path("icons"))
        for path in [dir.path("icons"), fifo, linkToFifo, linkToFolder] {
            #expect(
                Self.usageError(["--config", path, dir.path("icons")])
                    == "--config \(path) is a folder or a special file, not a config file")
        }
        let dangling = dir.path("dangling.json")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.path("nothing.json"))
        #expect(Self.usageError(["--config", dangling, dir.path("icons")]) == "--config \(dangling) does not exist")
        // Two links naming each other: the system's reason, not "a special file".
        let loopA = dir.path("loop-a.json"), loopB = dir.path("loop-b.json")
        try FileManager.default.createSymbolicLink(atPath: loopA, withDestinationPath: loopB)
        try FileManager.default.createSymbolicLink(atPath: loopB, withDestinationPath: loopA)
        #expect(
            Self.usageError(["--config", loopA, dir.path("icons")])
                == "--config \(loopA) cannot be read: too many levels of symbolic links")
    }

    @Test("hostile names and keys are escaped in the message")
    func hostileNames() throws {
        let (dir, config) = try Self.setUp("{\"icons\": [{\"match\": \"*\", \"b\\u001b[31mx\\n\": 1}]}")
        let error = try #require(Self.usageError(["--config", config, dir.path("icons")]))
        #expect(error.hasPrefix("--config \(config): \"icons[0].b\\033[31mx\\n\" is not a setting"), "\(error)")
        #expect(!error.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test("entries that clash only where they meet are refused for the input they meet on")
    func clashWhereEntriesMeet() throws {
        let (dir, config) = try Self.setUp(
            #"{"icons": [{"match": "**/home.png", "format": "webp", "quality": 50}, {"match": "**/icons/*.png", "format": "png"}]}"#
        )
        let command = try NormalizeCommand(arguments: ["--config", config, dir.path("icons")])
        let items = InputCollector.collect([dir.path("icons")]).inputs
        let home = dir.path("icons/home.png")
        do {
            _ = try command.batchInputs(items, console: Console(quiet: true, silent: true))
            Issue.record("accepted")
        } catch {
            #expect(
                error.description
                    == "--config \(config): icons[0].quality applies to --format webp only (PNG is always lossless) "
                    + "(for \(home), which icons[0], icons[1] match)")
        }
        #expect(SilentCLI.run(["normalize", "-q", "--config", config, "-o", dir.path("out"), dir.path("icons")]) == .usage)
        #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
    }

    // MARK: incremental runs and the manifest

    @Test("a config change redoes exactly the icons it touches; the manifest records their own options")
    func incremental() throws {
        let (dir, config) = try Self.setUp(#"{"icons": [{"match": "**/home.png", "box": 30}]}"#)
        let out = dir.path("out")
        let words = ["--config", config, "-o", out, dir.path("icons")]
        #expect(BuildStep.cli(words) == .success)
        var manifest = try BuildStep.manifest(out + "/manifest.json")
        let home = try #require(manifest.icons.first { $0.name == "home" })
        #expect(home.renditions?.map(\.pixelWidth) == [30, 60, 90])
        #expect(home.options?.jsonValue["box"] == .double(30))
        #expect(home.options?.jsonValue["shape"] == .string("fit"))
        #expect(
            manifest.icons.filter { $0.name != "home" }.allSatisfy { $0.options == nil && $0.renditions?.first?.pixelWidth == 25 }
        )
        // The per-icon options read back as written, and written only where they differ from the run's.
        #expect(try Manifest(parsing: manifest.jsonData()) == manifest)
        #expect(
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json")), as: UTF8.self)
                .components(separatedBy: #""options": {"#).count == 3)

        let before = BuildStep.stamps(dir)
        // The same config again: nothing is redone.
        #expect(BuildStep.cli(words) == .success)
        #expect(BuildStep.stamps(dir) == before)

        // home's entry changes: home's files alone are rewritten.
        try Data(#"{"icons": [{"match": "**/home.png", "box": 30, "shape": "circle"}]}"#.utf8).write(
            to: URL(fileURLWithPath: config))
        #expect(BuildStep.cli(words) == .success)
        let after = BuildStep.stamps(dir)
        let changed = Set(after.keys.filter { after[$0] != before[$0] })
        #expect(
            changed == [
                "out/icons/home.png", "out/icons/home@2x.png", "out/icons/home@3x.png", "out/manifest.json",
                "tabicons.json"
            ])
        manifest = try BuildStep.manifest(out + "/manifest.json")
        #expect(manifest.icons.first { $0.name == "home" }?.options?.jsonValue["shape"] == .string("circle"))

        // A new entry for bell: bell alone is redone; home is carried over with its own options.
        try Data(
            #"{"icons": [{"match": "**/home.png", "box": 30, "shape": "circle"}, {"match": "**/icons/b*", "filter": "box"}]}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: config))
        let third = BuildStep.stamps(dir)
        #expect(BuildStep.cli(words) == .success)
        let fourth = BuildStep.stamps(dir)
        #expect(
            Set(fourth.keys.filter { fourth[$0] != third[$0] }) == [
                "out/icons/bell.png", "out/icons/bell@2x.png",
                "out/icons/bell@3x.png", "out/manifest.json"
            ])
        manifest = try BuildStep.manifest(out + "/manifest.json")
        #expect(manifest.icons.first { $0.name == "home" }?.options?.jsonValue["shape"] == .string("circle"))
        #expect(manifest.icons.first { $0.name == "bell" }?.options?.jsonValue["filter"] == .string("box"))
        #expect(manifest.icons.first { $0.name == "search" }?.options == nil)

        // No config: the two go back to the run's options (redone), search stays untouched.
        #expect(BuildStep.cli(["-o", out, dir.path("icons")]) == .success)
        let fifth = BuildStep.stamps(dir)
        #expect(
            Set(fifth.keys.filter { fifth[$0] != fourth[$0] })
                == Set(
                    ["home", "bell"].flatMap { ["out/icons/\($0).png", "out/icons/\($0)@2x.png", "out/icons/\($0)@3x.png"] }
                        + ["out/manifest.json"]))
        manifest = try BuildStep.manifest(out + "/manifest.json")
        #expect(manifest.icons.allSatisfy { $0.options == nil })
    }

    @Test("preview makes each icon with its own settings, as normalize does; an input's own scales are not taken")
    func previewPerIcon() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png")])
        var inputs = BuildStep.batchInputs(dir, ["home.png", "bell.png"])
        inputs[0].settings = IconSettings(
            options: NormalizeOptions(box: IconBox(points: 30)!, scales: [5], shape: .circle),
            format: .webp(quality: 80))
        let document = PreviewRun(normalizer: Normalizer(options: NormalizeOptions(scales: [1, 2])), jobs: 1).run(inputs)
        #expect(document.icons.map { $0.renditions.map(\.pixelWidth) } == [[30, 60], [25, 50]])
        #expect(document.icons.map { $0.renditions.map { ImageFormat.sniff(Data($0.bytes)) } } == [[.webp, .webp], [.png, .png]])
        #expect(document.errors.isEmpty)

        // normalize: the same sizes, the run's scales, the icon's own fingerprint.
        let out = try TemporaryDirectory("out")
        let result = try BatchNormalizer(
            normalizer: Normalizer(options: NormalizeOptions(scales: [1, 2])),
            outputRoot: out.url, jobs: 1
        ).run(inputs)
        #expect(
            result.manifest.icons.map { $0.renditions?.map(\.path) ?? [] }
                == [["icons/home.webp", "icons/home@2x.webp"], ["icons/bell.png", "icons/bell@2x.png"]])
        #expect(result.manifest.icons[0].options?.jsonValue["scales"] == .array([.double(1), .double(2)]))
        #expect(result.manifest.icons[0].options?.jsonValue["quality"] == .double(80))
        #expect(result.manifest.icons[1].options == nil)
    }

    @Test("a per-icon format: its files take its extension, and names meet without it (Android)")
    func perIconFormat() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("home.webp", "heart-filled.webp"), ("bell.png", "bell.png")])
        let config = dir.path("tabicons.json")
        try Data(
            #"{"options": {"layout": "android", "scales": [1, 2]}, "icons": [{"match": "**/icons/home.png", "format": "webp"}]}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: config))
        let out = dir.path("res")
        #expect(
            BuildStep.cli(["--config", config, "-o", out, "--manifest", dir.path("manifest.json"), dir.path("icons")]) == .success
        )
        #expect(
            dir.files().filter { $0.hasPrefix("res/") } == [
                "res/drawable-mdpi/bell.png", "res/drawable-mdpi/home.webp", "res/drawable-mdpi/home_webp.png",
                "res/drawable-xhdpi/bell.png", "res/drawable-xhdpi/home.webp", "res/drawable-xhdpi/home_webp.png"
            ])
        let webp = try Data(contentsOf: URL(fileURLWithPath: dir.path("res/drawable-mdpi/home.webp")))
        #expect(ImageFormat.sniff(webp) == .webp)
        let manifest = try BuildStep.manifest(dir.path("manifest.json"))
        #expect(manifest.icons.first { $0.input.hasSuffix("home.png") }?.options?.jsonValue["format"] == .string("webp"))
        // The same run again: every icon carried over.
        let before = BuildStep.stamps(dir)
        #expect(
            BuildStep.cli(["--config", config, "-o", out, "--manifest", dir.path("manifest.json"), dir.path("icons")]) == .success
        )
        #expect(BuildStep.stamps(dir) == before)
    }
}

// MARK: the built binary, in a folder of its own

@Suite(
    "tabicon: ./tabicons.json",
    .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
struct DefaultConfigTests {
    /// Runs the built tabicon (its workers jailed) in `folder`; its exit status and stderr.
    static func run(_ arguments: [String], in folder: URL) throws -> (status: Int32, err: String) {
        let process = Process()
        process.executableURL = TabiconBinary.url
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errData, as: UTF8.self))
    }

    @Test("./tabicons.json is read when present, named in the summary; a pattern matching nothing is one warning")
    func defaultFile() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("logos/brand.png", "search-filled.png")])
        try Data(
            #"{"options": {"box": "compact"}, "icons": [{"match": "icons/logos/*", "box": 30}, {"match": "avatars/\u001bx/**"}]}"#
                .utf8
        )
        .write(to: dir.url.appendingPathComponent("tabicons.json"))
        let result = try Self.run(["normalize", "-o", "out", "icons"], in: dir.url)
        #expect(result.status == 0, "\(result.err)")
        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(lines.first == #"tabicon: warning: --config tabicons.json: icons[1] (match "avatars/\033x/**") matches no input"#)
        #expect(lines.filter { $0.contains("warning") }.count == 1)
        #expect(lines.last?.hasSuffix("; manifest: out/manifest.json; config: tabicons.json") == true, "\(lines)")
        let manifest = try BuildStep.manifest(dir.path("out/manifest.json"))
        #expect(manifest.box == 18)
        // The jailed worker made each icon with its own options.
        #expect(manifest.icons.map { $0.renditions?.map(\.pixelWidth) ?? [] } == [[18, 36, 54], [30, 60, 90]])
        #expect(manifest.icons.map { $0.options?.jsonValue["box"] } == [nil, .double(30)])

        // --config names another file: ./tabicons.json is not read.
        try Data(#"{"options": {"box": 40}}"#.utf8).write(to: dir.url.appendingPathComponent("other.json"))
        let other = try Self.run(["normalize", "--config", "other.json", "-o", "out2", "icons"], in: dir.url)
        #expect(other.status == 0)
        #expect(other.err.contains("; config: other.json\n"))
        #expect(try BuildStep.manifest(dir.path("out2/manifest.json")).box == 40)

        // Without the file, no config and no mention of one.
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("tabicons.json"))
        let none = try Self.run(["normalize", "-o", "out3", "icons"], in: dir.url)
        #expect(none.status == 0)
        #expect(!none.err.contains("config"))
        #expect(try BuildStep.manifest(dir.path("out3/manifest.json")).box == 25)
    }

    @Test("a broken ./tabicons.json is a usage error, for preview too")
    func brokenDefault() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        try Data("{".utf8).write(to: dir.url.appendingPathComponent("tabicons.json"))
        for arguments in [["normalize", "-o", "out", "icons"], ["preview", "-o", "page.html", "icons"]] {
            let result = try Self.run(arguments, in: dir.url)
            #expect(result.status == 2)
            #expect(result.err.hasPrefix("tabicon: --config tabicons.json is not JSON"), "\(result.err)")
        }
        #expect(dir.files() == ["icons/home.png", "tabicons.json"])
    }
}
