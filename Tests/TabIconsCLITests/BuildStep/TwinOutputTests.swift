import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing
import TabIcons
import TabIconsCore
import TabIconsNormalize
@testable import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// Twins as outputs (SPEC §6): where each layout writes a dark and a selected twin, and that those
/// files live in the output plan like any other (collisions, pruning, `--check`, reuse).
@Suite("twins as outputs")
struct TwinOutputTests {
    /// home with its selected twin, both with a dark twin, and search alone. The twins are other
    /// glyphs of TestImages (same 96 px size), so every file's bytes tell which input made it.
    static let set = [
        ("home.png", "home.png"), ("home-filled.png", "home-filled.png"), ("home-dark.png", "bell.png"),
        ("home-filled-dark.png", "heart.png"), ("search.png", "search.png")
    ]
    static var names: [String] { Self.set.map(\.0) }

    /// The batch API (in process), with the inputs it decoded.
    func run(
        _ dir: TemporaryDirectory, _ out: TemporaryDirectory, layout: OutputLayout, names: [String] = names,
        check: Bool = false
    ) throws -> (BatchResult, decoded: [String]) {
        var batch = BatchNormalizer(
            normalizer: Normalizer(options: NormalizeOptions(box: layout.defaultBox, scales: layout.defaultScales)),
            layout: layout, outputRoot: out.url, jobs: 2)
        batch.checkOnly = check
        let decoded = LockedState<[String]>([])
        let result = try batch.run(BuildStep.batchInputs(dir, names)) { event in
            if case .done(_, let name, _) = event { decoded.withLock { $0.append(String(name.dropFirst("icons/".count))) } }
        }
        return (result, decoded.withLock { $0 }.sorted())
    }

