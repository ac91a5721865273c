import Foundation
import Testing
@testable import TabIconsCLI
import TabIconsTestSupport

/// `tabicon completions`: each script names every command and option, and bash's completes.
@Suite("tabicon completions")
struct CompletionScriptTests {
    @Test("every script names every visible command and each command's options", arguments: CompletionShell.allCases)
    func namesEverything(shell: CompletionShell) {
        let script = CompletionScript.text(for: shell)
        for command in CommandDeclaration.visible {
            #expect(script.contains(command.name))
            for option in command.helpOptions {
                // fish spells options without their dashes (`-l out`).
                #expect(script.contains(shell == .fish ? "-l \(option.long)" : option.longName), "\(shell): \(option.longName)")
            }
        }
        #expect(!script.contains("manual"))
        #expect((try? CompletionsCommand(arguments: [shell.rawValue]))?.shell == shell)
    }

    @Test("an unknown shell or none is a usage error")
    func unknownShell() {
        #expect(SilentCLI.run(["completions", "tcsh"]) == .usage)
        #expect(SilentCLI.run(["completions"]) == .usage)
    }

    @Test(
        "bash completes commands, options, an option's words and files",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs /bin/bash"))
    func bashCompletes() throws {
        #expect(try Self.bash(["tabicon", "no"]) == ["normalize"])
        #expect(try Self.bash(["tabicon", "normalize", "--la"]) == ["--layout"])
        #expect(try Self.bash(["tabicon", "normalize", "--layout", ""]) == ["flat", "xcassets", "android"])
        #expect(try Self.bash(["tabicon", "preview", "--ch"]) == [])
        #expect(try Self.bash(["tabicon", "completions", "z"]) == ["zsh"])
        let images = Fixtures.packageRoot.appendingPathComponent("TestImages").path
        #expect(try Self.bash(["tabicon", "normalize", images + "/home.p"]) == [images + "/home.png"])
    }

    /// What `_tabicon` offers for `words`, the last being the word under the cursor.
    static func bash(_ words: [String]) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program =
            CompletionScript.text(for: .bash) + """

                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _tabicon
                printf '%s\\n' "${COMPREPLY[@]}"
                """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", program]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
