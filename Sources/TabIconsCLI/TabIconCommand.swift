import TabIcons
import TabIconsBatch

/// `tabicon`: the entry point. Parses the subcommand and returns the exit status of SPEC §6:
/// 0 every input done, 1 some input failed (the rest still done), 2 a usage mistake.
public enum TabIconCommand {
    public enum ExitStatus: Int32 {
        case success = 0
        case someInputsFailed = 1
        case usage = 2
        /// Stopped by SIGINT (128 + 2) or SIGTERM (128 + 15), SPEC §6a.
        case interrupted = 130
        case terminated = 143
    }

    /// The program's entry: `tabicon __worker` is a jailed worker (`IconWorker`, started by the
    /// batch, never by a person); anything else is a command, whose inputs are rendered in
    /// workers running this very executable (`WorkerJail.currentExecutable`).
    public static func main(_ arguments: [String]) -> Int32 {
        if arguments.first == WorkerJail.workerArgument {
            return IconWorker.serve(testFaults: arguments == [WorkerJail.workerArgument, WorkerJail.testFaultsArgument])
        }
        StopSignals.install()
        return run(arguments, jail: .currentExecutable).rawValue
    }

    /// One command. `jail` nil renders in process: how tests drive the CLI inside their own
    /// process, whose executable is not `tabicon`.
    static func run(_ arguments: [String], jail: WorkerJail? = nil) -> ExitStatus {
        let console = Console()
        guard let command = arguments.first else {
            console.err(usage)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if let help = commandUsage[command], ParsedArguments.asksForHelp(rest) {
            console.out(help)
            return .success
        }
        do throws(ParsedArguments.UsageError) {
            switch command {
            case "-h", "--help", "help":
                console.out(usage)
                return .success
            case "-V", "--version", "version":
                console.out("tabicon \(TabIconsVersion.current)")
                return .success
            case "inspect":
                return try InspectCommand(arguments: rest).run(console: console, jail: jail)
            case "normalize":
                return try NormalizeCommand(arguments: rest).run(console: console, jail: jail)
            case "preview":
                return try PreviewCommand(arguments: rest).run(console: console, jail: jail)
            default:
                throw ParsedArguments.UsageError(description: "unknown command '\(command)'")
            }
        } catch {
            console.err("tabicon: \(error.description)\nRun 'tabicon --help' for usage.")
            return .usage
        }
    }

    /// Each command's own `--help`.
    static let commandUsage: [String: String] = [
        "normalize": normalizeUsage,
        "inspect": inspectUsage,
        "preview": previewUsage,
    ]

    static let usage = """
    tabicon \(TabIconsVersion.current): fit icons into the tab-bar icon box (PNG, JPEG, WebP, SVG)

    usage:
      tabicon normalize [options] <file|dir|->...   normalize icons into 1x/2x/3x renditions
      tabicon inspect [--json] <file|dir|->...      describe icons; decodes, writes nothing
      tabicon preview [normalize options] -o FILE.html <file|dir|->...
                                                    one self-contained page showing every icon in
                                                    iOS and Material tab bars; writes only FILE.html
      tabicon --help | --version
      tabicon COMMAND --help                        one command's options

    Directories are walked for .png .jpg .jpeg .webp .svg .svgz; '-' reads stdin. Exit status: 0 all
    inputs done, 1 some inputs failed (every good one still done), 2 usage.
    """

    static let normalizeUsage = """
    usage: tabicon normalize [options] <file|dir|->...

    Normalizes icons into 1x/2x/3x (or Android density) renditions under --out, with a manifest.

    options:
      -o, --out DIR              output root, mirroring the input tree (default: out)
      --box regular|compact|material|POINTS
                                 the icon box in points (default regular = 25; android: material = 24)
      --scales 1,2,3             screen scales (default 1,2,3; android: 1,1.5,2,3,4)
      --layout flat|xcassets|android
                                 flat: name.png, name@2x.png, name@3x.png
                                 xcassets: name.imageset/ with Contents.json
                                 android: drawable-mdpi..xxxhdpi/name.png
      --format png|webp          output format (default png; webp is lossless unless --quality)
      --quality Q                lossy WebP quality, 0-100
      --shape fit|square|circle  fit (default), centre on a square, or crop to a circle (avatars)
      --trim                     crop fully transparent margins first
      --render original|template|template-luminance
      --filter lanczos3|mitchell|triangle|box   (default lanczos3)
      --allow-upscale            render scales larger than the source instead of skipping them
      --jobs N                   parallel decodes (default: all cores)
      --max-pixels N             refuse images above N pixels (default 100000000)
      --manifest FILE            where to write the manifest (default OUT/manifest.json)
      --json                     print the manifest on stdout
      --preview FILE             also write the preview page (as 'tabicon preview') for this run
      --check                    write nothing; exit 0 when OUT is what a run would write, 1
                                 otherwise, one line per file that would be written/changed/removed
      --force                    redo every input (default: unchanged inputs are carried over)
      -q, --quiet                no progress, no summary (errors are still printed)
      -h, --help                 this text

    Exit status: 0 all inputs done, 1 some inputs failed (every good one still written), 2 usage,
    130 / 143 stopped by SIGINT / SIGTERM (the previous manifest and files kept).
    """

    static let previewUsage = """
    usage: tabicon preview [normalize options] -o FILE.html <file|dir|->...

    Normalizes the icons in memory, as 'tabicon normalize' would with the same options, and writes
    one self-contained HTML page showing each icon in iOS and Material tab bars (light and dark,
    unselected and selected, tinted as each platform tints), its 1x/2x/3x renditions magnified,
    its lints and the inputs that failed. Writes only FILE.html.

    options: those of 'tabicon normalize --help', except --manifest, --json, --preview, --check
    and --force (nothing but the page is written); -o names the page.

    Exit status: 0 all inputs shown, 1 some inputs failed (the page lists them), 2 usage,
    130 / 143 stopped by SIGINT / SIGTERM (no page written).
    """

    static let inspectUsage = """
    usage: tabicon inspect [options] <file|dir|->...

    Decodes each input and describes it: format, pixel size, alpha, orientation, decode scale,
    point size, content hash and lints. Writes nothing.

    options:
      --json                     print the manifest document (without renditions)
      --box regular|compact|material|POINTS
                                 the icon box the decode scale is for (default regular = 25)
      --max-pixels N             refuse images above N pixels (default 100000000)
      -h, --help                 this text

    Exit status: 0 all inputs described, 1 some inputs failed, 2 usage, 130 / 143 stopped by
    SIGINT / SIGTERM.
    """
}

extension ParsedArguments.UsageError {
    init(_ description: String) { self.init(description: description) }
}
