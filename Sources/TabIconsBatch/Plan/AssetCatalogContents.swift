import TabIcons
/// The `Contents.json` of an Xcode image set: one entry per 1×/2×/3× scale (a filename only where
/// that rendition was written), and always `template-rendering-intent`: left out, Xcode reads
/// "Default", which a tab bar draws as a template (a logo or an avatar becomes a silhouette).
///
/// With a dark twin (SPEC §6 "Twins as outputs"), each scale also gets the entry Xcode writes for
/// the "Any, Dark" appearances, right after the scale's own: the same keys plus
/// `"appearances": [{"appearance": "luminosity", "value": "dark"}]`, naming the twin's file where
/// it was written. Keys in Xcode's (alphabetical) order. One intent for the set: the icon's.
///
/// An icon written as a vector (`--vector`) is a single-scale set: one universal, scale-free SVG
/// kept as a vector at run time (`preserves-vector-representation`: UIKit draws it at any size,
/// the Large Content Viewer's too), its dark twin's vector as the set's dark entry. A pair where
/// one fell back to PNG renditions and the other did not lists each as it was written (the vector
/// scale-free, the renditions at their scales).
enum AssetCatalogContents {
    /// The image set's `Contents.json` for an icon's manifest row and its dark twin's (nil when it
    /// has none): the file names are the last components of the rows' paths.
    static func json(icon: Manifest.Icon, intent: IconIntent, darkTwin: Manifest.Icon?) -> String {
        func names(_ row: Manifest.Icon) -> [(scale: Double, filename: String)] {
            (row.renditions ?? []).map { (scale: $0.scale, filename: OutputDirectory.split($0.path).name) }
        }
        let darkVector = darkTwin?.vectorFile.map {
            entry(scale: nil, file: OutputDirectory.split($0.path).name, appearances: darkAppearance)
        }
        guard let vector = icon.vectorFile else {
            let images = scaled(names(icon), dark: darkVector == nil ? darkTwin.map(names) : nil)
            return document(images: images + (darkVector.map { [$0] } ?? []), vector: false, intent: intent)
        }
        var images = [entry(scale: nil, file: OutputDirectory.split(vector.path).name, appearances: nil)]
        if let darkVector {
            images.append(darkVector)
        } else if let darkTwin {
            images += names(darkTwin).map { entry(scale: $0.scale, file: $0.filename, appearances: darkAppearance) }
        }
        return document(images: images, vector: true, intent: intent)
    }

    /// A symbol set's `Contents.json` (`--symbols`): its one template, as Xcode writes it for a
    /// symbol image set (`info`, `symbols`; no scales, no appearances: a symbol is tinted).
    static func symbolSet(filename: String) -> String {
        let document: [(String, JSONValue)] = [
            ("info", .object([("author", .string("tabicon")), ("version", .int(1))])),
            ("symbols", .array([.object([("filename", .string(filename)), ("idiom", .string("universal"))])]))
        ]
        return JSONValue.object(document).text() + "\n"
    }

    /// Computed: LeakSanitizer reported a global `JSONValue` as a leak (when it was an indirect enum).
    private static var darkAppearance: JSONValue {
        .array([.object([("appearance", .string("luminosity")), ("value", .string("dark"))])])
    }

    /// One entry a scale (1×, 2×, 3× and any other written), each followed by its dark entry.
    private static func scaled(
        _ files: [(scale: Double, filename: String)],
        dark: [(scale: Double, filename: String)]?
    ) -> [JSONValue] {
        var images: [JSONValue] = []
        let scales = Set([1.0, 2, 3]).union(files.map(\.scale)).union((dark ?? []).map(\.scale)).sorted()
        for scale in scales {
            images.append(entry(scale: scale, file: files.first { $0.scale == scale }?.filename, appearances: nil))
            if let dark {
                images.append(entry(scale: scale, file: dark.first { $0.scale == scale }?.filename, appearances: darkAppearance))
            }
        }
        return images
    }

    /// An image entry; a vector's has no scale.
    private static func entry(scale: Double?, file: String?, appearances: JSONValue?) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        if let appearances { pairs.append(("appearances", appearances)) }
        if let file { pairs.append(("filename", .string(file))) }
        pairs.append(("idiom", .string("universal")))
        if let scale { pairs.append(("scale", .string(NumberText.decimal(scale) + "x"))) }
        return .object(pairs)
    }

    private static func document(images: [JSONValue], vector: Bool, intent: IconIntent) -> String {
        var properties: [(String, JSONValue)] = []
        if vector { properties.append(("preserves-vector-representation", .bool(true))) }
        properties.append(("template-rendering-intent", .string(intent.rawValue)))
        let document: [(String, JSONValue)] = [
            ("images", .array(images)),
            ("info", .object([("author", .string("tabicon")), ("version", .int(1))])),
            ("properties", .object(properties))
        ]
        return JSONValue.object(document).text() + "\n"
    }
}
