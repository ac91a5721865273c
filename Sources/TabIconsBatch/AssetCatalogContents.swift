import TabIcons
/// The `Contents.json` of an Xcode image set: one entry per 1×/2×/3× scale (a filename only where
/// that rendition was written), and always `template-rendering-intent`: left out, Xcode reads
/// "Default", which a tab bar draws as a template (a logo or an avatar becomes a silhouette).
enum AssetCatalogContents {
    static func json(files: [(scale: Double, filename: String)], intent: IconIntent) -> String {
        var images: [JSONValue] = []
        let scales = Set([1.0, 2, 3]).union(files.map(\.scale)).sorted()
        for scale in scales {
            var pairs: [(String, JSONValue)] = []
            if let file = files.first(where: { $0.scale == scale }) { pairs.append(("filename", .string(file.filename))) }
            pairs.append(("idiom", .string("universal")))
            pairs.append(("scale", .string(NumberText.decimal(scale) + "x")))
            images.append(.object(pairs))
        }
        var document: [(String, JSONValue)] = [
            ("images", .array(images)),
            ("info", .object([("author", .string("tabicon")), ("version", .int(1))])),
        ]
        document.append(("properties", .object([("template-rendering-intent", .string(intent.rawValue))])))
        return JSONValue.object(document).text() + "\n"
    }

    /// A vector image set (`--vector`): one universal, scale-free SVG, kept as a vector at run
    /// time (`preserves-vector-representation`: UIKit draws it at any size, the Large Content
    /// Viewer's too), and the intent as always.
    static func vectorJSON(filename: String, intent: IconIntent) -> String {
        let image: JSONValue = .object([("filename", .string(filename)), ("idiom", .string("universal"))])
        let document: [(String, JSONValue)] = [
            ("images", .array([image])),
            ("info", .object([("author", .string("tabicon")), ("version", .int(1))])),
            ("properties", .object([("preserves-vector-representation", .bool(true)),
                                    ("template-rendering-intent", .string(intent.rawValue))])),
        ]
        return JSONValue.object(document).text() + "\n"
    }
}
