import Foundation
import Testing
import TabIcons  // not @testable, and this target has no `package` access (Package.swift):
import TabIconsBatch  // only what a Swift build tool linking the product can call

/// A build tool's use of `TabIconsBatch`, through its public API alone: collect a folder as
/// `tabicon` does, run the batch into an output folder, read the manifest back, run again.
@Suite("The batch's front door (a build tool)")
struct BatchFrontDoorTests {
    /// The package's `TestImages/`, found from this file's path.
    static let testImages = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestImages")

    /// A fresh folder holding `icons/home.png`, `icons/search.png`, `icons/tabs/house.svg`, and
    /// what the walk must pass over: a hidden image, a text file, a link to a folder.
    final class Workspace {
        let root: URL
        var icons: String { root.appendingPathComponent("icons").path }

        init() throws {
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("tabicons-frontdoor-\(UUID().uuidString)", isDirectory: true)
            let files = FileManager.default
            try files.createDirectory(at: root.appendingPathComponent("icons/tabs"), withIntermediateDirectories: true)
            for (from, to) in [
                ("home.png", "icons/home.png"), ("search.png", "icons/search.png"),
                ("house.svg", "icons/tabs/house.svg"), ("bell.png", "icons/.hidden.png")
            ] {
                try files.copyItem(
                    at: BatchFrontDoorTests.testImages.appendingPathComponent(from),
                    to: root.appendingPathComponent(to))
            }
            try Data("not an icon".utf8).write(to: root.appendingPathComponent("icons/notes.txt"))
            // A link back up the tree: not followed, so no icon is listed twice.
            try files.createSymbolicLink(atPath: root.appendingPathComponent("icons/tabs/up").path, withDestinationPath: "..")
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// Every regular file below `folder`, relative and sorted.
        func files(below folder: URL) -> [String] {
            let base = folder.resolvingSymlinksInPath().path
            guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
            var found: [String] = []
            while let relative = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                {
                    found.append(relative)
                }
            }
            return found.sorted()
        }
    }

    /// What a build tool writes: collect, then run the batch with the collection's folders and
    /// failures.
    static func run(_ paths: [String], out: URL, layout: OutputLayout, check: Bool = false) throws -> BatchResult {
        let options = NormalizeOptions(box: layout.defaultBox, scales: layout.defaultScales)
        let collected = InputCollector.collect(paths, excluding: out)
        var batch = BatchNormalizer(
            normalizer: Normalizer(options: options), layout: layout, format: .png,
            outputRoot: out, jobs: 2)
        batch.inputFolders = collected.folders
        batch.checkOnly = check
        return try batch.run(collected.batchInputs(limit: options.limits.maxInputBytes), priorErrors: collected.errors)
    }

    @Test(
        "the collection walks a folder as tabicon does: sorted, hidden files, other extensions and links to folders passed over")
    func collect() throws {
        let workspace = try Workspace()
        let missing = workspace.root.appendingPathComponent("missing.png").path
        let collected = InputCollector.collect([workspace.icons, missing])
        #expect(
            collected.inputs.map(\.displayName) == ["home.png", "search.png", "tabs/house.svg"].map { workspace.icons + "/" + $0 }
        )
        #expect(collected.inputs.map(\.outputStem) == ["icons/home", "icons/search", "icons/tabs/house"])
        #expect(collected.inputs.map(\.name) == ["home", "search", "house"])
        #expect(collected.folders == [workspace.icons])
        #expect(collected.errors.map(\.input) == [missing])
        #expect(collected.errors.map(\.code) == ["io"])
        #expect(collected.errors.map(\.message) == ["no such file or directory"])
        #expect(InputCollector.imageExtensions == ["png", "jpg", "jpeg", "webp", "svg", "svgz"])

