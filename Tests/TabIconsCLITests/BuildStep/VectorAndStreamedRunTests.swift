import Foundation
import Testing
import TabIcons
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport

/// `tabicon normalize` over the inputs whose own rules the layers below test (the vector rule,
/// streamed PNG decoding): what a run writes and records for them.
@Suite("tabicon normalize over SVGs and streamed PNGs")
struct VectorAndStreamedRunTests {
    @Test("the same bytes from --jobs 1 and --jobs 4, a manifest that says vector")
    func jobs() throws {
        let inputs = try TemporaryDirectory("svg-inputs")
        for name in ["house.svg", "house-fill.svg", "person.svg", "person-fill.svg", "star.svg", "star-fill.svg"] {
            try FileManager.default.copyItem(at: Fixtures.testImage(name), to: inputs.url.appendingPathComponent(name))
        }
        try Fixtures.data(Fixtures.fixture("svg/house-fill.svgz")).write(to: inputs.url.appendingPathComponent("compressed.svgz"))
        var snapshots: [[String: Data]] = []
        for jobs in ["1", "4"] {
            let out = try TemporaryDirectory("svg-out")
            #expect(SilentCLI.run(["normalize", "-q", "--jobs", jobs, inputs.url.path, "-o", out.url.path]) == .success)
            var files = try out.snapshot()
            let manifest = try #require(files["manifest.json"])
            files["manifest.json"] = nil
            #expect(files.removeValue(forKey: "manifest.json.stat-cache") != nil)
            let text = String(decoding: manifest, as: UTF8.self)
            #expect(text.contains("\"vector\": true"))
            #expect(text.contains("\"format\": \"svg\""))
            #expect(files.count == 21)
            snapshots.append(files)
        }
        #expect(snapshots[0] == snapshots[1])
    }

    @Test("tabicon normalize: a PNG cut or damaged mid-stream is an error entry with its code, and nothing of it is written")
    func nothingWrittenThroughTheCLI() throws {
        let inputs = try TemporaryDirectory("inputs")
        let icons = inputs.url.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        let good = StreamedPNGInputs.made(width: 301, height: 233, seed: 12)
        let long = StreamedPNGInputs.made(width: 640, height: 480, seed: 6)
        var damaged = long
        damaged[long.count / 2] ^= 0x5A
        try good.write(to: icons.appendingPathComponent("good.png"))
        try Data(long.prefix(long.count * 7 / 10)).write(to: icons.appendingPathComponent("cut.png"))
        try damaged.write(to: icons.appendingPathComponent("damaged.png"))
        let out = try TemporaryDirectory("out")
        let status = SilentCLI.run(["normalize", "-q", icons.path, "-o", out.url.path])
        #expect(status == .someInputsFailed)
        let manifest = try Manifest(parsing: Data(contentsOf: out.url.appendingPathComponent("manifest.json")))
        #expect(manifest.errors.map { ($0.input as NSString).lastPathComponent } == ["cut.png", "damaged.png"])
        #expect(manifest.errors.map(\.code) == ["truncated", "corrupt"])
        #expect(
            out.files() == [
                "icons/good.png", "icons/good@2x.png", "icons/good@3x.png", "manifest.json", "manifest.json.stat-cache"
            ])
    }
}
