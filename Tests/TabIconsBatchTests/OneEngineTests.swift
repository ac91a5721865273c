import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsBatchTestSupport
import TabIconsTestSupport

/// `normalize`, `preview` and `inspect` are one engine (`UnitRunner`): the same inputs give the
/// same rows and bytes whichever asks, and a stop stops each of them alike.
@Suite("One engine for normalize, preview and inspect")
struct OneEngineTests {
    /// An icon with its selected and dark twins, a vector, a JPEG and an input that fails.
    static let files = [
        ("home.png", "home.png"), ("home-filled.png", "home-filled.png"), ("home-dark.png", "search.png"),
        ("star.svg", "star.svg"), ("avatar.jpg", "avatar-exif6.jpg"), ("bell.png", "bell.png")
    ]

    static func inputs() throws -> (TemporaryDirectory, [BatchInput]) {
        let dir = try BuildStep.inputs(files)
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir.path("icons/broken.png")))
        return (dir, BuildStep.batchInputs(dir, files.map(\.0) + ["broken.png"]))
    }

    @Test("the preview's rows and rendition bytes are what normalize writes, for each layout", arguments: OutputLayout.allCases)
    func previewIsNormalize(layout: OutputLayout) throws {
        let (dir, inputs) = try Self.inputs()
        let normalizer = Normalizer(options: NormalizeOptions(scales: [1, 2, 3]))
        let batch = BatchNormalizer(normalizer: normalizer, layout: layout, outputRoot: dir.url.appendingPathComponent("out"))
        let written = try batch.run(inputs)
        let shown = batch.previewRun.run(inputs)
        #expect(shown.icons.map(\.entry) == written.manifest.icons)
        #expect(shown.errors.map(\.input) == ["icons/broken.png"] && written.manifest.errors.map(\.input) == ["icons/broken.png"])
        for icon in shown.icons {
            for (entry, rendition) in zip(icon.entry.renditions ?? [], icon.renditions) {
                let onDisk = try Data(contentsOf: dir.url.appendingPathComponent("out/" + entry.path))
                #expect(Array(onDisk) == rendition.bytes, "\(entry.path)")
            }
            #expect(icon.renditions.count == icon.entry.renditions?.count)
        }
    }

    @Test("inspect's rows are normalize's without files, twins linked over the document")
    func inspectIsNormalize() throws {
        let (dir, inputs) = try Self.inputs()
        let batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: dir.url.appendingPathComponent("out"))
        let written = try batch.run(inputs).manifest.icons
        var inspected = InspectRun(box: .regular, limits: .default).run(inputs)
        #expect(inspected.count == inputs.count)
        guard case .failure(let error)? = inspected.removeLast() else { Issue.record("broken.png inspected"); return }
        #expect(error.code == .unsupportedFormat, "\(error)")
        var rows = try inspected.map { try #require($0).get() }
        IconTwins.link(&rows)
        SetLints.apply(&rows)
        for (row, written) in zip(rows, written) {
            var expected = written
            (expected.renditions, expected.contentsFile, expected.selectorFile) = (nil, nil, nil)
            #expect(row == expected, "\(row.input)")
        }
    }

    @Test("a preview asked to stop once its first unit (an icon and its two twins) is done starts no other unit")
    func previewStops() throws {
        let (dir, inputs) = try Self.inputs()
        defer { withExtendedLifetime(dir) {} }
        let events = LockedState(0)
        var run = PreviewRun(normalizer: Normalizer(), jobs: 1)
        run.shouldStop = { events.withLock { $0 } > 0 ? SIGINT : 0 }
        let document = run.run(inputs) { _ in events.withLock { $0 += 1 } }
        #expect(events.withLock { $0 } == 3)
        #expect(document.icons.map(\.entry.input) == ["icons/home.png", "icons/home-filled.png", "icons/home-dark.png"])
        #expect(document.errors.isEmpty)
    }
}
