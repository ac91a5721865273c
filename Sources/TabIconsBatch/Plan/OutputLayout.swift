import TabIcons
/// Where an icon's renditions go inside the output root, for each of the three layouts of SPEC §6.
///
/// Paths are relative to the output root and built from the input's mirrored stem
/// (`icons/home`), so nothing can land outside it. Android alone does not mirror: its `res/`
/// holds resource-type folders only (the resource merger rejects `res/icons/drawable-mdpi/`), so
/// every icon goes straight into `drawable-<density>/` and names that meet there are told apart
/// by `OutputPlan`'s naming rule.
public enum OutputLayout: String, Sendable, CaseIterable {
    /// `icons/home.png`, `icons/home@2x.png`, `icons/home@3x.png`.
    case flat
    /// `icons/home.imageset/home.png` ... with a `Contents.json` naming each file and its scale.
    case xcassets
    /// `drawable-mdpi/home.png` ... one folder per density, flat whatever folder the input was in.
    case android

    /// Android's density buckets by scale factor (mdpi is the 1× baseline).
    public static let androidDensities: [(scale: Double, folder: String)] = [
        (0.75, "drawable-ldpi"), (1, "drawable-mdpi"), (1.5, "drawable-hdpi"), (2, "drawable-xhdpi"),
        (3, "drawable-xxhdpi"), (4, "drawable-xxxhdpi")
    ]

    /// The scales a layout renders when the user does not say: Android's five common densities,
    /// Apple's 1×, 2×, 3× otherwise.
    public var defaultScales: [Double] { self == .android ? [1, 1.5, 2, 3, 4] : [1, 2, 3] }

    /// The box a layout uses when the user does not say: Material's 24 dp on Android.
    public var defaultBox: IconBox { self == .android ? .material : .regular }

    /// The relative path of the rendition at `scale` for the input whose mirrored stem is `stem`.
    /// Returns nil for a scale the layout has no place for (an Android scale without a bucket).
    package func path(stem: String, scale: Double, fileExtension: String) -> String? {
        let (directory, name) = Self.split(stem)
        switch self {
        case .flat: return directory + name + Self.scaleSuffix(scale) + "." + fileExtension
        case .xcassets: return directory + name + ".imageset/" + name + Self.scaleSuffix(scale) + "." + fileExtension
        case .android:
            guard let bucket = Self.androidDensities.first(where: { $0.scale == scale }) else { return nil }
            return bucket.folder + "/" + Self.androidResourceName(name) + "." + fileExtension
        }
    }

    /// Where `--vector` writes an SVG input's vector (SPEC §6): `icons/home.svg`,
    /// `icons/home.imageset/home.svg`, Android's density-free `drawable/home.xml`.
    package func vectorPath(stem: String) -> String {
        let (directory, name) = Self.split(stem)
        switch self {
        case .flat: return directory + name + ".svg"
        case .xcassets: return directory + name + ".imageset/" + name + ".svg"
        case .android: return "drawable/" + Self.androidResourceName(name) + ".xml"
        }
    }

    /// Where `--symbols` writes an SVG input's custom symbol (xcassets only): the symbol set
    /// `icons/home.symbolset/home.svg`, in place of the image set.
    package func symbolPath(stem: String) -> String {
        symbolSet(stem: stem) + "/" + Self.split(stem).name + ".svg"
    }

    /// The symbol set's `Contents.json`, beside `symbolPath`.
    package func symbolContentsPath(stem: String) -> String {
        symbolSet(stem: stem) + "/Contents.json"
    }

    private func symbolSet(stem: String) -> String {
        let (directory, name) = Self.split(stem)
        return directory + name + ".symbolset"
    }

