import TabIcons
import TabIconsBatch

/// `tabicon`: the entry point. Parses the subcommand and returns the exit status of SPEC §6:
/// 0 every input done, 1 some input failed (the rest still done), 2 a usage mistake.
public enum TabIconCommand {
    public enum ExitStatus: Int32 {
        case success = 0
        case someInputsFailed = 1
        case usage = 2
    }

    public static func main(_ arguments: [String]) -> Int32 {
        run(arguments).rawValue
    }

    static func run(_ arguments: [String]) -> ExitStatus {
        let console = Console()
        guard let command = arguments.first else {
            console.err(usage)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        do throws(ParsedArguments.UsageError) {
            switch command {
            case "-h", "--help", "help":
                console.out(usage)
                return .success
            case "-V", "--version", "version":
                console.out("tabicon \(TabIconsVersion.current)")
                return .success
            case "inspect":
                return try InspectCommand(arguments: rest).run(console: console)
            case "normalize":
                return try NormalizeCommand(arguments: rest).run(console: console)
            default:
                throw ParsedArguments.UsageError(description: "unknown command '\(command)'")
            }
        } catch {
            console.err("tabicon: \(error.description)\nRun 'tabicon --help' for usage.")
            return .usage
        }
    }

    static let usage = """
    tabicon \(TabIconsVersion.current): fit icons into the tab-bar icon box (PNG, JPEG, WebP)

    usage:
      tabicon normalize [options] <file|dir|->...   normalize icons into 1x/2x/3x renditions
      tabicon inspect [--json] <file|dir|->...      describe icons; decodes, writes nothing
      tabicon --help | --version

    normalize options:
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
      -q, --quiet                no progress, no summary (errors are still printed)

    inspect options:
      --json                     print the manifest document (without renditions)
      --box ..., --max-pixels N  as for normalize

    Directories are walked for .png .jpg .jpeg .webp .svg .svgz; '-' reads stdin. Exit status: 0 all inputs
    done, 1 some inputs failed (every good one still done), 2 usage.
    """
}

extension ParsedArguments.UsageError {
    init(_ description: String) { self.init(description: description) }
}
