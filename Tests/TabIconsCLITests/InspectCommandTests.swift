import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport

@Suite("tabicon inspect")
struct InspectCommandTests {
    /// Test images through inspect's engine (`InspectRun`), in process, as rows.
    static func inspected(_ names: [String]) throws -> [Manifest.Icon] {
        let inputs = try names.map { name in
            let data = try Data(contentsOf: Fixtures.testImage(name))
            return BatchInput(
                name: name, outputStem: (name as NSString).deletingPathExtension,
                load: { () throws(TabIconsError) -> Data in data })
        }
        return try InspectRun(box: .regular, limits: .default).run(inputs).map { try #require($0).get() }
    }

    @Test("inspect reports what the SPEC's document says, without renditions, and writes nothing")
    func inspectDocument() throws {
        let dir = try TemporaryDirectory("inspect")
        for name in ["home.png", "avatar-exif6.jpg", "animated.webp", "rgba16-32.png"] {
            try FileManager.default.copyItem(at: Fixtures.testImage(name), to: dir.url.appendingPathComponent(name))
        }
        let before = try dir.snapshot()
        let rows = try Self.inspected(["home.png", "avatar-exif6.jpg", "animated.webp", "rgba16-32.png"])
        let (info, avatar, animated, small) = (rows[0], rows[1], rows[2], rows[3])
        #expect(info.pixelWidth == 96 && info.hasAlpha && info.renditions == nil)
        #expect(info.lints.isEmpty && info.name == "home" && info.input == "home.png")
        #expect(avatar.orientation == 6 && avatar.lints.map(\.code) == [.opaque])
        #expect(animated.animated && animated.lints.map(\.code).contains(.animated))
        #expect(small.lints.map(\.code).contains(.undersized))
        #expect(SilentCLI.run(["inspect", dir.url.path]) == .success)
        #expect(SilentCLI.run(["inspect", "--json", dir.url.path]) == .success)
        #expect(try dir.snapshot() == before)
    }

    @Test("the manifest's JSON has SPEC §6's keys in order and omits renditions for inspect")
    func manifestShape() throws {
        var row = try Self.inspected(["home.png"])[0]
        row.input = "icons/home.png"
        var manifest = Manifest(box: .regular, scales: [1, 2, 3])
        manifest.icons.append(row)
        manifest.errors.append(.init(input: "icons/bad.png", error: TabIconsError(.corrupt, "IDAT: incorrect data check")))
        let text = String(decoding: manifest.jsonData(), as: UTF8.self)
        let keys = [
            "\"version\": 1", "\"tool\": \"tabicon 0.4.0\"", "\"box\": 25", "\"scales\": [",
            "\"input\": \"icons/home.png\"", "\"name\": \"home\"", "\"format\": \"png\"",
            "\"pixelWidth\": 96", "\"pixelHeight\": 96", "\"orientation\": 1", "\"hasAlpha\": true",
            "\"animated\": false", "\"contentHash\": \"xxh3-128:", "\"decodeScale\": 3.84",
            "\"pointWidth\": 25", "\"pointHeight\": 25", "\"lints\": [", "\"errors\": [",
            "\"code\": \"corrupt\"", "\"message\": \"IDAT: incorrect data check\""
        ]
        var cursor = text.startIndex
        for key in keys {
            let found = try #require(text.range(of: key, range: cursor..<text.endIndex), "missing or out of order: \(key)")
            cursor = found.upperBound
        }
        #expect(!text.contains("renditions"))
        #expect(try Manifest(parsing: manifest.jsonData()) == manifest)
    }

    @Test("a missing input and a broken one: exit 1, the good one still reported")
    func failures() throws {
        let dir = try TemporaryDirectory("inspect")
        try FileManager.default.copyItem(at: Fixtures.testImage("home.png"), to: dir.url.appendingPathComponent("home.png"))
        try Data("not an image".utf8).write(to: dir.url.appendingPathComponent("junk.png"))
        #expect(SilentCLI.run(["inspect", dir.url.path, dir.path("missing.png")]) == .someInputsFailed)
        #expect(SilentCLI.run(["inspect", dir.path("home.png")]) == .success)
        #expect(SilentCLI.run(["inspect"]) == .usage)
        #expect(SilentCLI.run(["--version"]) == .success)
        #expect(SilentCLI.run(["--help"]) == .success)
    }

    @Test("content hashes are XXH3-128 in xxhsum's canonical hex")
    func contentHash() {
        // Published XXH3-128 test vectors: "" and "abc" (xxhsum -H2).
        #expect(ContentHash(of: Data()).description == "xxh3-128:99aa06d3014798d86001c324468d497f")
        #expect(ContentHash(of: Data("abc".utf8)).description == "xxh3-128:06b05ab6733a618578af5f94892f3950")
    }
}
