import TabIcons
/// The `Contents.json` of an Xcode image set: one entry per 1×/2×/3× scale (a filename only where
/// that rendition was written), and always `template-rendering-intent`: left out, Xcode reads
/// "Default", which a tab bar draws as a template (a logo or an avatar becomes a silhouette).
///
/// With a dark twin (SPEC §6 "Twins as outputs"), each scale also gets the entry Xcode writes for
/// the "Any, Dark" appearances, right after the scale's own: the same keys plus
/// `"appearances": [{"appearance": "luminosity", "value": "dark"}]`, naming the twin's file where
/// it was written. Keys in Xcode's (alphabetical) order. One intent for the set: the icon's.
enum AssetCatalogContents {
    static func json(files: [(scale: Double, filename: String)], dark: [(scale: Double, filename: String)]? = nil,
                     intent: IconIntent) -> String {
        var images: [JSONValue] = []
        let scales = Set([1.0, 2, 3]).union(files.map(\.scale)).union((dark ?? []).map(\.scale)).sorted()
        let darkAppearance = JSONValue.array([.object([("appearance", .string("luminosity")), ("value", .string("dark"))])])
        for scale in scales {
            images.append(entry(scale: scale, file: files.first { $0.scale == scale }?.filename, appearances: nil))
            if let dark {
                images.append(entry(scale: scale, file: dark.first { $0.scale == scale }?.filename, appearances: darkAppearance))
            }
        }
        var document: [(String, JSONValue)] = [
            ("images", .array(images)),
            ("info", .object([("author", .string("tabicon")), ("version", .int(1))])),
        ]
        document.append(("properties", .object([("template-rendering-intent", .string(intent.rawValue))])))
        return JSONValue.object(document).text() + "\n"
    }

    private static func entry(scale: Double, file: String?, appearances: JSONValue?) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        if let appearances { pairs.append(("appearances", appearances)) }
        if let file { pairs.append(("filename", .string(file))) }
        pairs.append(("idiom", .string("universal")))
        pairs.append(("scale", .string(NumberText.decimal(scale) + "x")))
        return .object(pairs)
    }

    /// The image set's `Contents.json` for an icon's manifest row and its dark twin's (nil when it
    /// has none): the file names are the last components of the renditions' paths.
    static func json(icon: Manifest.Icon, intent: IconIntent, darkTwin: Manifest.Icon?) -> String {
        func names(_ row: Manifest.Icon) -> [(scale: Double, filename: String)] {
            (row.renditions ?? []).map { (scale: $0.scale, filename: OutputDirectory.split($0.path).name) }
        }
        return json(files: names(icon), dark: darkTwin.map(names), intent: intent)
    }
}
