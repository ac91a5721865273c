import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport

/// Options that cannot work are usage errors (exit 2) before any work: one line naming the
/// option, nothing written, and never a crash for any number.
@Suite("tabicon: options out of range")
struct OptionValidationTests {
    static let outOfRange: [([String], String)] = [
        (["--scales", "3000"], "--scales"), (["--scales", "1e18"], "--scales"), (["--scales", "1e19"], "--scales"),
        (["--scales", "nan"], "--scales"), (["--scales", "0"], "--scales"), (["--scales", "-1"], "--scales"),
        (["--scales", "inf"], "--scales"), (["--scales", ""], "--scales"),
        (["--box", "1e19"], "--box"), (["--box", "100000"], "--scales"),
        (["--scales", "0x10"], "--scales"), (["--scales", "1,,2"], "--scales"), (["--scales", "1e-300"], "--scales"),
        (["--scales", "2,"], "--scales"), (["--scales", "+2"], "--scales"), (["--scales", "0.0000001"], "--scales"),
        (["--box", "0x19"], "--box"), (["--box", "25."], "--box"), (["--box", ".5e2"], "--box"),
        (["--format", "webp", "--quality", "0x10"], "--quality"), (["--jobs", "+4"], "--jobs"), (["--jobs", "0x4"], "--jobs"),
        (["--jobs", "100000"], "--jobs"), (["--max-pixels", "+100"], "--max-pixels"),
        (["--manifest", ""], "--manifest"), (["--preview", ""], "--preview"),
        (["--box", "1e-320"], "--box"), (["--box", "nan"], "--box"), (["--box", "0"], "--box"), (["--box", "-25"], "--box"),
        (["--allow-upscale", "--scales", "500"], "--scales"),
        (["--format", "webp", "--quality", "101"], "--quality"), (["--format", "webp", "--quality", "nan"], "--quality"),
        (["--jobs", "0"], "--jobs"), (["--jobs", "1e19"], "--jobs"), (["--jobs", "-3"], "--jobs"),
        (["--max-pixels", "0"], "--max-pixels"), (["--max-pixels", "1e19"], "--max-pixels"),
        (["--max-pixels", "nan"], "--max-pixels"),
        // One more than `NormalizeOptions.mostScales` (a manifest entry holds a rendition a scale).
        (["--scales", (1...33).map { "1.\($0 < 10 ? "0" : "")\($0)" }.joined(separator: ",")], "--scales")
    ]

    @Test("each option out of range is exit 2 with one line naming it, and nothing written", arguments: outOfRange)
    func usageError(arguments: [String], option: String) throws {
        let out = try TemporaryDirectory("out")
        let words = ["normalize", "-q"] + arguments + ["-o", out.path("o"), Fixtures.testImage("home.png").path]
        do {
            _ = try NormalizeCommand(arguments: Array(words.dropFirst()))
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(error.description.hasPrefix(option), "\(arguments): \(error.description)")
            #expect(!error.description.contains("\n"))
        }
        #expect(SilentCLI.run(words) == .usage)
        #expect(out.files().isEmpty)
    }

    @Test("inspect refuses the same box and limits as usage errors")
    func inspectUsage() {
        for arguments in [["--box", "1e-320"], ["--max-pixels", "0"], ["--box", "nan"]] {
            #expect(SilentCLI.run(["inspect"] + arguments + [Fixtures.testImage("home.png").path]) == .usage)
        }
    }

    @Test("--box 100000 --scales 1 gives every icon at its own size, its decoded pixels untouched")
    func hugeBox() throws {
        let out = try TemporaryDirectory("out")
        let images = ["home.png", "search-filled.png", "heart-filled.webp", "avatar-exif6.jpg", "rgba16-32.png"]
        let status = SilentCLI.run(
            ["normalize", "-q", "--box", "100000", "--scales", "1", "-o", out.url.path]
                + images.map { Fixtures.testImage($0).path })
        #expect(status == .success)
        let manifest = try Manifest(parsing: Data(contentsOf: out.url.appendingPathComponent("manifest.json")))
        #expect(manifest.icons.count == images.count)
        for icon in manifest.icons {
            let rendition = try #require(icon.renditions?.first)
            #expect(rendition.pixelWidth == icon.pixelWidth && rendition.pixelHeight == icon.pixelHeight)
            #expect(icon.decodeScale == 1)
            let source = try ImageDecoder.decode(Data(contentsOf: URL(fileURLWithPath: icon.input)))
            let written = try ImageDecoder.decode(Data(contentsOf: out.url.appendingPathComponent(rendition.path)))
            #expect(written.bitmap == source.bitmap, "\(icon.name)")
        }
    }

    @Test("--max-pixels 4096 on a 16 px icon renders it at 1× and reports the other scales as undersized")
    func smallLimit() throws {
        let out = try TemporaryDirectory("out")
        let inputs = try TemporaryDirectory("in")
        let icon = TestImages.random(width: 16, height: 16, seed: 3)
        try Data(OutputFormat.png.encode(icon)).write(to: inputs.url.appendingPathComponent("small.png"))
        let status = SilentCLI.run(["normalize", "-q", "--max-pixels", "4096", "-o", out.url.path, inputs.path("small.png")])
        #expect(status == .success)
        let manifest = try Manifest(parsing: Data(contentsOf: out.url.appendingPathComponent("manifest.json")))
        let entry = try #require(manifest.icons.first)
        #expect(entry.renditions?.map(\.pixelWidth) == [16])
        #expect(entry.lints.map(\.code) == [.undersized])
    }

    @Test("each command answers --help with its own usage, exit 0", arguments: ["normalize", "inspect", "preview"])
    func help(command: String) {
        #expect(SilentCLI.run([command, "--help"]) == .success)
        #expect(SilentCLI.run([command, "-h", "whatever.png"]) == .success)
        #expect(TabIconCommand.usage(of: command)?.hasPrefix("usage: tabicon \(command)") == true)
    }
}
