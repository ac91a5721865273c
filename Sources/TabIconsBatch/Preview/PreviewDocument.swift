import Foundation
import TabIcons

/// Everything the preview page shows, and nothing else: the manifest's entries plus the encoded
/// bytes of each rendition, so the page looks the same whether the renditions were just written
/// by `tabicon normalize` (and read back) or made in memory by `tabicon preview`.
public struct PreviewDocument: Sendable, Equatable {
    /// One icon that normalized: its manifest entry and its renditions' bytes, in the entry's order.
    public struct Icon: Sendable, Equatable {
        public var entry: Manifest.Icon
        public var renditions: [Rendition]
        /// Renditions the manifest lists whose file could not be read back, with the reason.
        public var unreadable: [String]
        /// `--vector` on Android: the VectorDrawable (its path below the output root) that the
        /// page shows by the SVG form of the same drawing, since no browser draws one.
        public var vectorDrawable: String?

        package init(entry: Manifest.Icon, renditions: [Rendition], unreadable: [String] = []) {
            self.entry = entry
            self.renditions = renditions
            self.unreadable = unreadable
        }

        /// How the page draws it in the bars, which is how the platform will: by the intent the
        /// run decided and wrote (`IconIntent`; every entry a run writes has one).
        public var intent: IconIntent { entry.intent ?? .original }

        /// An SVG shown at each scale's size (the point size times the scale), as its renditions would be.
        static func svgRenditions(_ bytes: [UInt8], entry: Manifest.Icon, scales: [Double]) -> [Rendition] {
            scales.map { scale in
                Rendition(
                    scale: scale, pixelWidth: max(1, Int((entry.pointWidth * scale).rounded())),
                    pixelHeight: max(1, Int((entry.pointHeight * scale).rounded())), bytes: bytes)
            }
        }
    }

    /// One encoded rendition (PNG or WebP bytes, as written).
    public struct Rendition: Sendable, Equatable {
        public var scale: Double
        public var pixelWidth: Int
        public var pixelHeight: Int
        public var bytes: [UInt8]

        package init(scale: Double, pixelWidth: Int, pixelHeight: Int, bytes: [UInt8]) {
            self.scale = scale
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.bytes = bytes
        }
    }

    public var tool: String
    public var box: Double
    public var scales: [Double]
    /// The run's `--render` (the page names it; each icon is tinted by its own `intent`).
    public var render: NormalizeOptions.Render
    public var icons: [Icon]
    public var errors: [Manifest.ErrorEntry]

    package init(
        tool: String = TabIconsVersion.tool, box: Double, scales: [Double],
        render: NormalizeOptions.Render, icons: [Icon], errors: [Manifest.ErrorEntry]
    ) {
        self.tool = tool
        self.box = box
        self.scales = scales
        self.render = render
        self.icons = icons
        self.errors = errors
    }

    /// The document for a run that wrote its renditions under `outputRoot`: each file the manifest
    /// lists is read back (paths are relative to the output root). A file that cannot be read is
    /// named on its icon's card rather than failing the page: the page shows what is there.
    public init(manifest: Manifest, render: NormalizeOptions.Render, outputRoot: URL) {
        var root = outputRoot.path
        if !root.hasSuffix("/") { root += "/" }
        func read(_ path: String) throws(TabIconsError) -> [UInt8] {
            [UInt8](try InputReader.read(URL(fileURLWithPath: root + path), limit: 64 << 20))
        }
        let icons = manifest.icons.map { entry -> Icon in
            var renditions: [Rendition] = []
            var unreadable: [String] = []
            for file in entry.renditions ?? [] {
                do throws(TabIconsError) {
                    renditions.append(
                        Rendition(
                            scale: file.scale, pixelWidth: file.pixelWidth, pixelHeight: file.pixelHeight,
                            bytes: try read(file.path)))
                } catch {
                    unreadable.append("\(file.path): \(error.message)")
                }
            }
            // `--vector`: an icon kept as an SVG is shown by that SVG at each scale's size (a
            // VectorDrawable, which no browser draws, by `showingVectorDrawables`).
            if let vector = entry.vectorFile, vector.path.hasSuffix(".svg"), renditions.isEmpty {
                do throws(TabIconsError) {
                    renditions = Icon.svgRenditions(try read(vector.path), entry: entry, scales: manifest.scales)
                } catch {
                    unreadable.append("\(vector.path): \(error.message)")
                }
            }
            return Icon(entry: entry, renditions: renditions, unreadable: unreadable)
        }
        self.init(
            tool: manifest.tool, box: manifest.box, scales: manifest.scales, render: render,
            icons: icons, errors: manifest.errors)
    }

    /// The icons kept as VectorDrawables (`--vector --layout android`) shown by the SVG form of
    /// the same drawing, which `run` (the batch's, with the flat layout) makes again in memory
    /// from `inputs`, matched by name. An input that no longer converts keeps its card alone.
    public func showingVectorDrawables(_ inputs: [BatchInput], run: PreviewRun) -> PreviewDocument {
        let shown = icons.indices.filter {
            icons[$0].renditions.isEmpty && icons[$0].entry.vectorFile?.path.hasSuffix(".xml") == true
        }
        guard !shown.isEmpty else { return self }
        let byName = Dictionary(inputs.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        let wanted = shown.compactMap { byName[icons[$0].entry.input] }
        var run = run
        run.layout = .flat
        run.vector = true
        var svgs: [String: [UInt8]] = [:]
        for icon in run.run(wanted).icons {
            if let first = icon.renditions.first, icon.entry.vectorFile?.path.hasSuffix(".svg") == true {
                svgs[icon.entry.input] = first.bytes
            }
        }
        var document = self
        for index in shown {
            let entry = icons[index].entry
            guard let bytes = svgs[entry.input] else { continue }
            document.icons[index].renditions = Icon.svgRenditions(bytes, entry: entry, scales: scales)
            document.icons[index].vectorDrawable = entry.vectorFile?.path
        }
        return document
    }
}
