import TabIcons
import Foundation

/// `ItemIcons` from what a `normalize` run wrote: a tab item is an icon and its selected twin, as
/// the manifest links them. Here, not beside `ItemIcons`, because the table cannot see `Manifest`,
/// and a run's files are read through `OutputDirectory` (no link followed, plain paths only).
extension ItemIcons {
    /// The item for `entry`: its rendition at `scale` as the icon and its selected twin's (the
    /// entry of `manifest` whose input `entry.selectedTwin` names) as the selected icon. With
    /// `dark`, each one's dark twin stands in where it has one (what the bar shows in dark
    /// appearance). `scale` nil takes each icon's largest rendition (the table normalizes the
    /// bytes again for its own box); an icon with no rendition at `scale` has no bytes (nil).
    /// Paths are relative to `outputRoot`, read as the run wrote them.
    public init(
        entry: Manifest.Icon, in manifest: Manifest, outputRoot: URL, scale: Double? = nil,
        dark: Bool = false
    ) throws(TabIconsError) {
        let directory = try OutputDirectory(root: outputRoot.path, create: false, sparing: [])
        func row(input: String?) -> Manifest.Icon? {
            input.flatMap { input in manifest.icons.first { $0.input == input } }
        }
        func shown(_ icon: Manifest.Icon) -> Manifest.Icon {
            dark ? row(input: icon.darkTwin) ?? icon : icon
        }
        func bytes(_ icon: Manifest.Icon?) throws(TabIconsError) -> Data? {
            guard let icon else { return nil }
            let renditions = icon.renditions ?? []
            let chosen =
                scale.map { scale in renditions.first { $0.scale == scale } }
                ?? renditions.max { $0.pixelWidth * $0.pixelHeight < $1.pixelWidth * $1.pixelHeight }
            guard let chosen else { return nil }
            guard RelativePath.isPlain(chosen.path) else {
                throw TabIconsError(
                    .io, "the manifest's path \(chosen.path.debugDescription) is not a plain path below the output folder")
            }
            guard let read = try directory.read(chosen.path) else {
                throw TabIconsError(.io, "\(chosen.path) is not in \(outputRoot.path)")
            }
            return Data(read)
        }
        self.init(icon: try bytes(shown(entry)), selectedIcon: try bytes(row(input: entry.selectedTwin).map(shown)))
    }
}