    /// Inputs `--vector` keeps as vectors: by extension, as the inputs were collected.
    static func isVectorInput(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".svg") || lower.hasSuffix(".svgz")
    }

    /// The `Contents.json` path of an xcassets image set (nil for the other layouts).
    package func contentsPath(stem: String) -> String? {
        guard self == .xcassets else { return nil }
        let (directory, name) = Self.split(stem)
        return directory + name + ".imageset/Contents.json"
    }

    /// Where a dark twin's rendition at `scale` goes (SPEC §6 "Twins as outputs"): xcassets, the
    /// icon's image set as `NAME-dark@2x.png` (NAME the icon's, whatever the twin's spelling);
    /// android, the icon's resource name in `drawable-night-<density>/`; flat, the twin's own name.
    package func darkTwinPath(iconStem: String, twinStem: String, scale: Double, fileExtension: String) -> String? {
        let (directory, name) = Self.split(iconStem)
        switch self {
        case .flat:
            return path(stem: twinStem, scale: scale, fileExtension: fileExtension)
        case .xcassets:
            return directory + name + ".imageset/" + name + "-dark" + Self.scaleSuffix(scale) + "." + fileExtension
        case .android:
            guard let bucket = Self.androidDensities.first(where: { $0.scale == scale }) else { return nil }
            // Android's qualifier order puts night before density: `drawable-night-xhdpi`.
            let folder = "drawable-night-" + bucket.folder.dropFirst("drawable-".count)
            return folder + "/" + Self.androidResourceName(name) + "." + fileExtension
        }
    }

    /// Where a dark twin's vector goes (`--vector`), beside its renditions' places.
    package func darkTwinVectorPath(iconStem: String, twinStem: String) -> String {
        let (directory, name) = Self.split(iconStem)
        switch self {
        case .flat: return vectorPath(stem: twinStem)
        case .xcassets: return directory + name + ".imageset/" + name + "-dark.svg"
        case .android: return "drawable-night/" + Self.androidResourceName(name) + ".xml"
        }
    }

    /// Android's state list for an icon with a selected twin: `drawable/NAME_selector.xml` (nil for
    /// the other layouts, which have no such file: an image set is picked by name in code).
    package func selectorPath(iconStem: String) -> String? {
        guard self == .android else { return nil }
        return "drawable/" + selectorResourceName(iconStem: iconStem) + ".xml"
    }

    /// The resource name of an icon's state list: its own resource name and `_selector`.
    func selectorResourceName(iconStem: String) -> String {
        Self.androidResourceName(Self.split(iconStem).name) + "_selector"
    }

    /// The Android resource name of the icon whose mirrored stem is `stem` (`@drawable/NAME`).
    static func androidResourceName(stem: String) -> String { androidResourceName(split(stem).name) }

    /// The icon's name (the manifest's `name`) for a mirrored stem: its last component.
    package static func iconName(stem: String) -> String { split(stem).name }

    /// `@2x`, `@1.5x`; nothing at 1×.
    static func scaleSuffix(_ scale: Double) -> String {
        scale == 1 ? "" : "@" + NumberText.decimal(scale) + "x"
    }

    /// Android resource names are Java identifiers (`R.drawable.NAME`): lowercase letters, digits
    /// and `_`, starting with a letter, not a word Java reserves (`aapt2 link` refuses `class`).
    /// Other characters become `_`; a name that does not start with a letter or is reserved gets
    /// the prefix `ic_` (`2fa` → `ic_2fa`, `class` → `ic_class`). One that then meets another
    /// input's name is told apart by `OutputPlan`'s naming rule.
    static func androidResourceName(_ name: String) -> String {
        var result = String(name.lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) ? $0 : "_" })
        if result.first.map({ !$0.isLetter }) ?? true || javaReservedWords.contains(result) { result = "ic_" + result }
        return result
    }

    /// Java's keywords and the literals `true`, `false`, `null` (JLS §3.9, §3.10); contextual
    /// keywords (`var`, `record`, ...) are legal field names.
    static let javaReservedWords: Set<String> = [
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
        "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
        "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
        "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
        "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null"
    ]

    private static func split(_ stem: String) -> (directory: String, name: String) {
        guard let slash = stem.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", stem) }
        return (String(stem[...slash]), String(stem[stem.utf8.index(after: slash)...]))
    }
}
