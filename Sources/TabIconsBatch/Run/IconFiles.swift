import TabIcons
import Foundation

/// The files one normalized icon becomes, and its manifest row: the steps between the normalizer
/// and the disk, each named (encode, name, `Contents.json`, manifest row). Paths come from the
/// output plan, never worked out again here.
struct IconFiles {
    struct File: Sendable, Equatable {
        let path: String
        let bytes: [UInt8]
    }

    /// The renditions' files, in the order of `renditions`, then the vector (`--vector`), then
    /// the image set's `Contents.json` when the layout has one.
    let files: [File]
    let renditions: [Manifest.RenditionEntry]
    let contentsFile: Manifest.FileEntry?
    let vectorFile: Manifest.FileEntry?

    /// `vector`: the vector's bytes, written at the plan's `vectorPath` instead of renditions.
    init(_ icon: NormalizedIcon, plan: OutputPlan.Icon, format: OutputFormat, vector: [UInt8]? = nil) throws(TabIconsError) {
        if let vector, let path = plan.vectorPath {
            renditions = []
            vectorFile = Manifest.FileEntry(path: path, bytes: vector.count, hash: ContentHash(of: vector))
            var files = [File(path: path, bytes: vector)]
            if let contents = plan.contentsPath {
                let json = Array(
                    AssetCatalogContents.vectorJSON(filename: OutputDirectory.split(path).name, intent: icon.intent).utf8)
                files.append(File(path: contents, bytes: json))
                contentsFile = Manifest.FileEntry(path: contents, bytes: json.count, hash: ContentHash(of: json))
            } else {
                contentsFile = nil
            }
            self.files = files
            return
        }
        vectorFile = nil
        let encoded = try Self.encode(icon.renditions, plan: plan, format: format)
        renditions = encoded.map(Self.renditionEntry)
        var files = encoded.map { File(path: $0.path, bytes: $0.bytes) }
        if let contents = Self.contentsJSON(encoded, plan: plan, intent: icon.intent) {
            files.append(contents)
            contentsFile = Manifest.FileEntry(
                path: contents.path, bytes: contents.bytes.count,
                hash: ContentHash(of: contents.bytes))
        } else {
            contentsFile = nil
        }
        self.files = files
    }

    /// Step 1 and 2: every rendition encoded, at the path the plan gave its scale.
    private static func encode(_ renditions: [Rendition], plan: OutputPlan.Icon, format: OutputFormat)
        throws(TabIconsError) -> [(path: String, bytes: [UInt8], rendition: Rendition)]
    {
        var encoded: [(path: String, bytes: [UInt8], rendition: Rendition)] = []
        for rendition in renditions {
            guard let path = plan.path(forScale: rendition.scale) else { continue }
            encoded.append((path, try format.encode(rendition.bitmap), rendition))
        }
        return encoded
    }

    /// Step 3: the image set's `Contents.json`, for the layouts that have one.
    private static func contentsJSON(
        _ encoded: [(path: String, bytes: [UInt8], rendition: Rendition)],
        plan: OutputPlan.Icon, intent: IconIntent
    ) -> File? {
        guard let path = plan.contentsPath else { return nil }
        let names = encoded.map { (scale: $0.rendition.scale, filename: OutputDirectory.split($0.path).name) }
        return File(path: path, bytes: Array(AssetCatalogContents.json(files: names, intent: intent).utf8))
    }

    /// Step 4 (after the write): the manifest's row for one written rendition.
    private static func renditionEntry(_ file: (path: String, bytes: [UInt8], rendition: Rendition)) -> Manifest.RenditionEntry {
        Manifest.RenditionEntry(
            scale: file.rendition.scale, path: file.path,
            pixelWidth: file.rendition.bitmap.width, pixelHeight: file.rendition.bitmap.height,
            bytes: file.bytes.count, hash: ContentHash(of: file.bytes))
    }

    /// The icon's manifest row.
    func manifestIcon(input: String, plan: OutputPlan.Icon, icon: NormalizedIcon, contentHash: ContentHash) -> Manifest.Icon {
        var row = Manifest.Icon(
            input: input, name: OutputLayout.iconName(stem: plan.stem), icon: icon,
            contentHash: contentHash, renditions: renditions, contentsFile: contentsFile)
        row.vectorFile = vectorFile
        return row
    }
}
