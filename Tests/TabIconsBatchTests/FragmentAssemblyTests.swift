import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// What `FragmentAssembly` reads is untrusted (SPEC §9, §6a): fragments and their files come from
/// a build cache, another machine, or a hand. Each case is refused as a usage error naming what
/// is wrong, before anything is written.
@Suite("assembly of hostile fragments")
struct FragmentAssemblyTests {
    /// `home.png` and `bell.png` rendered (in process) into `render/home` and `render/bell`.
    static func rendered(scales: [Double] = [1, 2, 3]) throws -> TemporaryDirectory {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png")])
        for name in ["home", "bell"] {
            let path = dir.path("icons/\(name).png")
            let input = BatchInput(
                name: "icons/\(name).png", outputStem: name,
                load: { () throws(TabIconsError) -> Data in try InputReader.read(URL(fileURLWithPath: path)) })
            let render = HermeticRender(
                normalizer: Normalizer(options: NormalizeOptions(scales: scales)), layout: .xcassets,
                outputRoot: URL(fileURLWithPath: dir.path("render/\(name)")), jobs: 1)
            let result = try render.run([input])
            #expect(result.errors.isEmpty && result.icons.count == 1)
        }
        return dir
    }

    /// The assembly's refusal of `folders` (nil when it assembled), and that `out` stayed unwritten.
    static func refusal(_ dir: TemporaryDirectory, _ folders: [String]) -> String? {
        do {
            let fragments = try FragmentAssembly.read(folders.map(dir.path))
            _ = try FragmentAssembly(
                outputRoot: dir.url.appendingPathComponent("out"),
                manifestURL: dir.url.appendingPathComponent("out/manifest.json")
            ).run(fragments)
            return nil
        } catch {
            #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
            return error.description
        }
    }

    static func editFragment(_ path: String, _ edit: (inout Manifest) -> Void) throws {
        var manifest = try BuildStep.manifest(path)
        edit(&manifest)
        try manifest.jsonData().write(to: URL(fileURLWithPath: path))
    }

    @Test("untouched fragments assemble")
    func untouched() throws {
        let dir = try Self.rendered()
        #expect(Self.refusal(dir, ["render/home", "render/bell"]) == nil)
        #expect(FileManager.default.fileExists(atPath: dir.path("out/home.imageset/home@3x.png")))
    }

