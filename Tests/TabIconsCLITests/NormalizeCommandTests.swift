import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport

/// `tabicon normalize` end to end, in process: what a user of the CLI relies on.
@Suite("tabicon normalize")
struct NormalizeCommandTests {
    /// Copies TestImages (and optionally some broken corpus files) into a fresh input tree.
    func makeInputs(broken: [String] = []) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("inputs")
        let icons = dir.url.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        for name in ["home.png", "search-filled.png", "avatar-exif6.jpg", "heart-filled.webp", "rgba16-32.png"] {
            try FileManager.default.copyItem(at: Fixtures.testImage(name), to: icons.appendingPathComponent(name))
        }
        for path in broken {
            let url = Fixtures.corpus(path)
            try FileManager.default.copyItem(at: url, to: icons.appendingPathComponent("broken-" + url.lastPathComponent))
        }
        return dir
    }

    func run(_ arguments: [String]) -> TabIconCommand.ExitStatus {
        SilentCLI.run(arguments)
    }

    func manifest(_ url: URL) throws -> Manifest {
        try Manifest(parsing: Data(contentsOf: url))
    }

    @Test("a clean batch exits 0 and writes 1x/2x/3x per icon with a manifest naming them")
    func cleanBatch() throws {
        let inputs = try makeInputs()
        let out = try TemporaryDirectory("out")
        let status = run(["normalize", "-q", inputs.path("icons"), "-o", out.url.path])
        #expect(status == .success)
        let m = try manifest(out.url.appendingPathComponent("manifest.json"))
        #expect(m.errors.isEmpty)
        #expect(m.box == 25 && m.scales == [1, 2, 3] && m.version == 1)
        let home = try #require(m.icons.first { $0.name == "home" })
        #expect(home.input == inputs.path("icons") + "/home.png")
        #expect(home.pixelWidth == 96 && home.decodeScale == 3.84 && home.pointWidth == 25)
        #expect(home.renditions?.map(\.path) == ["icons/home.png", "icons/home@2x.png", "icons/home@3x.png"])
        #expect(home.renditions?.map(\.pixelWidth) == [25, 50, 75])
        for rendition in home.renditions ?? [] {
            let bytes = try Data(contentsOf: out.url.appendingPathComponent(rendition.path))
            #expect(bytes.count == rendition.bytes)
            #expect(ContentHash(of: bytes).description == rendition.hash)
            let decoded = try ImageDecoder.decode(bytes)
            #expect(decoded.bitmap.width == rendition.pixelWidth && decoded.bitmap.height == rendition.pixelHeight)
        }
        // The 32 px 16-bit file is smaller than 2x and 3x: skipped and reported, never upscaled.
        let small = try #require(m.icons.first { $0.name == "rgba16-32" })
        #expect(small.renditions?.map(\.pixelWidth) == [25])
        #expect(small.lints.contains { $0.code == .undersized })
        // The EXIF-6 avatar is reported after orientation.
        let avatar = try #require(m.icons.first { $0.name == "avatar-exif6" })
        #expect(avatar.orientation == 6 && avatar.format == "jpeg")
    }

    @Test(
        "broken files in a batch: exit 1, every good icon written, errors listed, no temporary file, inputs untouched",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func brokenFilesMixedIn() throws {
        let inputs = try makeInputs(broken: [
            "pngsuite/xcrn0g04.png", "bad/libpng-crashers/huge_IDAT.png",
            "pngsuite/xs1n0g01.png"
        ])
        let before = try inputs.snapshot()
        let out = try TemporaryDirectory("out")
        let status = run(["normalize", "-q", inputs.path("icons"), "-o", out.url.path])
        #expect(status == .someInputsFailed)
        let m = try manifest(out.url.appendingPathComponent("manifest.json"))
        #expect(m.icons.count == 5)
        #expect(
            Set(m.errors.map { ($0.input as NSString).lastPathComponent })
                == ["broken-xcrn0g04.png", "broken-huge_IDAT.png", "broken-xs1n0g01.png"])
        #expect(m.errors.allSatisfy { !$0.message.isEmpty && TabIconsError.Code(rawValue: $0.code) != nil })
        let written = out.files()
        #expect(!written.contains { $0.contains(".tmp") || $0.hasPrefix(".") || $0.contains("/.") })
        #expect(!written.contains { $0.contains("broken") })
        for icon in m.icons { for r in icon.renditions ?? [] { #expect(written.contains(r.path)) } }
        #expect(try inputs.snapshot() == before)
    }

    @Test("outputs are byte-identical across runs and across --jobs 1 and --jobs 4")
    func determinism() throws {
        let inputs = try makeInputs()
        var snapshots: [[String: Data]] = []
        for jobs in ["1", "4", "4"] {
            let out = try TemporaryDirectory("out")
            #expect(run(["normalize", "-q", "--jobs", jobs, inputs.path("icons"), "-o", out.url.path]) == .success)
            snapshots.append(try out.snapshot())
        }
        #expect(snapshots[0].count > 10)
        #expect(snapshots[0] == snapshots[1])
        #expect(snapshots[1] == snapshots[2])
    }

    @Test("xcassets: an imageset per icon whose Contents.json names each file with its scale")
    func xcassetsLayout() throws {
        let inputs = try makeInputs()
        let out = try TemporaryDirectory("out")
        #expect(
            run([
                "normalize", "-q", "--layout", "xcassets", "--render", "template", inputs.path("icons"),
                "-o", out.url.path
            ]) == .success)
        let contents = out.url.appendingPathComponent("icons/home.imageset/Contents.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: contents)) as? [String: Any])
        let images = try #require(json["images"] as? [[String: String]])
        #expect(images.map { $0["scale"] } == ["1x", "2x", "3x"])
        #expect(images.map { $0["filename"] } == ["home.png", "home@2x.png", "home@3x.png"])
        #expect((json["properties"] as? [String: String])?["template-rendering-intent"] == "template")
        for name in ["home.png", "home@2x.png", "home@3x.png"] {
            #expect(FileManager.default.fileExists(atPath: out.path("icons/home.imageset/" + name)))
        }
    }

    @Test("xcassets: every Contents.json names its intent, decided per icon by default, as the manifest records it")
    func contentsIntentAlwaysExplicit() throws {
        let inputs = try makeInputs()
        func intents(_ extra: [String]) throws -> (contents: [String: String], manifest: [String: String]) {
            let out = try TemporaryDirectory("out")
            #expect(
                run(["normalize", "-q", "--layout", "xcassets"] + extra + [inputs.path("icons"), "-o", out.url.path]) == .success)
            var contents: [String: String] = [:], recorded: [String: String] = [:]
            for icon in try manifest(out.url.appendingPathComponent("manifest.json")).icons {
                let url = out.url.appendingPathComponent("icons/\(icon.name).imageset/Contents.json")
                let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
                contents[icon.name] = (json["properties"] as? [String: String])?["template-rendering-intent"]
                recorded[icon.name] = icon.intent?.rawValue
            }
            return (contents, recorded)
        }
        let auto = try intents([])
        #expect(auto.contents.count == 5)
        #expect(auto.contents["home"] == "template")
        #expect(auto.contents["avatar-exif6"] == "original")
        #expect(auto.contents == auto.manifest)
        let original = try intents(["--render", "original"])
        #expect(original.contents.values.allSatisfy { $0 == "original" } && original.contents.count == 5)
        #expect(original.contents == original.manifest)
        let luminance = try intents(["--render", "template-luminance"])
        #expect(luminance.contents.values.allSatisfy { $0 == "template" } && luminance.contents.count == 5)
    }

    @Test("android: drawable-mdpi..xxxhdpi hold 24, 36, 48, 72, 96 px renditions of the 24 dp box")
    func androidLayout() throws {
        let inputs = try makeInputs()
        let out = try TemporaryDirectory("out")
        #expect(
            run([
                "normalize", "-q", "--layout", "android", "--format", "webp", inputs.path("icons"),
                "-o", out.url.path, "--manifest", out.path("manifest.json")
            ]) == .success)
        let expected = [
            ("drawable-mdpi", 24), ("drawable-hdpi", 36), ("drawable-xhdpi", 48),
            ("drawable-xxhdpi", 72), ("drawable-xxxhdpi", 96)
        ]
        for (folder, side) in expected {
            let bytes = try Data(contentsOf: out.url.appendingPathComponent("\(folder)/search_filled.webp"))
            let image = try ImageDecoder.decode(bytes)
            #expect(image.info.format == .webp)
            #expect(image.bitmap.width == side && image.bitmap.height == side)
        }
    }

    @Test("an output folder inside the input tree is not walked as input")
    func outputInsideInput() throws {
        let inputs = try makeInputs()
        let out = inputs.path("icons/out")
        #expect(run(["normalize", "-q", inputs.path("icons"), "-o", out]) == .success)
        #expect(run(["normalize", "-q", inputs.path("icons"), "-o", out]) == .success)
        let m = try manifest(URL(fileURLWithPath: out).appendingPathComponent("manifest.json"))
        #expect(m.icons.count == 5)
    }

    @Test("--padding: 10% of the box around each glyph, in the option fingerprint, so changing it redoes every icon")
    func paddingEndToEnd() throws {
        let inputs = try makeInputs()
        let out = try TemporaryDirectory("out")
        #expect(run(["normalize", "-q", "--padding", "10%", inputs.path("icons"), "-o", out.url.path]) == .success)
        let padded = try manifest(out.url.appendingPathComponent("manifest.json"))
        let home = try #require(padded.icons.first { $0.name == "home" })
        #expect(home.renditions?.map { [$0.pixelWidth, $0.pixelHeight] } == [[25, 25], [50, 50], [75, 75]])
        #expect(home.pointWidth == 25)
        #expect(padded.options?.jsonValue["padding"]?.stringValue == "10%")
        let before = try Data(contentsOf: out.url.appendingPathComponent("icons/home@3x.png"))
        #expect(run(["normalize", "-q", "--padding", "2", inputs.path("icons"), "-o", out.url.path]) == .success)
        let after = try Data(contentsOf: out.url.appendingPathComponent("icons/home@3x.png"))
        #expect(before != after)
        #expect(try manifest(out.url.appendingPathComponent("manifest.json")).options?.jsonValue["padding"]?.stringValue == "2")
    }

    @Test(
        "usage mistakes exit 2",
        arguments: [
            ["normalize"], ["normalize", "--layout", "grid", "x"], ["normalize", "--quality", "50", "x"],
            ["normalize", "--format", "webp", "--quality", "101", "x"], ["normalize", "--jobs", "0", "x"],
            ["normalize", "--scales", "1,zero", "x"], ["normalize", "--box", "-4", "x"],
            ["normalize", "--layout", "android", "--scales", "5", "x"], ["frobnicate"], [],
            ["normalize", "--padding", "ten", "x"], ["normalize", "--padding", "50%", "x"], ["normalize", "--padding", "-1", "x"]
        ])
    func usageErrors(arguments: [String]) {
        #expect(run(arguments) == .usage)
    }
}

