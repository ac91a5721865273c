import TabIcons
import Foundation

/// The files one normalized icon becomes, and its manifest row: the steps between the normalizer
/// and the disk, each named (encode, name, manifest row). Paths come from the output plan, never
/// worked out again here. An image set's `Contents.json` is not one of them: it lists the icon's
/// dark twin's files too, so the batch makes it once for the unit (`UnitRunner`).
struct IconFiles {
    struct File: Sendable, Equatable {
        let path: String
        let bytes: [UInt8]
    }

    /// The renditions' files, in the order of `renditions`, or the vector (`--vector`).
    let files: [File]
    let renditions: [Manifest.RenditionEntry]
    let vectorFile: Manifest.FileEntry?

    /// `vector`: the vector's bytes, written at the plan's `vectorPath` instead of renditions.
    init(_ icon: NormalizedIcon, plan: OutputPlan.Icon, format: OutputFormat, vector: [UInt8]? = nil) throws(TabIconsError) {
        if let vector, let path = plan.vectorPath {
            renditions = []
            vectorFile = Manifest.FileEntry(path: path, bytes: vector.count, hash: ContentHash(of: vector))
            files = [File(path: path, bytes: vector)]
            return
        }
        vectorFile = nil
        var files: [File] = []
        var renditions: [Manifest.RenditionEntry] = []
        for rendition in icon.renditions {
            guard let path = plan.path(forScale: rendition.scale) else { continue }
            let bytes = try format.encode(rendition.bitmap)
            files.append(File(path: path, bytes: bytes))
            renditions.append(
                Manifest.RenditionEntry(
                    scale: rendition.scale, path: path, pixelWidth: rendition.bitmap.width,
                    pixelHeight: rendition.bitmap.height, bytes: bytes.count, hash: ContentHash(of: bytes)))
        }
        self.files = files
        self.renditions = renditions
    }

    /// The icon's manifest row.
    func manifestIcon(input: String, plan: OutputPlan.Icon, icon: NormalizedIcon, contentHash: ContentHash) -> Manifest.Icon {
        var row = Manifest.Icon(
            input: input, name: OutputLayout.iconName(stem: plan.stem), icon: icon, contentHash: contentHash,
            renditions: renditions)
        row.vectorFile = vectorFile
        return row
    }
}
