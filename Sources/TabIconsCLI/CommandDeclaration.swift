import TabIcons

/// One `tabicon` command as the user meets it: its name, synopsis, what it does, the options it
/// takes (declared once, in `CommandOption+Declarations.swift`) and the ones it refuses with a
/// reason. Help, the top-level usage, completions and the man page are generated from these.
struct CommandDeclaration: Sendable {
    /// What the words after the options are.
    enum Operands: Sendable, Equatable {
        /// Files, folders or `-`.
        case inputs
        /// Folders only.
        case folders
        /// One of these words (`completions bash`).
        case word([String])
    }

    let name: String
    /// What follows `tabicon NAME` in the usage line.
    let synopsis: String
    /// One line, for the top-level usage and the man page's list of commands.
    let summary: String
    /// A paragraph, for the command's `--help` and the man page.
    let about: String
    let options: [CommandOption]
    /// Options other commands take that this one refuses, and why (`--json does not apply to
    /// preview, which writes only the page`): a clearer answer than "unknown option".
    let refused: [CommandOption]
    let refusedReason: String
    let operands: Operands
    let exitStatus: String
    /// Left out of the usage, completions and man page (a maintainer's command).
    let hidden: Bool

    init(
        _ name: String, synopsis: String, summary: String, about: String, options: [CommandOption],
        refused: [CommandOption] = [], refusedReason: String = "", operands: Operands = .inputs,
        exitStatus: String, hidden: Bool = false
    ) {
        self.name = name
        self.synopsis = synopsis
        self.summary = summary
        self.about = about
        self.options = options
        self.refused = refused
        self.refusedReason = refusedReason
        self.operands = operands
        self.exitStatus = exitStatus
        self.hidden = hidden
    }

    /// The options `--help` lists: the command's own, then `-h, --help`.
    var helpOptions: [CommandOption] { options + [.help] }

    /// The command named `name`, hidden ones included.
    static func named(_ name: String) -> CommandDeclaration? { all.first { $0.name == name } }

    /// The commands a user is shown.
    static var visible: [CommandDeclaration] { all.filter { !$0.hidden } }

    static let all: [CommandDeclaration] = [normalize, inspect, preview, render, assemble, completions, manual]
}

extension CommandDeclaration {
    static let normalize = CommandDeclaration(
        "normalize", synopsis: "[options] <file|dir|->...",
        summary: "normalize icons into 1x/2x/3x renditions",
        about: "Normalizes icons into 1x/2x/3x (or Android density) renditions under --out, with a manifest.",
        options: [
            .out, .box, .scales, .layout, .format, .quality, .shape, .trim, .render, .padding, .strokeWidth, .fit, .centre,
            .vector, .symbols, .symbolWeights,
            .filter,
            .allowUpscale, .config, .jobs, .maxPixels, .manifest, .json, .preview, .check, .force, .verify, .quiet
        ],
        exitStatus: "0 all inputs done, 1 some inputs failed (every good one still written) or --check found "
            + "changes, 2 usage, 130 / 143 stopped by SIGINT / SIGTERM (the previous manifest and files kept).")

    static let inspect = CommandDeclaration(
        "inspect", synopsis: "[options] <file|dir|->...",
        summary: "describe icons; decodes, writes nothing",
        about: "Decodes each input and describes it: format, pixel size, alpha, orientation, decode scale, "
            + "point size, content hash and lints; --json prints the manifest document without renditions. "
            + "Writes nothing.",
        options: [.json, .inspectBox, .symbols, .symbolWeights, .maxPixels],
        exitStatus: "0 all inputs described, 1 some inputs failed, 2 usage, 130 / 143 stopped by SIGINT / SIGTERM.")