    @Test("a rendition whose bytes changed after the render")
    func changedFile() throws {
        let dir = try Self.rendered()
        try Data(contentsOf: Fixtures.testImage("heart.png")).write(
            to: URL(fileURLWithPath: dir.path("render/home/home.imageset/home@2x.png")))
        #expect(
            Self.refusal(dir, ["render/home"])?.contains("home.imageset/home@2x.png, whose bytes are not the ones recorded")
                == true)
        // The same size, one byte else: caught by the hash.
        try Data(contentsOf: Fixtures.testImage("home.png")).write(
            to: URL(fileURLWithPath: dir.path("render/home/home.imageset/home@2x.png")))
        let path = dir.path("render/bell/bell.imageset/bell@3x.png")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(
            Self.refusal(dir, ["render/bell"])?.contains("bell.imageset/bell@3x.png, whose bytes are not the ones recorded")
                == true)
    }

    @Test("a rendition linked in (as a build sandbox links inputs) is read; a link to other bytes or a FIFO is refused")
    func linkedFile() throws {
        let dir = try Self.rendered()
        let path = dir.path("render/home/home.imageset/home.png")
        try FileManager.default.moveItem(atPath: path, toPath: dir.path("elsewhere.png"))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: dir.path("elsewhere.png"))
        let fragment = dir.path("render/home/home.tabicon.json")
        try FileManager.default.moveItem(atPath: fragment, toPath: dir.path("fragment.json"))
        try FileManager.default.createSymbolicLink(atPath: fragment, withDestinationPath: dir.path("fragment.json"))
        #expect(Self.refusal(dir, ["render/home"]) == nil)
        try FileManager.default.removeItem(atPath: dir.path("out"))

        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: Fixtures.testImage("bell.png").path)
        #expect(Self.refusal(dir, ["render/home"])?.contains("whose bytes are not the ones recorded") == true)
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o644) == 0)
        #expect(Self.refusal(dir, ["render/home"])?.contains("home.imageset/home.png, which cannot be read") == true)
    }

    @Test("a rendition that is gone")
    func missingFile() throws {
        let dir = try Self.rendered()
        try FileManager.default.removeItem(atPath: dir.path("render/home/home.imageset/home@3x.png"))
        #expect(Self.refusal(dir, ["render/home"])?.contains("which is not there") == true)
    }

    @Test("a fragment naming a path outside its folder, or a size past any rendition")
    func escapingPaths() throws {
        let dir = try Self.rendered()
        let fragment = dir.path("render/home/home.tabicon.json")
        try Self.editFragment(fragment) { $0.icons[0].renditions![0].path = "../bell/bell.imageset/bell.png" }
        #expect(Self.refusal(dir, ["render/home"])?.contains("is not a plain path") == true)
        try Self.editFragment(fragment) {
            $0.icons[0].renditions![0].path = "home.imageset/home.png"
            $0.icons[0].renditions![0].bytes = 1 << 40
        }
        #expect(Self.refusal(dir, ["render/home"])?.contains("of 1099511627776 bytes") == true)
    }

    @Test("a fragment of another tabicon, of other options, or not a fragment at all")
    func otherVersionsAndOptions() throws {
        let dir = try Self.rendered()
        let other = try Self.rendered(scales: [1, 2])
        try FileManager.default.moveItem(atPath: other.path("render/bell"), toPath: dir.path("render/bell12"))
        #expect(Self.refusal(dir, ["render/home", "render/bell12"])?.contains("other options") == true)

        let fragment = dir.path("render/home/home.tabicon.json")
        let text = try String(contentsOfFile: fragment, encoding: .utf8)
        try text.replacingOccurrences(of: TabIconsVersion.tool, with: "tabicon 0.3.0").write(
            toFile: fragment, atomically: true, encoding: .utf8)
        #expect(Self.refusal(dir, ["render/home"])?.contains("was rendered by tabicon 0.3.0") == true)
        try Data("{\"version\": 1".utf8).write(to: URL(fileURLWithPath: fragment))
        #expect(Self.refusal(dir, ["render/home"])?.contains("not a tabicon manifest") == true)
        try Data(repeating: 0x20, count: UntrustedFile.cap + 1).write(to: URL(fileURLWithPath: fragment))
        #expect(Self.refusal(dir, ["render/home"])?.contains("cannot be read") == true)
    }

    @Test("fragments of other lint thresholds than each other, or thresholds no config may set")
    func otherThresholds() throws {
        let dir = try Self.rendered()
        let home = dir.path("render/home/home.tabicon.json"), bell = dir.path("render/bell/bell.tabicon.json")
        var loose = SetLints.Thresholds()
        loose.strokeMismatch = 0.3
        try Self.editFragment(home) { $0.lintThresholds = loose }
        #expect(Self.refusal(dir, ["render/home", "render/bell"])?.contains("other lint thresholds") == true)
        try Self.editFragment(bell) { $0.lintThresholds = loose }
        #expect(Self.refusal(dir, ["render/home", "render/bell"]) == nil)
        try FileManager.default.removeItem(atPath: dir.path("out"))

        let text = try String(contentsOfFile: home, encoding: .utf8)
        #expect(text.contains(#""lints": {"#) && text.contains(#""strokeMismatch": 0.3"#))
        let hostile = [
            (#""strokeMismatch": 0.3"#, #""strokeMismatch": 5"#),
            (#""strokeMismatch": 0.3"#, #""loud": 1, "strokeMismatch": 0.3"#),
            (#""lints": {"#, #""lints": "loud", "ignored": {"#)
        ]
        for (recorded, edited) in hostile {
            try text.replacingOccurrences(of: recorded, with: edited).write(toFile: home, atomically: true, encoding: .utf8)
            #expect(Self.refusal(dir, ["render/home", "render/bell"])?.contains("lints is not valid") == true, "\(edited)")
        }
    }

    @Test("the same input recorded twice, and folders with no fragment")
    func duplicatesAndNothing() throws {
        let dir = try Self.rendered()
        try FileManager.default.copyItem(atPath: dir.path("render/home"), toPath: dir.path("render/home-again"))
        #expect(Self.refusal(dir, ["render/home", "render/home-again"])?.contains("both record the input icons/home.png") == true)
        try FileManager.default.createDirectory(atPath: dir.path("empty"), withIntermediateDirectories: true)
        #expect(Self.refusal(dir, ["empty"])?.contains("no fragments") == true)
        #expect(Self.refusal(dir, ["missing"]) != nil)
    }

    @Test("a linked folder inside a fragment folder is not walked")
    func linkedFolder() throws {
        let dir = try Self.rendered()
        try FileManager.default.createDirectory(atPath: dir.path("only"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path("only/bell"), withDestinationPath: dir.path("render/bell"))
        #expect(Self.refusal(dir, ["only"])?.contains("no fragments") == true)
    }
}