    static func json(_ out: TemporaryDirectory, _ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path(path)))) as? [String: Any])
    }

    /// (filename or nil, scale, dark?) of each image of a Contents.json, in its order.
    static func images(_ contents: [String: Any]) -> [(String?, String, Bool)] {
        (contents["images"] as? [[String: Any]] ?? []).map { image in
            let appearances = image["appearances"] as? [[String: String]]
            return (image["filename"] as? String, image["scale"] as? String ?? "?", appearances != nil)
        }
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("xcassets: a dark twin's renditions in its icon's image set, listed with the dark appearance; no set of its own")
    func xcassets() throws {
        let dir = try BuildStep.inputs(Self.set)
        let out = try TemporaryDirectory("out")
        // Through the CLI: jailed workers render, the batch makes Contents.json.
        #expect(BuildStep.cli(["--layout", "xcassets", dir.path("icons"), "-o", out.url.path]) == .success)
        #expect(out.files() == Self.expectedXcassets)

        let contents = try Self.json(out, "icons/home.imageset/Contents.json")
        let images = Self.images(contents)
        #expect(
            images.map(\.0) == ["home.png", "home-dark.png", "home@2x.png", "home-dark@2x.png", "home@3x.png", "home-dark@3x.png"]
        )
        #expect(images.map(\.1) == ["1x", "1x", "2x", "2x", "3x", "3x"])
        #expect(images.map(\.2) == [false, true, false, true, false, true])
        // Exactly Xcode's appearance entry, and the intent still in properties.
        let dark = try #require((contents["images"] as? [[String: Any]])?[1])
        #expect(dark["appearances"] as? [[String: String]] == [["appearance": "luminosity", "value": "dark"]])
        #expect(dark["idiom"] as? String == "universal")
        #expect((contents["properties"] as? [String: String]) == ["template-rendering-intent": "template"])
        // Every file named is in the set, and is the dark twin's rendition (bell's bytes, not home's).
        for name in images.compactMap(\.0) {
            #expect(FileManager.default.fileExists(atPath: out.path("icons/home.imageset/" + name)), "\(name)")
        }
        let manifest = try BuildStep.manifest(out.path("manifest.json"))
        let darkRow = try #require(manifest.icons.first { $0.input.hasSuffix("icons/home-dark.png") })
        #expect(
            darkRow.renditions?.map(\.path) == [
                "icons/home.imageset/home-dark.png", "icons/home.imageset/home-dark@2x.png",
                "icons/home.imageset/home-dark@3x.png"
            ])
        #expect(darkRow.contentsFile == nil)
        for rendition in darkRow.renditions ?? [] {
            #expect(ContentHash(of: [UInt8](try Self.bytes(out.path(rendition.path)))).description == rendition.hash)
        }
        let homeRow = try #require(manifest.icons.first { $0.input.hasSuffix("icons/home.png") })
        #expect(homeRow.darkTwin == dir.path("icons/home-dark.png") && homeRow.selectedTwin == dir.path("icons/home-filled.png"))
        #expect(
            homeRow.contentsFile?.hash
                == ContentHash(of: [UInt8](try Self.bytes(out.path("icons/home.imageset/Contents.json")))).description)
        // The selected twin's own set, with its own dark twin; search has no appearances.
        #expect(
            Self.images(try Self.json(out, "icons/home-filled.imageset/Contents.json")).compactMap(\.0)
                == [
                    "home-filled.png", "home-filled-dark.png", "home-filled@2x.png", "home-filled-dark@2x.png",
                    "home-filled@3x.png", "home-filled-dark@3x.png"
                ])
        #expect(Self.images(try Self.json(out, "icons/search.imageset/Contents.json")).map(\.2) == [false, false, false])
        // A rerun changes nothing, and --check agrees.
        let stamps = BuildStep.stamps(out)
        #expect(BuildStep.cli(["--layout", "xcassets", dir.path("icons"), "-o", out.url.path]) == .success)
        #expect(BuildStep.stamps(out) == stamps)
        #expect(BuildStep.cli(["--check", "--layout", "xcassets", dir.path("icons"), "-o", out.url.path]) == .success)
    }

    static let expectedXcassets: [String] = {
        var files = ["manifest.json", "manifest.json.stat-cache"]
        for set in ["home", "home-filled", "search"] {
            let stems = set == "search" ? [set] : [set, set + "-dark"]
            let names = ["Contents.json"] + stems.flatMap { [$0 + ".png", $0 + "@2x.png", $0 + "@3x.png"] }
            files += names.map { "icons/" + set + ".imageset/" + $0 }
        }
        return files.sorted()
    }()

    @Test("a dark twin with fewer renditions: its skipped scales are dark entries without a file")
    func darkTwinUndersized() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("home.dark.png", "rgba-32.png")])
        let out = try TemporaryDirectory("out")
        let (result, _) = try run(dir, out, layout: .xcassets, names: ["home.png", "home.dark.png"])
        #expect(result.counts.failed == 0)
        let images = Self.images(try Self.json(out, "icons/home.imageset/Contents.json"))
        // The file is named by the icon, whatever the twin's spelling (home.dark).
        #expect(images.map(\.0) == ["home.png", "home-dark.png", "home@2x.png", nil, "home@3x.png", nil])
        #expect(images.map(\.2) == [false, true, false, true, false, true])
        #expect(out.files().filter { $0.contains("-dark") } == ["icons/home.imageset/home-dark.png"])
        #expect(!out.files().contains { $0.contains("home.dark") })
    }

    @Test("flat: each file under its own name")
    func flat() throws {
        let dir = try BuildStep.inputs(Self.set)
        let out = try TemporaryDirectory("out")
        _ = try run(dir, out, layout: .flat)
        #expect(
            out.files()
                == (["manifest.json", "manifest.json.stat-cache"]
                + Self.names.flatMap { name -> [String] in
                    let stem = "icons/" + (name as NSString).deletingPathExtension
                    return [stem + ".png", stem + "@2x.png", stem + "@3x.png"]
                }).sorted())
    }

    @Test("android: the dark twin as drawable-night-<density>/NAME, the selected twin its drawable and a state list")
    func android() throws {
        let dir = try BuildStep.inputs(Self.set)
        let out = try TemporaryDirectory("res")
        #expect(
            BuildStep.cli(["--layout", "android", dir.path("icons"), "-o", out.url.path, "--manifest", out.path("manifest.json")])
                == .success)
        let densities = ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"]
        let expected =
            ["manifest.json", "manifest.json.stat-cache", "drawable/home_selector.xml"]
            + densities.flatMap { d in ["home", "home_filled", "search"].map { "drawable-\(d)/\($0).png" } }
            + densities.flatMap { d in ["home", "home_filled"].map { "drawable-night-\(d)/\($0).png" } }
        #expect(out.files() == expected.sorted())
        // The night drawable is the dark twin's rendition (bell's bytes), under the icon's name.
        let manifest = try BuildStep.manifest(out.path("manifest.json"))
        let darkRow = try #require(manifest.icons.first { $0.input.hasSuffix("icons/home-dark.png") })
        #expect(darkRow.renditions?.map(\.path) == densities.map { "drawable-night-\($0)/home.png" })
        #expect(
            darkRow.renditions?.first?.hash
                == ContentHash(of: [UInt8](try Self.bytes(out.path("drawable-night-mdpi/home.png")))).description)

        // The state list parses, says checked → the twin, else the icon, and names drawables that exist.
        let parsed = try StateList(Self.bytes(out.path("drawable/home_selector.xml")))
        #expect(
            parsed.items == [
                ["android:state_checked": "true", "android:drawable": "@drawable/home_filled"],
                ["android:drawable": "@drawable/home"]
            ])
        #expect(parsed.namespace == "http://schemas.android.com/apk/res/android")
        for item in parsed.items {
            let name = try #require(item["android:drawable"]).dropFirst("@drawable/".count)
            for d in densities { #expect(FileManager.default.fileExists(atPath: out.path("drawable-\(d)/\(name).png"))) }
        }
        let homeRow = try #require(manifest.icons.first { $0.input.hasSuffix("icons/home.png") })
        #expect(homeRow.selectorFile?.path == "drawable/home_selector.xml")
        #expect(manifest.icons.first { $0.input.hasSuffix("icons/home-filled.png") }?.selectorFile == nil)
        // Rerun: nothing rewritten; --check clean.
        let stamps = BuildStep.stamps(out)
        #expect(
            BuildStep.cli(["--layout", "android", dir.path("icons"), "-o", out.url.path, "--manifest", out.path("manifest.json")])
                == .success)
        #expect(BuildStep.stamps(out) == stamps)
        #expect(
            BuildStep.cli([
                "--check", "--layout", "android", dir.path("icons"), "-o", out.url.path, "--manifest", out.path("manifest.json")
            ]) == .success)
    }

    @Test("a twin removed: its files pruned, the icon's Contents.json rewritten without it, the icon not decoded")
    func twinRemoved() throws {
        let dir = try BuildStep.inputs(Self.set)
        let out = try TemporaryDirectory("out")
        _ = try run(dir, out, layout: .xcassets)
        try FileManager.default.removeItem(atPath: dir.path("icons/home-dark.png"))
        let names = Self.names.filter { $0 != "home-dark.png" }
        let (check, _) = try run(dir, out, layout: .xcassets, names: names, check: true)
        #expect(
            check.changes.map(\.description) == [
                "change icons/home.imageset/Contents.json",
                "remove icons/home.imageset/home-dark.png", "remove icons/home.imageset/home-dark@2x.png",
                "remove icons/home.imageset/home-dark@3x.png", "change \(out.path("manifest.json"))"
            ])
        let (result, decoded) = try run(dir, out, layout: .xcassets, names: names)
        #expect(decoded.isEmpty)
        #expect(result.counts.reused == 4 && result.counts.removed == 3 && result.counts.written == 1)
        #expect(!out.files().contains { $0.hasPrefix("icons/home.imageset/home-dark") })
        #expect(
            Self.images(try Self.json(out, "icons/home.imageset/Contents.json")).map(\.0) == [
                "home.png", "home@2x.png", "home@3x.png"
            ])
        let home = try #require(result.manifest.icons.first { $0.input == "icons/home.png" })
        #expect(home.darkTwin == nil)
        #expect(
            home.contentsFile?.hash
                == ContentHash(of: [UInt8](try Self.bytes(out.path("icons/home.imageset/Contents.json")))).description)
        #expect(try run(dir, out, layout: .xcassets, names: names, check: true).0.changes.isEmpty)
    }

    @Test("android: the selected twin removed takes its state list with it; the dark twin removed its night files")
    func androidTwinsRemoved() throws {
        let dir = try BuildStep.inputs(Self.set)
        let out = try TemporaryDirectory("res")
        _ = try run(dir, out, layout: .android)
        let (result, decoded) = try run(dir, out, layout: .android, names: ["home.png", "search.png"])
        #expect(decoded.isEmpty)
        #expect(result.counts.reused == 2 && result.counts.normalized == 0 && result.counts.failed == 0)
        #expect(
            out.files()
                == (["manifest.json", "manifest.json.stat-cache"]
                + ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"].flatMap { d in
                    ["home", "search"].map { "drawable-\(d)/\($0).png" }
                }).sorted())
        #expect(result.manifest.icons.allSatisfy { $0.selectorFile == nil && $0.selectedTwin == nil && $0.darkTwin == nil })
        // The folders tabicon made for them went too.
        #expect(!FileManager.default.fileExists(atPath: out.path("drawable")))
        #expect(!FileManager.default.fileExists(atPath: out.path("drawable-night-mdpi")))
    }

    @Test("a dark twin renamed (home-dark → home.dark): the same files, nothing rewritten but the manifest")
    func twinRenamed() throws {
        let dir = try BuildStep.inputs(Self.set)
        let out = try TemporaryDirectory("out")
        _ = try run(dir, out, layout: .xcassets)
        let before = try out.snapshot().filter { $0.key != "manifest.json" }
        let stamps = BuildStep.stamps(out).filter { $0.key != "manifest.json" }
        try FileManager.default.moveItem(atPath: dir.path("icons/home-dark.png"), toPath: dir.path("icons/home.dark.png"))
        let names = Self.names.map { $0 == "home-dark.png" ? "home.dark.png" : $0 }
        let (result, decoded) = try run(dir, out, layout: .xcassets, names: names)
        #expect(decoded == ["home.dark.png"])
        #expect(result.counts.reused == names.count - 1 && result.counts.normalized == 1)
        #expect(result.counts.removed == 0 && result.counts.written == 0)
        #expect(try out.snapshot().filter { $0.key != "manifest.json" } == before)
        #expect(BuildStep.stamps(out).filter { $0.key != "manifest.json" } == stamps)
        #expect(result.manifest.icons.first { $0.input == "icons/home.png" }?.darkTwin == "icons/home.dark.png")
    }

    @Test("only the dark twin changed: --check names its files alone; the rerun redoes it alone and keeps the icon's files")
    func onlyTwinChanged() throws {
        let dir = try BuildStep.inputs(Self.set)
        let out = try TemporaryDirectory("out")
        _ = try run(dir, out, layout: .xcassets)
        #expect(try run(dir, out, layout: .xcassets, check: true).0.isUpToDate)
        try BuildStep.put("profile.png", at: "icons/home-dark.png", in: dir)
        let (check, decoded) = try run(dir, out, layout: .xcassets, check: true)
        #expect(decoded == ["home-dark.png"])
        #expect(
            check.changes.map(\.description) == [
                "change icons/home.imageset/home-dark.png", "change icons/home.imageset/home-dark@2x.png",
                "change icons/home.imageset/home-dark@3x.png", "change \(out.path("manifest.json"))"
            ])
        #expect(BuildStep.cli(["--check", "--layout", "xcassets", dir.path("icons"), "-o", out.url.path]) == .someInputsFailed)
        let stamps = BuildStep.stamps(out)
        let (result, again) = try run(dir, out, layout: .xcassets)
        #expect(again == ["home-dark.png"])
        #expect(result.counts.reused == 4 && result.counts.written == 3)
        let after = BuildStep.stamps(out)
        // The icon's renditions and its Contents.json (still right: the same scales) are untouched.
        for file in ["home.png", "home@2x.png", "home@3x.png", "Contents.json"] {
            #expect(after["icons/home.imageset/" + file] == stamps["icons/home.imageset/" + file], "\(file)")
        }
        #expect(after["icons/home.imageset/home-dark.png"] != stamps["icons/home.imageset/home-dark.png"])
        #expect(try run(dir, out, layout: .xcassets, check: true).0.isUpToDate)
    }

    @Test("the dark twin changed so that it has fewer scales: the icon is carried over, its Contents.json rewritten")
    func twinChangedScales() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("home-dark.png", "bell.png")])
        let out = try TemporaryDirectory("out")
        _ = try run(dir, out, layout: .xcassets, names: ["home.png", "home-dark.png"])
        try BuildStep.put("rgba-32.png", at: "icons/home-dark.png", in: dir)
        let (result, decoded) = try run(dir, out, layout: .xcassets, names: ["home.png", "home-dark.png"])
        #expect(decoded == ["home-dark.png"])
        #expect(result.counts.reused == 1 && result.counts.removed == 2)
        #expect(result.changes.map(\.description).contains("write icons/home.imageset/Contents.json"))
        #expect(
            Self.images(try Self.json(out, "icons/home.imageset/Contents.json")).map(\.0)
                == ["home.png", "home-dark.png", "home@2x.png", nil, "home@3x.png", nil])
        #expect(try run(dir, out, layout: .xcassets, names: ["home.png", "home-dark.png"], check: true).0.isUpToDate)
    }

    @Test("the icon that gains a dark twin: the twin's own image set pruned, its files moved into the icon's set")
    func iconAppears() throws {
        let dir = try BuildStep.inputs([("home-dark.png", "bell.png")])
        let out = try TemporaryDirectory("out")
        _ = try run(dir, out, layout: .xcassets, names: ["home-dark.png"])
        #expect(out.files().contains("icons/home-dark.imageset/Contents.json"))
        try BuildStep.put("home.png", at: "icons/home.png", in: dir)
        _ = try run(dir, out, layout: .xcassets, names: ["home.png", "home-dark.png"])
        #expect(!out.files().contains { $0.hasPrefix("icons/home-dark.imageset") })
        #expect(!FileManager.default.fileExists(atPath: out.path("icons/home-dark.imageset")))
        #expect(out.files().contains("icons/home.imageset/home-dark@3x.png"))
    }

    @Test("android: an input named as an icon's state list fails with that icon, each naming the other")
    func selectorCollision() throws {
        let dir = try BuildStep.inputs([
            ("home.png", "home.png"), ("home-filled.png", "home-filled.png"), ("home_selector.png", "bell.png"),
            ("search.png", "search.png")
        ])
        let out = try TemporaryDirectory("res")
        let names = ["home-filled.png", "home.png", "home_selector.png", "search.png"]
        let (result, _) = try run(dir, out, layout: .android, names: names)
        let errors = Dictionary(uniqueKeysWithValues: result.manifest.errors.map { ($0.input, $0.message) })
        #expect(errors.keys.sorted() == ["icons/home.png", "icons/home_selector.png"])
        #expect(errors["icons/home.png"]?.contains("icons/home_selector.png") == true)
        #expect(errors["icons/home_selector.png"]?.contains("icons/home.png") == true)
        #expect(errors["icons/home.png"]?.contains("@drawable/home_selector") == true)
        #expect(result.manifest.icons.map(\.input).sorted() == ["icons/home-filled.png", "icons/search.png"])
        #expect(!out.files().contains { $0.hasPrefix("drawable/") || $0.contains("home_selector") })
    }

    @Test("xcassets: an input whose name is a dark twin's file name does not land on it")
    func darkFileNameTaken() throws {
        // home-dark.png is home's dark twin; "home.imageset" holds only home's files, so a folder
        // input icons/home.imageset/home-dark.png gets a set of its own, nested: no file meets.
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("home-dark.png", "bell.png"), ("home.dark.png", "heart.png")])
        let out = try TemporaryDirectory("out")
        let (result, _) = try run(dir, out, layout: .xcassets, names: ["home-dark.png", "home.dark.png", "home.png"])
        #expect(result.counts.failed == 0)
        // The first dark spelling is the twin; the other one is an icon of its own.
        #expect(result.manifest.icons.first { $0.input == "icons/home.png" }?.darkTwin == "icons/home-dark.png")
        #expect(out.files().contains("icons/home.dark.imageset/home.dark.png"))
        let hashes = try ["icons/home.imageset/home-dark.png", "icons/home.dark.imageset/home.dark.png"].map {
            ContentHash(of: [UInt8](try Self.bytes(out.path($0))))
        }
        #expect(hashes[0] != hashes[1])
    }

    @Test(
        "jailed workers render each twin, the batch makes the shared files: the same tree as in process",
        .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
    func jailed() throws {
        let dir = try BuildStep.inputs(Self.set)
        for layout in ["xcassets", "android"] {
            let jailed = try TemporaryDirectory("jailed"), inProcess = try TemporaryDirectory("in-process")
            let arguments = ["--layout", layout, dir.path("icons")]
            let process = Process()
            process.executableURL = TabiconBinary.url
            process.arguments = ["normalize", "-q", "-o", jailed.url.path, "--manifest", jailed.path("manifest.json")] + arguments
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(
                BuildStep.cli(["-o", inProcess.url.path, "--manifest", inProcess.path("manifest.json")] + arguments) == .success)
            let trees = try [jailed, inProcess].map { try $0.snapshot() }
            #expect(trees[0] == trees[1] && trees[0].count == (layout == "android" ? 28 : 20), "\(layout)")
        }
    }

    @Test("an icon that fails keeps its whole set: its dark twin is not written over the last good run's")
    func iconFails() throws {
        let dir = try BuildStep.inputs([
            ("home.png", "home.png"), ("home-dark.png", "bell.png"), ("home-filled.png", "home-filled.png")
        ])
        let out = try TemporaryDirectory("out")
        let names = ["home-dark.png", "home-filled.png", "home.png"]
        _ = try run(dir, out, layout: .xcassets, names: names)
        let before = try out.snapshot().filter { $0.key.hasPrefix("icons/home.imageset/") }
        #expect(before.count == 7)
        try Data("not an image".utf8).write(to: dir.url.appendingPathComponent("icons/home.png"))
        try BuildStep.put("profile.png", at: "icons/home-dark.png", in: dir)
        let (result, _) = try run(dir, out, layout: .xcassets, names: names)
        let errors = Dictionary(uniqueKeysWithValues: result.manifest.errors.map { ($0.input, $0) })
        #expect(errors.keys.sorted() == ["icons/home-dark.png", "icons/home.png"])
        #expect(errors["icons/home-dark.png"]?.code == "io")
        #expect(
            errors["icons/home-dark.png"]?.message == "not written: its files belong to its icon icons/home.png, which failed")
        #expect(
            errors["icons/home-dark.png"]?.keptFiles.map(\.path) == [
                "icons/home.imageset/home-dark.png",
                "icons/home.imageset/home-dark@2x.png", "icons/home.imageset/home-dark@3x.png"
            ])
        // The set is byte for byte the last good run's; the selected twin, on its own, was done.
        #expect(try out.snapshot().filter { $0.key.hasPrefix("icons/home.imageset/") } == before)
        #expect(result.manifest.icons.map(\.input) == ["icons/home-filled.png"])
        // Fixed: the set is whole again, with the new dark twin.
        try BuildStep.put("home.png", at: "icons/home.png", in: dir)
        let (fixed, decoded) = try run(dir, out, layout: .xcassets, names: names)
        #expect(fixed.manifest.errors.isEmpty && decoded == ["home-dark.png", "home.png"])
        #expect(try run(dir, out, layout: .xcassets, names: names, check: true).0.isUpToDate)
    }

    @Test("a dark twin has no twins: home-dark-filled is an icon of its own, home-filled-dark the selected icon's dark twin")
    func darkTwinHasNoTwins() throws {
        let names = [
            "home.png", "home-dark.png", "home-dark-filled.png", "home-dark-dark.png", "home-filled.png", "home-filled-dark.png"
        ]
        let links = IconTwins.links(names.map { (input: "icons/" + $0, name: ($0 as NSString).deletingPathExtension) })
        #expect(links.map(\.selected) == [4, nil, nil, nil, nil, nil])
        #expect(links.map(\.dark) == [1, nil, nil, nil, 5, nil])
        let dir = try BuildStep.inputs(names.map { ($0, "bell.png") })
        let out = try TemporaryDirectory("res")
        let (result, _) = try run(dir, out, layout: .android, names: names)
        #expect(result.counts.failed == 0)
        #expect(
            out.files().filter {
                $0.hasPrefix("drawable-mdpi/") || $0.hasPrefix("drawable-night-mdpi/") || $0.hasPrefix("drawable/")
            }
                == [
                    "drawable-mdpi/home.png", "drawable-mdpi/home_dark_dark.png", "drawable-mdpi/home_dark_filled.png",
                    "drawable-mdpi/home_filled.png", "drawable-night-mdpi/home.png", "drawable-night-mdpi/home_filled.png",
                    "drawable/home_selector.xml"
                ])
    }

    @Test("hostile names: a state list and a Contents.json that still parse and name files that exist")
    func hostileNames() throws {
        let name = "Tab&<x> \"q\\"
        let dir = try BuildStep.inputs([
            (name + ".png", "home.png"), (name + "-filled.png", "home-filled.png"), (name + ".dark.png", "bell.png")
        ])
        let res = try TemporaryDirectory("res")
        let names = [name + "-filled.png", name + ".dark.png", name + ".png"]
        let (android, _) = try run(dir, res, layout: .android, names: names)
        #expect(android.counts.failed == 0)
        let resource = "tab__x___q_"
        let list = try StateList(Self.bytes(res.path("drawable/\(resource)_selector.xml")))
        #expect(list.items.map { $0["android:drawable"] } == ["@drawable/\(resource)_filled", "@drawable/\(resource)"])
        #expect(FileManager.default.fileExists(atPath: res.path("drawable-night-xxhdpi/\(resource).png")))
        #expect(FileManager.default.fileExists(atPath: res.path("drawable-xxhdpi/\(resource)_filled.png")))

        let out = try TemporaryDirectory("out")
        let (xcassets, _) = try run(dir, out, layout: .xcassets, names: names)
        #expect(xcassets.counts.failed == 0)
        let set = "icons/\(name).imageset/"
        let images = Self.images(try Self.json(out, set + "Contents.json"))
        #expect(
            images.compactMap(\.0) == [
                name + ".png", name + "-dark.png", name + "@2x.png", name + "-dark@2x.png",
                name + "@3x.png", name + "-dark@3x.png"
            ])
        for file in images.compactMap(\.0) { #expect(FileManager.default.fileExists(atPath: out.path(set + file))) }
    }
}