    /// `normalize`'s options but the page for `-o` and none about written files.
    static let preview = CommandDeclaration(
        "preview", synopsis: "[normalize options] -o FILE.html <file|dir|->...",
        summary: "one self-contained page showing every icon in iOS and Material tab bars; writes only FILE.html",
        about: "Normalizes the icons in memory, as 'tabicon normalize' would with the same options, and writes "
            + "one self-contained HTML page showing each icon in iOS and Material tab bars (light and dark, "
            + "unselected and selected, tinted as each platform tints), its 1x/2x/3x renditions magnified, "
            + "its lints and the inputs that failed. Writes only FILE.html.",
        options: [
            .page, .box, .scales, .layout, .format, .quality, .shape, .trim, .render, .padding, .strokeWidth, .fit, .centre,
            .vector,
            .filter,
            .allowUpscale, .config, .jobs, .maxPixels, .quiet
        ],
        refused: [.manifest, .json, .preview, .check, .force, .verify, .symbols, .symbolWeights],
        refusedReason: "which writes only the page (and shows image sets, not symbols)",
        exitStatus: "0 all inputs shown, 1 some inputs failed (the page lists them), 2 usage, "
            + "130 / 143 stopped by SIGINT / SIGTERM (no page written).")

    /// `normalize`'s options for one build action (SPEC §9): no state read or kept.
    static let render = CommandDeclaration(
        "render", synopsis: "[normalize options] -o DIR <file|dir|->...",
        summary: "hermetic normalize for build actions: only the inputs' files and a fragment each, into an empty DIR",
        about: "Normalizes the inputs as 'tabicon normalize' would with the same options, for a build system's "
            + "action (Bazel, Gradle): reads only the inputs and --config, writes into an empty (or new) DIR each "
            + "input's files as that input alone would have them and NAME.tabicon.json, its manifest entry; no "
            + "manifest, cache, journal or lock, no time or absolute path, so the same inputs give the same bytes "
            + "on any machine. Twins are paired by 'tabicon assemble'.",
        options: [
            .emptyOut, .box, .scales, .layout, .format, .quality, .shape, .trim, .render, .padding, .strokeWidth, .fit, .centre,
            .vector, .symbols, .symbolWeights,
            .filter,
            .allowUpscale, .givenConfig, .jobs, .maxPixels, .quiet
        ],
        refused: [.manifest, .json, .preview, .check, .force, .verify],
        refusedReason: "which keeps no state (each input's record is its NAME.tabicon.json)",
        exitStatus: "0 all inputs rendered, 1 some inputs failed (nothing of theirs written), 2 usage, "
            + "130 / 143 stopped by SIGINT / SIGTERM.")

    static let assemble = CommandDeclaration(
        "assemble", synopsis: "[options] -o DIR <fragment-dir>...",
        summary: "merge 'tabicon render' folders into the layout's tree and one manifest, as normalize writes them",
        about: "Reads the NAME.tabicon.json fragments in each folder 'tabicon render' wrote (checking every file "
            + "against its record), pairs twins, and writes into an empty (or new) DIR the tree and manifest "
            + "'tabicon normalize' writes for the same inputs and options: image sets' Contents.json with their "
            + "dark twins, Android's state lists. Refuses fragments of different options or tabicon versions.",
        options: [.emptyOut, .manifest, .quiet],
        refused: [.layout, .box, .scales, .format, .vector, .symbols, .symbolWeights, .config],
        refusedReason: "which takes the options the fragments were rendered with", operands: .folders,
        exitStatus: "0 assembled, 1 some inputs' outputs met (listed in the manifest's errors) or the manifest "
            + "could not be written, 2 usage (a fragment missing, changed, or of other options).")

    static let completions = CommandDeclaration(
        "completions", synopsis: "bash|zsh|fish",
        summary: "print a shell completion script",
        about: "Prints a completion script for the shell: commands, each command's options, their values' "
            + "choices, and file names for paths. See README.md for where each shell looks for it.",
        options: [], operands: .word(CompletionShell.allCases.map(\.rawValue)),
        exitStatus: "0, or 2 for a shell it does not know.")

    /// `make man` writes its output to docs/tabicon.1; a test keeps that file current.
    static let manual = CommandDeclaration(
        "manual", synopsis: "", summary: "print the man page (roff)",
        about: "Prints tabicon(1) in roff, generated from the same declarations as --help.",
        options: [], operands: .word([]), exitStatus: "0.", hidden: true)
}
