import Foundation
import TabIconsTestSupport
import Testing

/// `-` reads an input from standard input (SPEC §6): named `-`, with no folder, through the same
/// jail, engine and twin pairing as any other input.
@Suite("Standard input")
struct StandardInputTests {
    /// The built tabicon's exit status and standard output, given `input` on its standard input.
    static func tabicon(_ arguments: [String], input: Data) throws -> (status: Int32, output: String) {
        let binary = try #require(TabiconBinary.url)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let (stdin, stdout) = (Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("inspect - describes the image piped in, beside a file argument whose twin it is not")
    func inspectStandardInput() throws {
        let png = try Data(contentsOf: Fixtures.testImage("home.png"))
        let run = try Self.tabicon(["inspect", "--json", "-", Fixtures.testImage("home-filled.png").path], input: png)
        #expect(run.status == 0)
        let document = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        let icons = try #require(document?["icons"] as? [[String: Any]])
        #expect(icons.map { $0["input"] as? String } == ["-", Fixtures.testImage("home-filled.png").path])
        #expect(icons.first?["pixelWidth"] as? Int == 96 && icons.first?["selectedTwin"] == nil)
    }

    @Test("normalize - writes the piped image as stdin's files")
    func normalizeStandardInput() throws {
        let dir = try TemporaryDirectory("stdin")
        let png = try Data(contentsOf: Fixtures.testImage("home.png"))
        let run = try Self.tabicon(["normalize", "-q", "-", "-o", dir.path("out")], input: png)
        #expect(run.status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.path("out/stdin@3x.png")))
    }
}
