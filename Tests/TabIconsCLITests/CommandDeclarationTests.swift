import Foundation
import Testing
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport

/// The option declarations are the one source: what the parser accepts, what help, completions
/// and the man page show, and what README.md's option tables list must all agree with them.
@Suite("tabicon: options declared once")
struct CommandDeclarationTests {
    @Test("no command declares one spelling twice, and every refused option is one normalize takes")
    func uniqueSpellings() {
        for command in CommandDeclaration.all {
            let names = (command.helpOptions + command.refused).flatMap(\.names)
            #expect(Set(names).count == names.count, "\(command.name): \(names)")
            for option in command.refused { #expect(CommandDeclaration.normalize.options.contains(option)) }
        }
    }

    @Test("each command's --help lists every option it takes, with its value and default")
    func helpListsEveryOption() throws {
        for command in CommandDeclaration.all {
            // Words only: help wraps a long sentence where it likes.
            let help = try #require(TabIconCommand.usage(of: command.name)).split(whereSeparator: \.isWhitespace).joined(
                separator: " ")
            for option in command.helpOptions {
                #expect(help.contains(option.label), "\(command.name) --help lacks \(option.label)")
                if case .value(let text) = option.defaultValue { #expect(help.contains("(default: \(text))")) }
            }
        }
        #expect(!HelpText.usage.contains("manual"))
    }

    @Test("every word an option's completion offers is a value the parser accepts")
    func offeredWordsParse() throws {
        for option in CommandDeclaration.normalize.options {
            guard case .words(let words)? = option.value?.completion else { continue }
            for word in words {
                _ = try NormalizeCommand(arguments: [option.longName, word, "x.png"])
            }
        }
    }

    @Test("the defaults help shows are the ones a run without the option uses")
    func defaultsAreTheRunsDefaults() throws {
        let command = try NormalizeCommand(arguments: ["x.png"])
        #expect(command.outputName == "out")
        #expect(command.layout.rawValue == "flat")
        #expect(command.format == .png)
        #expect(
            command.options
                == (try NormalizeCommand(arguments: [
                    "--shape", "fit", "--render", "auto", "--filter",
                    "lanczos3", "--max-pixels", "100000000", "x.png"
                ])).options)
        #expect(command.jobs == JobCount.allCores)
    }

    @Test("docs/tabicon.1 is what the declarations give now (make man regenerates it)")
    func manPageIsCurrent() throws {
        let committed = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/tabicon.1"), encoding: .utf8)
        #expect(committed == ManPage.text + "\n", "docs/tabicon.1 is stale: run make man")
    }

    @Test(
        "README.md's option tables name exactly the flags each command declares", arguments: ["normalize", "inspect", "assemble"])
    func readmeTables(command name: String) throws {
        let command = try #require(CommandDeclaration.named(name))
        let table = try #require(Self.readmeOptionTable(of: name), "README.md has no option table for \(name)")
        let declared = Set(command.options.flatMap(\.names))
        #expect(table.subtracting(declared).isEmpty, "README lists flags \(name) does not take")
        #expect(declared.subtracting(table).isEmpty, "README does not list \(name)'s flags")
    }

    @Test("README.md's preview section names every option preview refuses")
    func readmePreviewRefusals() throws {
        let section = try #require(Self.readmeSection(of: "preview"))
        for option in CommandDeclaration.preview.refused { #expect(section.contains("`\(option.longName)`")) }
    }

    /// The text under README's `### \`tabicon NAME\`` heading, up to the next heading.
    static func readmeSection(of name: String) -> String? {
        guard let readme = try? String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8),
            let start = readme.range(of: "\n### `tabicon \(name)`\n")
        else { return nil }
        let rest = readme[start.upperBound...]
        let end = rest.range(of: "\n#")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The flags in the first column of the section's `| option | meaning |` table.
    static func readmeOptionTable(of name: String) -> Set<String>? {
        guard let section = readmeSection(of: name), section.contains("| option | meaning |") else { return nil }
        var flags: Set<String> = []
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let label = line.split(separator: "`", omittingEmptySubsequences: false)[1]
            for word in label.split(whereSeparator: { $0 == " " || $0 == "," }) where word.hasPrefix("-") {
                flags.insert(String(word))
            }
        }
        return flags
    }
}