/// A state list drawable read with Foundation's XMLParser: its root's namespace and each item's
/// attributes.
struct StateList {
    var namespace: String?
    var items: [[String: String]] = []

    init(_ data: Data) throws {
        let delegate = Delegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        guard delegate.root == "selector" else { throw CocoaError(.fileReadCorruptFile) }
        namespace = delegate.namespace
        items = delegate.items
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var root: String?
        var namespace: String?
        var items: [[String: String]] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil {
                root = name
                namespace = attributes["xmlns:android"]
            } else if name == "item" {
                items.append(attributes)
            }
        }
    }
}

/// Twins kept as vectors (`--vector`): a dark twin's SVG in its icon's vector image set as the
/// set's dark entry, or Android's `drawable-night/NAME.xml`; a selected twin its own set.
@Suite("twins as vector outputs")
struct VectorTwinOutputTests {
    static let set = [("house.svg", "house.svg"), ("house-fill.svg", "house-fill.svg"), ("house-dark.svg", "star.svg")]

    @Test("xcassets --vector: the dark twin's SVG is the single-scale set's dark entry; rerun and --check clean")
    func xcassets() throws {
        let dir = try BuildStep.inputs(Self.set)
        let out = try TemporaryDirectory("out")
        let arguments = ["--layout", "xcassets", "--vector", dir.path("icons"), "-o", out.url.path]
        #expect(BuildStep.cli(arguments) == .success)
        #expect(
            out.files().filter { $0.hasPrefix("icons/") } == [
                "icons/house-fill.imageset/Contents.json", "icons/house-fill.imageset/house-fill.svg",
                "icons/house.imageset/Contents.json", "icons/house.imageset/house-dark.svg", "icons/house.imageset/house.svg"
            ])
        let contents = try TwinOutputTests.json(out, "icons/house.imageset/Contents.json")
        let images = try #require(contents["images"] as? [[String: Any]])
        #expect(images.map { $0["filename"] as? String } == ["house.svg", "house-dark.svg"])
        #expect(images.map { $0["scale"] == nil } == [true, true])
        #expect(images[1]["appearances"] as? [[String: String]] == [["appearance": "luminosity", "value": "dark"]])
        #expect(images[0]["appearances"] == nil)
        let properties = try #require(contents["properties"] as? [String: Any])
        #expect(properties["preserves-vector-representation"] as? Bool == true)
        // The dark entry is the dark twin's drawing (star's), not the icon's.
        let dark = try String(contentsOfFile: out.path("icons/house.imageset/house-dark.svg"), encoding: .utf8)
        let light = try String(contentsOfFile: out.path("icons/house.imageset/house.svg"), encoding: .utf8)
        #expect(dark != light)
        let manifest = try BuildStep.manifest(out.path("manifest.json"))
        let darkRow = try #require(manifest.icons.first { $0.input.hasSuffix("house-dark.svg") })
        #expect(darkRow.vectorFile?.path == "icons/house.imageset/house-dark.svg" && darkRow.renditions == [])
        #expect(BuildStep.cli(["--check"] + arguments) == .success)
        // Without --vector the same set is PNGs again, the SVGs pruned.
        #expect(BuildStep.cli(["--layout", "xcassets", dir.path("icons"), "-o", out.url.path]) == .success)
        #expect(!out.files().contains { $0.hasSuffix(".svg") })
        #expect(out.files().contains("icons/house.imageset/house-dark@3x.png"))
    }

    @Test("android --vector: the dark twin is drawable-night/NAME.xml; the state list names both drawables")
    func android() throws {
        let dir = try BuildStep.inputs(Self.set)
        let out = try TemporaryDirectory("out")
        #expect(
            BuildStep.cli([
                "--layout", "android", "--vector", dir.path("icons"), "-o", out.url.path, "--manifest", out.path("manifest.json")
            ]) == .success)
        #expect(
            out.files().filter { $0.hasSuffix(".xml") } == [
                "drawable-night/house.xml", "drawable/house.xml", "drawable/house_fill.xml", "drawable/house_selector.xml"
            ])
        let night = try String(contentsOfFile: out.path("drawable-night/house.xml"), encoding: .utf8)
        #expect(night.hasPrefix("<vector") || night.contains("<vector "))
    }
}