        // The bytes the batch will read are the file's, and a limit below its size refuses it.
        let home = try #require(collected.inputs.first)
        let bytes = try Data(contentsOf: Self.testImages.appendingPathComponent("home.png"))
        #expect(try home.read(limit: 1 << 20) == bytes)
        #expect(home.byteCount == bytes.count)
        let input = BatchInput(home, limit: bytes.count - 1)
        #expect(input.name == home.displayName && input.outputStem == "icons/home" && input.sourcePath == home.path)
        #expect(throws: TabIconsError.self) { try input.load() }
    }

    @Test("xcassets: exact files, the manifest read back, a rerun that changes nothing")
    func xcassets() throws {
        let workspace = try Workspace()
        let out = workspace.root.appendingPathComponent("Assets.xcassets")
        let first = try Self.run([workspace.icons], out: out, layout: .xcassets)
        #expect(first.manifestError == nil && first.manifest.errors.isEmpty)
        // The icons' files; the manifest is not counted.
        #expect(first.counts.normalized == 3 && first.counts.reused == 0 && first.counts.written == 12)
        let sets = ["icons/home.imageset/home", "icons/search.imageset/search", "icons/tabs/house.imageset/house"]
        let expected =
            sets.flatMap { set in
                [(set as NSString).deletingLastPathComponent + "/Contents.json", set + ".png", set + "@2x.png", set + "@3x.png"]
            } + ["manifest.json", "manifest.json.stat-cache"]
        #expect(workspace.files(below: out) == expected.sorted())

        // The manifest as a pipeline reads it from disk, and one tab item's bytes from it.
        let manifest = try Manifest(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest == first.manifest)
        #expect(manifest.icons.map(\.name) == ["home", "search", "house"])
        #expect(
            manifest.icons.map { $0.renditions?.map(\.path) ?? [] } == sets.map { [$0 + ".png", $0 + "@2x.png", $0 + "@3x.png"] })
        let home = try #require(manifest.icons.first)
        #expect(home.renditions?.map(\.pixelWidth) == [25, 50, 75])
        let item = try ItemIcons(entry: home, in: manifest, outputRoot: out, scale: 2)
        #expect(item.icon == (try Data(contentsOf: out.appendingPathComponent("icons/home.imageset/home@2x.png"))))
        #expect(item.selectedIcon == nil)

        // The run's preview page, made from what it wrote: self-contained, every icon on it.
        let page = PreviewPage.html(PreviewDocument(manifest: manifest, render: .auto, outputRoot: out))
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        let home2x = try Data(contentsOf: out.appendingPathComponent("icons/home.imageset/home@2x.png"))
        #expect(page.contains("data:image/png;base64," + home2x.base64EncodedString()))

        let before = try workspace.files(below: out).map { try Data(contentsOf: out.appendingPathComponent($0)) }
        let again = try Self.run([workspace.icons], out: out, layout: .xcassets)
        #expect(
            again.counts.reused == 3 && again.counts.normalized == 0 && again.counts.written == 0 && again.counts.removed == 0)
        #expect(again.changes.isEmpty)
        #expect(try workspace.files(below: out).map { try Data(contentsOf: out.appendingPathComponent($0)) } == before)
        #expect(try Self.run([workspace.icons], out: out, layout: .xcassets, check: true).isUpToDate)

        // An input removed: the check names exactly its files, and the real run prunes them.
        try FileManager.default.removeItem(atPath: workspace.icons + "/search.png")
        let check = try Self.run([workspace.icons], out: out, layout: .xcassets, check: true)
        #expect(
            check.changes.map(\.description).sorted()
                == [
                    "change " + out.appendingPathComponent("manifest.json").relativePath,
                    "remove icons/search.imageset/Contents.json", "remove icons/search.imageset/search.png",
                    "remove icons/search.imageset/search@2x.png", "remove icons/search.imageset/search@3x.png"
                ].sorted())
        let pruned = try Self.run([workspace.icons], out: out, layout: .xcassets)
        #expect(pruned.counts.removed == 4)
        #expect(!workspace.files(below: out).contains { $0.hasPrefix("icons/search") })
    }

    @Test(
        "android: one folder per density, an output folder inside the inputs never read as input, a missing input in the manifest"
    )
    func android() throws {
        let workspace = try Workspace()
        let out = URL(fileURLWithPath: workspace.icons).appendingPathComponent("res")
        let missing = workspace.icons + "/gone.png"
        let first = try Self.run([workspace.icons, missing], out: out, layout: .android)
        #expect(
            first.manifest.icons.map(\.input) == ["home.png", "search.png", "tabs/house.svg"].map { workspace.icons + "/" + $0 })
        #expect(first.manifest.errors.map(\.input) == [missing])
        #expect(first.counts.written == 15)
        let densities = ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"]
        let expected =
            densities.flatMap { d in ["home", "search", "house"].map { "drawable-\(d)/\($0).png" } } + [
                "manifest.json", "manifest.json.stat-cache"
            ]
        #expect(workspace.files(below: out) == expected.sorted())
        let home = try #require(first.manifest.icons.first)
        #expect(home.renditions?.map(\.pixelWidth) == [24, 36, 48, 72, 96])

        // Rerun: the outputs now inside the input folder are not collected; nothing changes.
        let again = try Self.run([workspace.icons, missing], out: out, layout: .android)
        #expect(again.manifest.icons.count == 3)
        #expect(again.counts.reused == 3 && again.counts.written == 0)
        #expect(again.changes.isEmpty)
        #expect(workspace.files(below: out) == expected.sorted())
    }
}
