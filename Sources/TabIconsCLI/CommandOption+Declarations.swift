import TabIcons
import TabIconsBatch

/// Every option of `tabicon`, each declared once. A command lists the ones it takes
/// (`CommandDeclaration`); commands that share an option share its declaration, so its
/// spelling, default and help are the same wherever it appears.
///
/// Defaults the library owns are read from it (`NormalizeOptions()`, `OutputLayout`,
/// `DecodeOptions.Limits.default`), not restated here.
extension CommandOption {
    static let out = CommandOption(
        "out", short: "o", value: .directory("DIR"), default: .value("out"),
        help: "output root, mirroring the input tree (android: flat, since res/ holds resource folders only)")

    /// `preview`'s `-o`: the same spelling as `normalize`'s, but it names the page, not a folder.
    static let page = CommandOption(
        "out", short: "o", value: .file("FILE.html"),
        help: "the page to write (required); nothing else is written")

    /// `render`'s and `assemble`'s `-o`: the same spelling, no default (a build action names its output).
    static let emptyOut = CommandOption(
        "out", short: "o", value: .directory("DIR"),
        help: "the folder to write into (required): empty, or made when missing; nothing is read from it")

    static let box = CommandOption(
        "box", value: .choice(["regular", "compact", "material"], or: "POINTS"),
        default: .described("regular; with --layout android, material"),
        help: "the icon box in points: regular \(points(.regular)), compact \(points(.compact)), "
            + "material \(points(.material)), or any positive number")

    /// `inspect`'s `--box`: the same value and help, without the layout `inspect` does not take.
    static let inspectBox = CommandOption(
        "box", value: box.value, default: .value("regular"), help: box.help)

    static let scales = CommandOption(
        "scales", value: .text("1,2,3"),
        default: .described(
            "\(list(OutputLayout.flat.defaultScales)); with --layout android, \(list(OutputLayout.android.defaultScales))"),
        help: "screen scales to render")

    static let layout = CommandOption(
        "layout", value: .choice(OutputLayout.allCases.map(\.rawValue)), default: .value(OutputLayout.flat.rawValue),
        help: "flat: name.png, name@2x.png, name@3x.png; xcassets: name.imageset/ with Contents.json; "
            + "android: drawable-mdpi..xxxhdpi/name.png, box material and scales "
            + "\(list(OutputLayout.android.defaultScales)) unless --box or --scales say otherwise")

    static let format = CommandOption(
        "format", value: .choice(OutputFormatName.allCases.map(\.rawValue)), default: .value(OutputFormatName.png.rawValue),
        help: "output format; webp is lossless unless --quality")

    static let quality = CommandOption(
        "quality", value: .text("Q"),
        help: "lossy WebP quality, 0-100 (--format webp only)")

    static let shape = CommandOption(
        "shape", value: .choice(NormalizeOptions.Shape.allCases.map(\.rawValue)),
        default: .value(NormalizeOptions().shape.rawValue),
        help: "fit the aspect inside the box, centre it on a square, or crop to a circle (avatars)")

    static let trim = CommandOption(
        "trim",
        help: "crop fully transparent margins first")

    static let render = CommandOption(
        "render", value: .choice(NormalizeOptions.Render.allCases.map(\.rawValue)),
        default: .value(NormalizeOptions().render.rawValue),
        help: "auto: keep the pixels and mark one-ink icons template, the rest original; original: keep colour; "
            + "or make a template a tab bar tints (colour dropped, alpha kept; or alpha from darkness, "
            + "for opaque dark-on-light glyphs). Contents.json always names the intent")

    static let filter = CommandOption(
        "filter", value: .choice(NormalizeOptions.Filter.allCases.map(\.rawValue)),
        default: .value(NormalizeOptions().filter.rawValue),
        help: "resampling filter")

    static let padding = CommandOption(
        "padding", value: .text("POINTS|PERCENT%"),
        default: .value(NormalizeOptions().padding.description),
        help: "clear space kept on every side of the glyph, in points or as a percentage of the box: the glyph "
            + "is fitted into the box less twice the padding, on a canvas that adds it back")

    static let strokeWidth = CommandOption(
        "stroke-width", value: .text("POINTS"),
        help: "SVG strokes redrawn so the glyph's stroke weight (the median of its stroke widths by length) is "
            + "POINTS at 1x once fitted, thinner details in proportion; the PNGs, vector files and measures agree. "
            + "Rasters and drawings without strokes stay as drawn (lint stroke-width-not-applied)")

