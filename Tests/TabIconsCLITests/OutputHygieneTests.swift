import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
@testable import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// What the CLI prints is read by people and parsed by build logs (SPEC §6a): names escaped in
/// every line, contents never quoted as text, messages that say what happened.
@Suite(
    "tabicon: what it prints",
    .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
struct OutputHygieneTests {
    /// Runs the built tabicon; answers its exit status, stdout and stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = TabiconBinary.url
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test("a name with a newline cannot forge a --check line; an escape sequence never reaches the terminal raw")
    func hostileNames() throws {
        let dir = try BuildStep.inputs([("evil\nwrite out/forged.png.png", "home.png"), ("\u{1B}]0;pwned\u{07}.png", "bell.png")])
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir.path("icons/bad\u{1B}[31m.png")))
        let result = try Self.run(["normalize", "--check", "-o", dir.path("out"), dir.path("icons")])
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("write ") })
        #expect(!lines.contains { $0.hasPrefix("write out/forged") })
        #expect(lines.contains { $0.hasPrefix("write \"") && $0.contains("evil\\nwrite out/forged.png") })
        for text in [result.out, result.err] {
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        }
        #expect(result.err.contains("\\033[31m"))
    }

    @Test("an input that is text is described, never quoted, in the error line and the manifest")
    func contentsNotQuoted() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        try Data("password=hunter2\n".utf8).write(to: URL(fileURLWithPath: dir.path("icons/secret.png")))
        let result = try Self.run(["normalize", "-o", dir.path("out"), dir.path("icons")])
        #expect(result.status == 1)
        let manifest = try String(contentsOfFile: dir.path("out/manifest.json"), encoding: .utf8)
        for text in [result.out, result.err, manifest] { #expect(!text.contains("hunter2") && !text.contains("password")) }
        #expect(result.err.contains("unsupportedFormat: 17 bytes of text that is neither an image"))
    }

    @Test("the summary counts in words that agree with the number, and --check --json prints the manifest")
    func summaryAndCheckJSON() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let first = try Self.run(["normalize", "--scales", "1", "-o", dir.path("out"), dir.path("icons")])
        #expect(first.status == 0)
        #expect(
            first.err.contains(
                "normalized 1 icon (0 reused) into \(dir.path("out"))/: 1 file written, 0 unchanged, 0 removed; manifest: "))
        let check = try Self.run(["normalize", "--check", "--json", "--scales", "1", "-o", dir.path("out"), dir.path("icons")])
        #expect(check.status == 0)
        let manifest = try Manifest(parsing: Data(check.out.utf8))
        #expect(manifest == (try BuildStep.manifest(dir.path("out/manifest.json"))))
    }

    @Test("a rerun trusting the stat cache prints what a --verify run prints, and --check says up to date")
    func answeredRerun() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png"), ("small.png", "rgba-32.png")])
        let words = ["-o", dir.path("out"), dir.path("icons")]
        #expect(try Self.run(["normalize"] + words).status == 0)
        try BuildStep.ageStatCache(dir.path("out/manifest.json"))
        /// The lines without their `[n/3]` (a run that reads the manifest finishes in any order).
        func lines(_ text: String) -> [String] {
            text.split(separator: "\n").map { $0.replacingOccurrences(of: #"^\[\d/3\] "#, with: "", options: .regularExpression) }
                .sorted()
        }
        let answered = try Self.run(["normalize"] + words)
        let read = try Self.run(["normalize", "--verify"] + words)
        #expect(answered.status == 0 && read.status == 0 && answered.out.isEmpty)
        #expect(lines(answered.err) == lines(read.err))
        // Each icon reported as carried over (its reused event), not redone.
        #expect(lines(answered.err).filter { $0.hasSuffix("  unchanged") }.count == 3)
        #expect(
            lines(answered.err).last
                == "normalized 3 icons (3 reused) into \(dir.path("out"))/: 0 files written, 7 unchanged, 0 removed; 1 too small for some scales (undersized); manifest: \(dir.path("out/manifest.json"))"
        )
        let check = try Self.run(["normalize", "--check"] + words)
        #expect(check.status == 0 && check.err.hasSuffix("\(dir.path("out"))/ is up to date\n"))
    }

    @Test(
        "an icon added and another removed, the others carried by their stat records: the lines a --verify run prints, the files a first run writes"
    )
    func addedAndRemoved() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("bell.png", "bell.png"), ("small.png", "rgba-32.png")])
        for out in ["out-index", "out-read"] {
            #expect(try Self.run(["normalize", "-o", dir.path(out), dir.path("icons")]).status == 0)
            try BuildStep.ageStatCache(dir.path(out + "/manifest.json"))
        }
        try FileManager.default.removeItem(atPath: dir.path("icons/bell.png"))
        try BuildStep.put("search.png", at: "icons/search.png", in: dir)
        // One run trusts the stat cache; the other reads and hashes every file (--verify).
        let carried = try Self.run(["normalize", "-o", dir.path("out-index"), dir.path("icons")])
        let read = try Self.run(["normalize", "--verify", "-o", dir.path("out-read"), dir.path("icons")])
        let first = try Self.run(["normalize", "-o", dir.path("out-first"), dir.path("icons")])
        #expect(carried.status == 0 && read.status == 0 && first.status == 0)
        func lines(_ text: String, _ out: String) -> [String] {
            text.replacingOccurrences(of: dir.path(out), with: "OUT").split(separator: "\n")
                .map { $0.replacingOccurrences(of: #"^\[\d/3\] "#, with: "", options: .regularExpression) }.sorted()
        }
        #expect(lines(carried.err, "out-index") == lines(read.err, "out-read"))
        #expect(lines(carried.err, "out-index").last?.contains("(2 reused)") == true)
        #expect(lines(carried.err, "out-index").last?.contains("3 files written, 4 unchanged, 3 removed") == true)
        /// Every file below `out` but the manifest and its stat cache, by path, with its bytes.
        func tree(_ out: String) throws -> [String: Data] {
            let root = dir.path(out)
            let paths = try FileManager.default.subpathsOfDirectory(atPath: root).filter { path in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder)
                    && !isFolder.boolValue && !path.hasPrefix("manifest.json")
            }
            return try Dictionary(
                uniqueKeysWithValues: paths.map { ($0, try Data(contentsOf: URL(fileURLWithPath: root + "/" + $0))) })
        }
        let expected = try tree("out-first")
        #expect(expected.keys.contains("icons/search@2x.png") && !expected.keys.contains("icons/bell.png"))
        #expect(try tree("out-index") == expected && tree("out-read") == expected)
        try BuildStep.ageStatCache(dir.path("out-index/manifest.json"))
        let check = try Self.run(["normalize", "--check", "-o", dir.path("out-index"), dir.path("icons")])
        #expect(check.status == 0 && check.err.hasSuffix("\(dir.path("out-index"))/ is up to date\n"))
    }

    @Test("a manifest path below a file is exit 2 before any work")
    func manifestBelowAFile() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        try Data().write(to: URL(fileURLWithPath: dir.path("build")))
        let result = try Self.run(["normalize", "-o", dir.path("out"), "--manifest", dir.path("build/m.json"), dir.path("icons")])
        #expect(result.status == 2)
        #expect(result.err.hasPrefix("tabicon: --manifest \(dir.path("build/m.json")) cannot be the manifest: not a directory"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
    }

    @Test("the summary of a run whose manifest could not be written does not name it as written")
    func summaryWithoutManifest() throws {
        let command = try NormalizeCommand(arguments: ["-o", "gen", "--manifest", "build/m.json", "icons"])
        var result = BatchResult(manifest: Manifest(box: .regular, scales: [1]))
        result.counts.written = 1
        #expect(
            command.summary(result)
                == "normalized 0 icons (0 reused) into gen/: 1 file written, 0 unchanged, 0 removed; manifest: build/m.json")
        result.manifestError = TabIconsError(.io, "cannot write build/m.json: no space left on device")
        #expect(
            command.summary(result)
                == "normalized 0 icons (0 reused) into gen/: 1 file written, 0 unchanged, 0 removed; no manifest written")
    }

    @Test("an output whose name the file system refuses is reported as a write that failed, not a read")
    func writeFailureNamed() throws {
        // 250 + ".png" fits the 255-byte name limit; its "@2x.png" rendition does not.
        let long = String(repeating: "a", count: 250)
        let dir = try BuildStep.inputs([(long + ".png", "home.png")])
        let result = try Self.run(["normalize", "-o", dir.path("out"), dir.path("icons")])
        #expect(result.status == 1)
        #expect(result.err.contains("io: cannot write icons/\(long)@2x.png in \(dir.path("out")): "))
        #expect(!result.err.contains("cannot read"))
    }

    @Test("the lock and the foreign manifest are one clear line each, exit 2")
    func refusals() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        try FileManager.default.createDirectory(atPath: dir.path("public"), withIntermediateDirectories: true)
        try Data(#"{"name": "app"}"#.utf8).write(to: URL(fileURLWithPath: dir.path("public/manifest.json")))
        let foreign = try Self.run(["normalize", "-o", dir.path("public"), dir.path("icons")])
        #expect(foreign.status == 2)
        #expect(
            foreign.err.hasPrefix(
                "tabicon: --manifest \(dir.path("public/manifest.json")) holds a file that is not a tabicon manifest"))
        let empty = try Self.run(["normalize", "-o", "", dir.path("icons")])
        #expect(empty.status == 2)
        #expect(empty.err.hasPrefix("tabicon: --out needs a path"))
    }
}
