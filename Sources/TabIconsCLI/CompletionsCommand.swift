/// `tabicon completions bash|zsh|fish`: prints the shell's completion script, generated from the
/// command and option declarations (`CompletionScript`).
struct CompletionsCommand {
    let shell: CompletionShell

    init(arguments: [String]) throws(ParsedArguments.UsageError) {
        let parsed = try ParsedArguments(arguments, command: .completions)
        let names = CompletionShell.allCases.map(\.rawValue).joined(separator: ", ")
        guard parsed.positionals.count == 1 else { throw .init("completions needs one shell: \(names)") }
        guard let shell = CompletionShell(rawValue: parsed.positionals[0]) else {
            throw .init("completions: unknown shell '\(parsed.positionals[0])' (use \(names))")
        }
        self.shell = shell
    }

    func run(console: Console) -> TabIconCommand.ExitStatus {
        console.outText(CompletionScript.text(for: shell))
        return .success
    }
}

/// The shells `tabicon completions` writes for.
enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish
}

/// The completion script for each shell, from `CommandDeclaration.visible`.
enum CompletionScript {
    static func text(for shell: CompletionShell) -> String {
        switch shell {
        case .bash: BashCompletion.script
        case .zsh: ZshCompletion.script
        case .fish: FishCompletion.script
        }
    }

    /// The words a user may type first besides the commands.
    static let topLevelOptions = ["--help", "--version"]
}