    static let fit = CommandOption(
        "fit", value: .text("box|optical|POINTS"), default: .value("box"),
        help: "box: the decode-scale rule fits the glyph's bounds into the box; optical: each glyph scaled so its "
            + "optical size is its set's median (the icons of a run, or of a config set); POINTS: that optical "
            + "size. Within the box, never past the rule's upscale limits; the point size and decode scale say "
            + "what was done")

    static let centre = CommandOption(
        "centre", value: .choice(["box", "optical"]), default: .value("box"),
        help: "optical: a glyph the off-centre lint flags (its bounds and its weight off the box's centre the same "
            + "way) moved toward the centre, at most 1 pt an axis; box: placed by the rule")

    static let vector = CommandOption(
        "vector",
        help: "SVG inputs kept as vectors: xcassets a single-scale SVG image set (preserves-vector-representation), "
            + "android a VectorDrawable (drawable/NAME.xml), flat NAME.svg; PNG renditions where the format cannot "
            + "hold the drawing (lint vector-fallback)")

    static let symbols = CommandOption(
        "symbols",
        help: "SVG inputs as custom SF Symbols (asset catalogs only): NAME.symbolset/NAME.svg, template 3.0 with "
            + "Ultralight, Regular and Black sources that interpolate (Xcode 13+); an image set where a symbol "
            + "cannot hold the drawing, and for rasters (lint symbol-fallback)")

    static let symbolWeights = CommandOption(
        "symbol-weights", value: .text("ULTRALIGHT,BLACK"), default: .value("0.4,1.8"),
        help: "--symbols: the stroke-width factors of the Ultralight and Black sources against the drawing "
            + "(Regular); Apple's own are about 0.38 and 1.8")

    static let allowUpscale = CommandOption(
        "allow-upscale",
        help: "render scales larger than the source instead of skipping them")

    static let config = CommandOption(
        "config", value: .file("FILE"), default: .described("./\(ConfigOptions.defaultFile) when present"),
        help: "per-icon settings, JSON: {\"options\": {...}, \"icons\": [{\"match\": \"GLOB\", ...}]}, keys the long "
            + "options without dashes; precedence: defaults, options, the command line, then each matching icons entry")

    /// `render`'s `--config`: `normalize`'s, read only when given (a render reads nothing it is not handed).
    static let givenConfig = CommandOption(
        "config", value: .file("FILE"),
        help: "per-icon settings as normalize's --config; ./\(ConfigOptions.defaultFile) is not looked for")

    static let jobs = CommandOption(
        "jobs", value: .text("N"), default: .described("all cores"),
        help: "parallel workers, 1 to \(NormalizeCommand.maxJobs); the output is the same for any N")

    static let maxPixels = CommandOption(
        "max-pixels", value: .text("N"), default: .value(String(DecodeOptions.Limits.default.maxPixels)),
        help: "refuse images above N pixels")

    static let manifest = CommandOption(
        "manifest", value: .file("FILE"),
        default: .described(
            "OUT/\(BatchNormalizer.defaultManifestName); with --layout android, "
                + "OUT\(NormalizeCommand.androidManifestSuffix) beside OUT, since res/ holds resource folders only"),
        help: "where to write the manifest (normalize keeps its stat cache and journal beside it)")

    static let json = CommandOption(
        "json",
        help: "print the manifest on stdout (inspect: without renditions)")

    static let preview = CommandOption(
        "preview", value: .file("FILE"),
        help: "also write the preview page (as 'tabicon preview') for this run, from the files it wrote")

    static let check = CommandOption(
        "check",
        help: "write nothing; exit 0 when OUT is what a run would write, 1 otherwise, "
            + "one line per file that would be written, changed or removed (for CI)")

    static let force = CommandOption(
        "force",
        help: "redo every input (without it, inputs unchanged since the previous manifest are carried over)")

    static let verify = CommandOption(
        "verify",
        help:
            "read and hash every input and recorded file (without it, a file whose size, times, inode and device are as recorded is not read)"
    )

    static let quiet = CommandOption(
        "quiet", short: "q",
        help: "no progress, no summary (errors are still printed)")

    /// Every command answers it (before any other parsing; `ParsedArguments.asksForHelp`).
    static let help = CommandOption(
        "help", short: "h",
        help: "this text")

    private static func points(_ box: IconBox) -> String { NumberText.decimal(box.points) }
    private static func list(_ scales: [Double]) -> String { scales.map(NumberText.decimal).joined(separator: ",") }
}

/// `--format`'s words. `OutputFormat` carries WebP's quality, so it cannot list its own cases.
enum OutputFormatName: String, CaseIterable, Sendable {
    case png, webp
}