/// The whole batch path (reading, the memory budget's header estimate, decoding, normalizing,
/// writing) over every broken file nobody here made: it must end, with every input accounted for.
@Suite("tabicon normalize over the broken corpus")
struct NormalizeBrokenCorpusTests {
    @Test(
        "every file in ../shared/corpus/bad becomes an icon or a coded error; exit 1; nothing partial",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func brokenCorpus() throws {
        let bad = Fixtures.corpus("bad")
        let files = try FileManager.default.subpathsOfDirectory(atPath: bad.path).filter { path in
            ["png", "jpg", "jpeg", "webp"].contains((path as NSString).pathExtension.lowercased())
        }
        #expect(files.count > 60)
        let out = try TemporaryDirectory("out")
        #expect(SilentCLI.run(["normalize", "-q", bad.path, "-o", out.url.path]) == .someInputsFailed)
        let m = try Manifest(parsing: Data(contentsOf: out.url.appendingPathComponent("manifest.json")))
        #expect(m.icons.count + m.errors.count == files.count)
        #expect(m.errors.allSatisfy { TabIconsError.Code(rawValue: $0.code) != nil && !$0.message.isEmpty })
        let written = Set(out.files())
        #expect(!written.contains { $0.hasSuffix(".tmp") })
        for icon in m.icons { for r in icon.renditions ?? [] { #expect(written.contains(r.path)) } }
    }
}
