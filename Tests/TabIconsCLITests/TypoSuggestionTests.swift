import Testing
@testable import TabIconsCLI
import TabIconsTestSupport

/// A mistyped option or command is answered with the nearest one; a path given without a
/// command is answered with the command that takes it.
@Suite("tabicon: typo suggestions")
struct TypoSuggestionTests {
    func usageMessage(_ arguments: [String]) -> String? {
        do {
            _ = try NormalizeCommand(arguments: arguments)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("an unknown option names the nearest one of its command")
    func unknownOption() {
        #expect(usageMessage(["--ouput", "x", "a.png"]) == "unknown option --ouput (did you mean --out?)")
        #expect(usageMessage(["--maniefst", "m.json", "a.png"]) == "unknown option --maniefst (did you mean --manifest?)")
        #expect(usageMessage(["--la", "flat", "a.png"]) == "unknown option --la (did you mean --layout?)")
        #expect(usageMessage(["--frobnicate", "a.png"]) == "unknown option --frobnicate")
        #expect(usageMessage(["-x", "a.png"]) == "unknown option -x")
        #expect(SilentCLI.run(["normalize", "--ouput", "x", "a.png"]) == .usage)
    }

    @Test("an unknown command names the nearest command, or the command a path needs")
    func unknownCommand() {
        #expect(TabIconCommand.unknownCommand("normalise") == "unknown command 'normalise' (did you mean normalize?)")
        #expect(TabIconCommand.unknownCommand("inpsect") == "unknown command 'inpsect' (did you mean inspect?)")
        #expect(
            TabIconCommand.unknownCommand("icons/") == "unknown command 'icons/'; to normalize a folder: tabicon normalize icons/"
        )
        #expect(
            TabIconCommand.unknownCommand(Fixtures.packageRoot.appendingPathComponent("TestImages").path)
                .hasSuffix(
                    "; to normalize a folder: tabicon normalize \(Fixtures.packageRoot.appendingPathComponent("TestImages").path)"
                ))
        #expect(
            TabIconCommand.unknownCommand("home.png")
                == "unknown command 'home.png'; to normalize a file: tabicon normalize home.png")
        #expect(TabIconCommand.unknownCommand("frobnicate") == "unknown command 'frobnicate'")
        #expect(SilentCLI.run(["icons/"]) == .usage)
    }

    @Test("edit distance counts insertions, deletions and substitutions")
    func editDistance() {
        let cases: [(String, String, Int)] = [
            ("", "", 0), ("out", "", 3), ("ouput", "out", 2), ("kitten", "sitting", 3),
            ("layout", "layout", 0), ("jbos", "jobs", 2)
        ]
        for (a, b, distance) in cases {
            #expect(Suggestion.editDistance(Array(a), Array(b)) == distance, "\(a) → \(b)")
            #expect(Suggestion.editDistance(Array(b), Array(a)) == distance)
        }
    }
}
