import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
@testable import TabIconsBatch
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// `--vector` through the batch (SPEC §6): the files each layout gets, the manifest's
/// `vectorFile`, fallbacks with their lint and PNGs, the output plan's incremental runs, pruning
/// and `--check`, in process and in the jailed worker alike.
@Suite("Vector outputs")
struct VectorOutputTests {
    /// Computed, not a `static let`: LeakSanitizer cannot see a global `Data`'s storage
    /// (scripts/lsan.supp says why).
    static var text: Data {
        Data(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"16\" height=\"16\" viewBox=\"0 0 16 16\"><text x=\"1\" y=\"12\">A</text></svg>"
                .utf8)
    }

    /// `icons/alarm.svg`, `icons/sub/house-fill.svg`, `icons/texty.svg` (text: falls back), `icons/bell.png` (a raster).
    static func inputs() throws -> (TemporaryDirectory, [BatchInput]) {
        let dir = try TemporaryDirectory("vector-in")
        let files: [(String, Data)] = [
            ("alarm.svg", try Fixtures.data(Fixtures.fixture("svg/vector/alarm.svg"))),
            ("sub/house-fill.svg", try Fixtures.data(Fixtures.fixture("svg/vector/house-fill.svg"))),
            ("texty.svg", text),
            ("bell.png", try Data(contentsOf: Fixtures.testImage("bell.png")))
        ]
        for (name, data) in files {
            let url = dir.url.appendingPathComponent("icons/" + name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return (dir, BuildStep.batchInputs(dir, files.map(\.0)))
    }

    static func batch(_ layout: OutputLayout, out: TemporaryDirectory, jailed: Bool = false) -> BatchNormalizer {
        let options = NormalizeOptions(box: layout.defaultBox, scales: layout.defaultScales)
        var batch = BatchNormalizer(normalizer: Normalizer(options: options), layout: layout, outputRoot: out.url, jobs: 2)
        batch.vector = true
        if jailed, let binary = TabiconBinary.url { batch.jail = WorkerJail(executable: binary.path) }
        return batch
    }

    @Test(
        "xcassets: NAME.imageset/NAME.svg with a single-scale Contents.json that preserves the vector and names the intent",
        arguments: [false, true])
    func xcassets(jailed: Bool) throws {
        let (inputFolder, inputs) = try Self.inputs()
        defer { withExtendedLifetime(inputFolder) {} }
        let out = try TemporaryDirectory("vector-xc")
        let result = try Self.batch(.xcassets, out: out, jailed: jailed).run(inputs)
        #expect(result.manifest.errors.isEmpty)
        #expect(
            out.files() == [
                "icons/alarm.imageset/Contents.json", "icons/alarm.imageset/alarm.svg",
                "icons/bell.imageset/Contents.json", "icons/bell.imageset/bell.png", "icons/bell.imageset/bell@2x.png",
                "icons/bell.imageset/bell@3x.png",
                "icons/sub/house-fill.imageset/Contents.json", "icons/sub/house-fill.imageset/house-fill.svg",
                "icons/texty.imageset/Contents.json", "icons/texty.imageset/texty.png", "icons/texty.imageset/texty@2x.png",
                "icons/texty.imageset/texty@3x.png",
                "manifest.json", "manifest.json.stat-cache"
            ])
        let contents = try String(
            contentsOf: out.url.appendingPathComponent("icons/alarm.imageset/Contents.json"), encoding: .utf8)
        #expect(
            contents == """
                {
                  "images": [
                    {"filename": "alarm.svg", "idiom": "universal"}
                  ],
                  "info": {"author": "tabicon", "version": 1},
                  "properties": {"preserves-vector-representation": true, "template-rendering-intent": "template"}
                }

                """)
        let svg = try Data(contentsOf: out.url.appendingPathComponent("icons/alarm.imageset/alarm.svg"))
        #expect(
            String(decoding: svg, as: UTF8.self).hasPrefix(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"25\" height=\"25\" viewBox=\"0 0 16 16\">"))
        let manifest = try BuildStep.manifest(out.path("manifest.json"))
        let alarm = try #require(manifest.icons.first { $0.name == "alarm" })
        #expect(alarm.renditions == [])
        #expect(
            alarm.vectorFile.map { [$0.path, String($0.bytes), $0.hash] } == [
                "icons/alarm.imageset/alarm.svg", String(svg.count), ContentHash(of: svg).description
            ])
        let texty = try #require(manifest.icons.first { $0.name == "texty" })
        #expect(texty.vectorFile == nil && texty.renditions?.count == 3)
        #expect(texty.lints.map(\.code).filter { !SetLints.codes.contains($0) } == [.svgText, .vectorFallback])
        #expect(texty.lints.first { $0.code == .vectorFallback }?.message == "kept as PNG renditions: the SVG cannot hold <text>")
        let bell = try #require(manifest.icons.first { $0.name == "bell" })
        #expect(bell.vectorFile == nil && bell.renditions?.count == 3)
    }

    @Test("android: drawable/NAME.xml beside the density folders of the rasters and fallbacks; flat: NAME.svg")
    func androidAndFlat() throws {
        let (inputFolder, inputs) = try Self.inputs()
        defer { withExtendedLifetime(inputFolder) {} }
        let android = try TemporaryDirectory("vector-android")
        _ = try Self.batch(.android, out: android).run(inputs)
        let files = android.files()
        #expect(files.filter { $0.hasPrefix("drawable/") } == ["drawable/alarm.xml", "drawable/house_fill.xml"])
        #expect(files.filter { $0.hasPrefix("drawable-mdpi/") } == ["drawable-mdpi/bell.png", "drawable-mdpi/texty.png"])
        let xml = try String(contentsOf: android.url.appendingPathComponent("drawable/alarm.xml"), encoding: .utf8)
        #expect(xml.contains("android:width=\"24dp\"") && xml.contains("android:viewportWidth=\"16\""))
        let flat = try TemporaryDirectory("vector-flat")
        _ = try Self.batch(.flat, out: flat).run(inputs)
        #expect(flat.files().filter { $0.hasSuffix(".svg") } == ["icons/alarm.svg", "icons/sub/house-fill.svg"])
    }

    @Test(
        "a second run reuses every icon; --check agrees; turning --vector off replaces the vectors by PNGs and prunes them; on again, back"
    )
    func incremental() throws {
        let (inputFolder, inputs) = try Self.inputs()
        defer { withExtendedLifetime(inputFolder) {} }
        let out = try TemporaryDirectory("vector-incremental")
        var batch = Self.batch(.android, out: out)
        _ = try batch.run(inputs)
        let before = BuildStep.stamps(out)
        let again = try batch.run(inputs)
        #expect(again.counts.reused == 4)
        #expect(BuildStep.stamps(out).filter { $0.key != "manifest.json" } == before.filter { $0.key != "manifest.json" })
        batch.checkOnly = true
        #expect(try batch.run(inputs).changes.isEmpty)
        batch.checkOnly = false
        batch.vector = false
        let off = try batch.run(inputs)
        #expect(off.counts.reused == 0)
        #expect(!out.files().contains { $0.hasPrefix("drawable/") })
        #expect(out.files().contains("drawable-mdpi/alarm.png"))
        batch.vector = true
        _ = try batch.run(inputs)
        #expect(out.files().contains("drawable/alarm.xml") && !out.files().contains("drawable-mdpi/alarm.png"))
    }

    @Test("a vector path meets another output by the naming rule: home.svg's vector and a flat home.svg input's are told apart")
    func collisions() throws {
        let dir = try TemporaryDirectory("vector-collide")
        let svg = try Fixtures.data(Fixtures.fixture("svg/vector/alarm.svg"))
        for name in ["icons/home.svg", "icons/Home.svgz"] {
            let url = dir.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try svg.write(to: url)
        }
        let inputs = BuildStep.batchInputs(dir, ["home.svg", "Home.svgz"])
        let out = try TemporaryDirectory("vector-collide-out")
        let result = try Self.batch(.flat, out: out).run(inputs)
        #expect(result.manifest.icons.compactMap(\.vectorFile?.path) == ["icons/home.svg", "icons/Home-svgz.svg"])
    }

    @Test("the preview page shows an icon kept as an SVG by that SVG at each scale (a VectorDrawable not)")
    func preview() throws {
        let (inputFolder, inputs) = try Self.inputs()
        defer { withExtendedLifetime(inputFolder) {} }
        let out = try TemporaryDirectory("vector-preview")
        let result = try Self.batch(.xcassets, out: out).run(inputs)
        let document = PreviewDocument(manifest: result.manifest, render: .auto, outputRoot: out.url)
        let alarm = try #require(document.icons.first { $0.entry.name == "alarm" })
        let svg = try [UInt8](Data(contentsOf: out.url.appendingPathComponent("icons/alarm.imageset/alarm.svg")))
        #expect(
            alarm.renditions.map { [$0.scale, Double($0.pixelWidth), Double($0.pixelHeight)] } == [
                [1, 25, 25], [2, 50, 50], [3, 75, 75]
            ])
        #expect(alarm.renditions.allSatisfy { $0.bytes == svg } && alarm.unreadable.isEmpty)
        #expect(PreviewHTML.dataURL(svg).hasPrefix("data:image/svg+xml;base64,"))
        let android = try TemporaryDirectory("vector-preview-android")
        let androidResult = try Self.batch(.android, out: android).run(inputs)
        let androidDocument = PreviewDocument(manifest: androidResult.manifest, render: .auto, outputRoot: android.url)
        // Read back alone, a VectorDrawable shows nothing: `showingVectorDrawables` makes its SVG.
        #expect(androidDocument.icons.first { $0.entry.name == "alarm" }?.renditions.isEmpty == true)
    }

    @Test(
        "android --vector: the page shows each VectorDrawable (and its dark twin) by the SVG flat --vector writes, writing nothing more",
        arguments: [false, true])
    func previewVectorDrawable(jailed: Bool) throws {
        if jailed && TabiconBinary.url == nil { return }
        let (inputFolder, inputs) = try Self.inputs()
        defer { withExtendedLifetime(inputFolder) {} }
        // A dark twin kept as a vector too: drawable-night/alarm.xml.
        let darkURL = inputFolder.url.appendingPathComponent("icons/alarm-dark.svg")
        try Fixtures.data(Fixtures.fixture("svg/vector/house-fill.svg")).write(to: darkURL)
        let all = inputs + BuildStep.batchInputs(inputFolder, ["alarm-dark.svg"])
        let android = try TemporaryDirectory("vector-preview-vd")
        let batch = Self.batch(.android, out: android, jailed: jailed)
        let result = try batch.run(all)
        let written = android.files()
        #expect(written.contains("drawable/alarm.xml") && written.contains("drawable-night/alarm.xml"), "\(written)")
        let document = PreviewDocument(manifest: result.manifest, render: .auto, outputRoot: android.url)
            .showingVectorDrawables(all, run: batch.previewRun)
        #expect(android.files() == written)  // the SVG forms are made in memory only

        // What `--layout flat --vector` writes for the same inputs and options.
        let flat = try TemporaryDirectory("vector-preview-flat")
        var flatBatch = Self.batch(.android, out: flat)
        flatBatch.layout = .flat
        let flatResult = try flatBatch.run(all)
        for (name, input) in [("alarm", "icons/alarm.svg"), ("alarm-dark", "icons/alarm-dark.svg")] {
            let flatEntry = try #require(flatResult.manifest.icons.first { $0.input == input })
            let svg = try [UInt8](Data(contentsOf: flat.url.appendingPathComponent(try #require(flatEntry.vectorFile).path)))
            let icon = try #require(document.icons.first { $0.entry.input == input }, "\(name)")
            #expect(icon.entry.vectorFile?.path.hasSuffix(".xml") == true)
            #expect(icon.renditions.count == 5 && icon.renditions.allSatisfy { $0.bytes == svg }, "\(name)")
            #expect(icon.renditions.map(\.pixelWidth) == [24, 36, 48, 72, 96])
            #expect(icon.vectorDrawable == icon.entry.vectorFile?.path)
        }
        // A raster and a fallback keep their PNGs and no note.
        #expect(document.icons.filter { $0.vectorDrawable == nil }.map(\.entry.name).sorted() == ["bell", "texty"])

        let html = PreviewPage.html(document)
        let svg = try [UInt8](
            Data(
                contentsOf: flat.url.appendingPathComponent(
                    try #require(flatResult.manifest.icons.first { $0.input == "icons/alarm.svg" }?.vectorFile).path)))
        #expect(html.contains(PreviewHTML.dataURL(svg)))
        #expect(PreviewHTML.dataURL(svg).hasPrefix("data:image/svg+xml;base64,"))
        // Decoded back from the page, the URL is that SVG.
        let prefix = "data:image/svg+xml;base64,"
        let urls = html.components(separatedBy: prefix).dropFirst().map {
            String($0.prefix { $0 != "\"" && $0 != ")" && $0 != "'" })
        }
        #expect(urls.contains { Data(base64Encoded: $0).map([UInt8].init) == svg })
        #expect(html.contains("Android draws the VectorDrawable written at <code>drawable/alarm.xml</code>"))
        #expect(html.contains("Android draws the VectorDrawable written at <code>drawable-night/alarm.xml</code>"))
        // The dark twin is shown in the dark bars.
        let tabs = PreviewTab.pair(document.icons)
        let tab = try #require(tabs.first { document.icons[$0.icon].entry.name == "alarm" })
        let dark = try #require(tab.dark)
        #expect(tab.image(selected: false, dark: true) == dark && !document.icons[dark].renditions.isEmpty)
    }

    @Test("the manifest's vectorFile reads back as it was written")
    func manifestRoundTrip() throws {
        let (inputFolder, inputs) = try Self.inputs()
        defer { withExtendedLifetime(inputFolder) {} }
        let out = try TemporaryDirectory("vector-manifest")
        let result = try Self.batch(.xcassets, out: out).run(inputs)
        let read = try Manifest(parsing: result.manifest.jsonData())
        #expect(read == result.manifest)
    }
}

/// A worker's reply is checked against its request for vectors too: a vector only where one was
/// asked for and never beside renditions; the batch places it at the plan's vector path.
@Suite("Vector outputs: worker replies checked")
struct VectorWorkerReplyTests {
    static let plan = OutputPlan.Icon(
        stem: "icons/alarm", renditionPaths: [(1, "icons/alarm.imageset/alarm.png")],
        contentsPath: "icons/alarm.imageset/Contents.json", vectorPath: "icons/alarm.imageset/alarm.svg")
    static let work = RenderedIcon.Work.render(.png, vector: .svg)

    static func reply(asked: RenderedIcon.Work, forge: (inout RenderedIcon) -> Void = { _ in }) throws -> Result<
        WorkerReply, WorkerWire.Malformed
    > {
        let data = try Fixtures.data(Fixtures.fixture("svg/vector/alarm.svg"))
        let options = NormalizeOptions(scales: [1])
        var icon = try RenderedIcon.make(data, normalizer: Normalizer(options: options), work: work)
        forge(&icon)
        let request = WorkerRequest(options: options, work: asked, data: data)
        return Result { () throws(WorkerWire.Malformed) in
            try WorkerWireTests.decode(WorkerReply.rendered(icon).encoded, request)
        }
    }

    @Test("the honest reply passes and its vector lands at the plan's vector path")
    func honest() throws {
        guard case .success(.rendered(let icon)) = try Self.reply(asked: Self.work) else { Issue.record("refused"); return }
        let (row, files) = icon.row(
            input: "icons/alarm.svg", plan: Self.plan, contentHash: ContentHash(of: Data()), planOnly: false)
        #expect(row.vectorFile?.path == "icons/alarm.imageset/alarm.svg" && row.renditions == [])
        #expect(files.map(\.path) == ["icons/alarm.imageset/alarm.svg"])
        #expect(row.vectorFile?.hash == ContentHash(of: files[0].bytes).description)
    }

    @Test("refused: a vector where none was asked for, or beside renditions")
    func forged() throws {
        guard case .failure = try Self.reply(asked: .render(.png, vector: nil)) else {
            Issue.record("accepted a vector none was asked for"); return
        }
        guard case .failure = try Self.reply(asked: .plan()) else { Issue.record("accepted a vector for inspect"); return }
        let both = try Self.reply(asked: Self.work) { icon in
            icon.renditions = [.init(scale: 1, pixelWidth: 25, pixelHeight: 25, bytes: [1])]
        }
        guard case .failure = both else { Issue.record("accepted a vector beside renditions"); return }
    }
}
