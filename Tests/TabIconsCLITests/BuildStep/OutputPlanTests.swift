import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// SPEC §6a "Planned before written" and "Inputs are sacred": every final path is known and
/// checked before the first write.
@Suite("Output plan")
struct OutputPlanTests {
    @Test("home.png beside home@2x.png: both fail naming each other, the same files and manifest for --jobs 1 and 4")
    func crossScaleCollision() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("home@2x.png", "search.png"), ("bell.png", "bell.png")])
        var results: [(TabIconCommand.ExitStatus, [String: Data])] = []
        for jobs in ["1", "4"] {
            let out = try TemporaryDirectory("out")
            results.append((BuildStep.cli(["--jobs", jobs, dir.path("icons"), "-o", out.url.path]), try out.snapshot()))
            let m = try BuildStep.manifest(out.path("manifest.json"))
            #expect(m.icons.map(\.name) == ["bell"])
            #expect(m.errors.map(\.input) == [dir.path("icons") + "/home.png", dir.path("icons") + "/home@2x.png"])
            #expect(m.errors.map(\.code) == ["io", "io"])
            #expect(
                m.errors[0].message
                    == "its output icons/home@2x.png is also an output of \(dir.path("icons"))/home@2x.png; rename one of them")
        }
        #expect(results[0].0 == .someInputsFailed && results[1].0 == .someInputsFailed)
        #expect(results[0].1 == results[1].1)
        #expect(
            results[0].1.keys.sorted() == [
                "icons/bell.png", "icons/bell@2x.png", "icons/bell@3x.png", "manifest.json", "manifest.json.stat-cache"
            ])
    }

    @Test(
        "names meeting at one path for one scale keep apart: the later input keeps its extension, the same for any --jobs",
        arguments: [
            (OutputLayout.android, ["a-b.png", "a_b.png"], ["a-b", "a_b-png"], "drawable-xhdpi/a_b_png.png"),
            (OutputLayout.flat, ["Home.png", "home.png"], ["Home", "home-png"], "icons/home-png@2x.png"),
            (OutputLayout.flat, ["home.png", "home.webp"], ["home", "home-webp"], "icons/home-webp@3x.png")
        ])
    func sameScaleCollision(layout: OutputLayout, names: [String], expected: [String], sample: String) throws {
        let dir = try BuildStep.inputs(names.enumerated().map { ($1, BuildStep.glyphs[$0]) })
        var snapshots: [[String: Data]] = []
        for jobs in [1, 4] {
            let out = try TemporaryDirectory("out")
            let batch = BatchNormalizer(
                normalizer: Normalizer(options: NormalizeOptions(box: layout.defaultBox, scales: layout.defaultScales)),
                layout: layout, outputRoot: out.url, jobs: jobs)
            let result = try batch.run(BuildStep.batchInputs(dir, names.sorted()))
            #expect(result.manifest.errors.isEmpty)
            #expect(result.manifest.icons.map(\.name) == expected)
            #expect(FileManager.default.fileExists(atPath: out.path(sample)), "\(sample)")
            let paths = result.manifest.icons.flatMap(\.ownedFiles).map { $0.path.lowercased() }
            #expect(Set(paths).count == paths.count)
            snapshots.append(try out.snapshot())
        }
        #expect(snapshots[0] == snapshots[1])
    }

    @Test("android is flat: icons from nested folders go straight into drawable-<density>/, a name met twice kept apart")
    func androidIsFlat() throws {
        let dir = try TemporaryDirectory("build-in")
        for (source, path) in [
            ("bell.png", "icons/bell.png"), ("home.png", "icons/tabs/home.png"),
            ("heart.png", "icons/tabs/deep/er/heart.png"), ("profile.png", "icons/more/home.png")
        ] {
            try BuildStep.put(source, at: path, in: dir)
        }
        let out = try TemporaryDirectory("out")
        #expect(
            BuildStep.cli(["--layout", "android", dir.path("icons"), "-o", out.url.path, "--manifest", out.path("manifest.json")])
                == .success)
        let files = try out.snapshot().keys.sorted()
        let folders = Set(files.filter { !$0.hasPrefix("manifest.json") }.map { OutputDirectory.split($0).folder })
        #expect(folders == ["drawable-mdpi", "drawable-hdpi", "drawable-xhdpi", "drawable-xxhdpi", "drawable-xxxhdpi"])
        let names = Set(files.filter { $0.hasPrefix("drawable-mdpi/") })
        #expect(
            names == ["drawable-mdpi/bell.png", "drawable-mdpi/heart.png", "drawable-mdpi/home.png", "drawable-mdpi/home_png.png"]
        )
        let manifest = try BuildStep.manifest(out.path("manifest.json"))
        #expect(manifest.errors.isEmpty)
        // Input order: the walk sorts, so icons/more/home.png comes before icons/tabs/home.png.
        let byInput = Dictionary(
            uniqueKeysWithValues: manifest.icons.map { (String($0.input.dropFirst(dir.path("icons").count + 1)), $0) })
        #expect(byInput["more/home.png"]?.renditions?.first?.path == "drawable-mdpi/home.png")
        #expect(byInput["tabs/home.png"]?.renditions?.first?.path == "drawable-mdpi/home_png.png")
    }

    @Test("scales that print alike are a usage error before any work")
    func scalesThatPrintAlike() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let out = try TemporaryDirectory("out")
        #expect(BuildStep.cli(["--scales", "2.01998,2.02002", dir.path("icons"), "-o", out.url.path]) == .usage)
        #expect(out.files().isEmpty)
        let batch = BatchNormalizer(
            normalizer: Normalizer(options: NormalizeOptions(scales: [1, 2.01998, 2.02002])), outputRoot: out.url)
        let error = try #require(throws: BatchUsageError.self) { try batch.run(BuildStep.batchInputs(dir, ["home.png"])) }
        #expect(error.description.hasPrefix("--scales 2.01998 and 2.02002 name the same file (icon@2.02x.png)"))
    }

    /// Each case runs in a fresh copy of `icons/{home,bell}.png`; `{d}` is that folder, `{s}` one
    /// beside it holding a FIFO and a symbolic link.
    @Test(
        "--out over the inputs or a manifest path that cannot be the manifest: exit 2, inputs byte-identical, nothing written",
        arguments: [
            ["-o", "{d}/icons", "{d}/icons/home.png"],
            ["-o", "{d}", "{d}/icons"],
            ["-o", "{d}/icons", "{d}/icons"],
            ["-o", "{d}/icons/../icons", "{d}/icons/"],
            ["-o", "{d}/out", "--manifest", "{d}/icons/bell.png", "{d}/icons"],
            ["-o", "{d}/out", "--manifest", "{d}/icons", "{d}/icons"],
            ["-o", "{d}/out", "--manifest", "/dev/null", "{d}/icons"],
            ["-o", "{d}/out", "--manifest", "/dev/stdout", "{d}/icons"],
            ["-o", "{d}/out", "--manifest", "{s}/fifo", "{d}/icons"],
            ["-o", "{d}/out", "--manifest", "{s}/link.json", "{d}/icons"],
            ["-o", "{d}/out", "--manifest", "{d}/out/icons/home.png", "{d}/icons"]
        ])
    func usageErrors(arguments: [String]) throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png")])
        let side = try TemporaryDirectory("side")
        #expect(mkfifo(side.path("fifo"), 0o600) == 0)
        try Data("{}".utf8).write(to: side.url.appendingPathComponent("real.json"))
        try FileManager.default.createSymbolicLink(atPath: side.path("link.json"), withDestinationPath: "real.json")
        let before = try dir.snapshot()
        let entries = BuildStep.allEntries(dir.url.path)
        #expect(
            BuildStep.cli(
                arguments.map {
                    $0.replacingOccurrences(of: "{d}", with: dir.url.path).replacingOccurrences(of: "{s}", with: side.url.path)
                }) == .usage)
        #expect(try dir.snapshot() == before)
        #expect(BuildStep.allEntries(dir.url.path) == entries)
        #expect(try String(contentsOfFile: side.path("real.json"), encoding: .utf8) == "{}")
    }

    @Test("a hard link to an input under --out is the input: refused by identity, not spelling")
    func hardLinkedInput() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let out = try TemporaryDirectory("out")
        try FileManager.default.createDirectory(atPath: out.path("icons"), withIntermediateDirectories: true)
        #expect(link(dir.path("icons/home.png"), out.path("icons/home@2x.png")) == 0)
        let before = try dir.snapshot()
        let batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url)
        let error = try #require(throws: BatchUsageError.self) { try batch.run(BuildStep.batchInputs(dir, ["home.png"])) }
        #expect(error.description.contains("over the input icons/home.png"))
        #expect(try dir.snapshot() == before)
        #expect(out.files() == ["icons/home@2x.png"])
    }

    @Test("--out inside the input tree is fine: it is never walked")
    func outInsideInputs() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        #expect(BuildStep.cli([dir.path("icons"), "-o", dir.path("icons/out")]) == .success)
        #expect(BuildStep.cli([dir.path("icons"), "-o", dir.path("icons/out")]) == .success)
        #expect(try BuildStep.manifest(dir.path("icons/out/manifest.json")).icons.map(\.name) == ["home"])
    }
}
