import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon`: the entry point. Parses the subcommand and returns the exit status of SPEC §6
/// (`ExitStatus`): 0 every input done, 1 some input failed or `--check` found changes, 2 a usage
/// mistake. The commands and their options are declared in `CommandDeclaration`.
public enum TabIconCommand {
    /// The program's entry: `tabicon __worker` is a jailed worker (`IconWorker`, started by the
    /// batch, never by a person); anything else is a command, whose inputs are rendered in
    /// workers running this very executable (`WorkerJail.currentExecutable`).
    public static func main(_ arguments: [String]) -> Int32 {
        if arguments.first == WorkerJail.workerArgument {
            let options = arguments.dropFirst()
            return IconWorker.serve(testFaults: options.contains(WorkerJail.testFaultsArgument))
        }
        StopSignals.install()
        return run(arguments, jail: .currentExecutable).rawValue
    }

    /// One command. `jail` nil renders in process: how tests drive the CLI inside their own
    /// process, whose executable is not `tabicon`.
    static func run(_ arguments: [String], jail: WorkerJail? = nil, console: Console = Console()) -> ExitStatus {
        guard let command = arguments.first else {
            console.errText(HelpText.usage)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if ParsedArguments.asksForHelp(rest), let help = usage(of: command) {
            console.outText(help)
            return .success
        }
        do throws(ParsedArguments.UsageError) {
            switch command {
            case "-h", "--help", "help":
                console.outText(HelpText.usage)
                return .success
            case "-V", "--version", "version":
                console.out(TabIconsVersion.tool)
                return .success
            case "inspect":
                return try InspectCommand(arguments: rest).run(console: console, jail: jail)
            case "normalize":
                return try NormalizeCommand(arguments: rest).run(console: console, jail: jail)
            case "preview":
                return try PreviewCommand(arguments: rest).run(console: console, jail: jail)
            case "render":
                return try RenderCommand(arguments: rest).run(console: console, jail: jail)
            case "assemble":
                return try AssembleCommand(arguments: rest).run(console: console)
            case "completions":
                return try CompletionsCommand(arguments: rest).run(console: console)
            case PackageCommands.iconCommand:
                return try PackageCommands.icon(rest, console: console, jail: jail)
            case PackageCommands.namesCommand:
                return try PackageCommands.names(rest, console: console)
            case "manual":
                _ = try ParsedArguments(rest, command: .manual)
                console.outText(ManPage.text)
                return .success
            default:
                throw ParsedArguments.UsageError(description: unknownCommand(command))
            }
        } catch {
            console.err("tabicon: \(error.description)")
            console.err(helpHint(command))
            return .usage
        }
    }

    /// The line after a usage error: the command's own help (`Run 'tabicon preview --help' for its
    /// options.`), or the top-level help for a word that is no command a user is shown.
    static func helpHint(_ command: String) -> String {
        guard let declaration = CommandDeclaration.named(command), !declaration.hidden else {
            return "Run 'tabicon --help' for usage."
        }
        return "Run 'tabicon \(declaration.name) --help' for its options."
    }

    /// A command's own `--help`, made only when asked for: every run passes here, and the help
    /// of all commands is a millisecond of text.
    static func usage(of command: String) -> String? {
        CommandDeclaration.named(command).map(HelpText.usage(of:))
    }

    /// `unknown command 'normalise' (did you mean normalize?)`; a path given without a command
    /// (`tabicon icons/`) is answered with the command that takes it.
    static func unknownCommand(_ word: String) -> String {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: word, isDirectory: &isDirectory)
        if word.hasSuffix("/") || (exists && isDirectory.boolValue) {
            return "unknown command '\(word)'; to normalize a folder: tabicon normalize \(word)"
        }
        let looksLikeImage = InputCollector.imageExtensions.contains((word as NSString).pathExtension.lowercased())
        if exists || looksLikeImage || word.contains("/") {
            return "unknown command '\(word)'; to normalize a file: tabicon normalize \(word)"
        }
        let known = CommandDeclaration.visible.map(\.name) + ["help", "version", "--help", "--version"]
        let hint = Suggestion.closest(to: word, among: known).map { " (did you mean \($0)?)" } ?? ""
        return "unknown command '\(word)'\(hint)"
    }
}
