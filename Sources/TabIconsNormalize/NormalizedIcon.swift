import TabIconsCore
import TabIconsCodecs
/// One rendered size of an icon, for one screen scale.
public struct Rendition: Sendable, Equatable {
    public var scale: Double
    public var bitmap: Bitmap

    public init(scale: Double, bitmap: Bitmap) {
        self.scale = scale
        self.bitmap = bitmap
    }
}

/// The result of normalizing one icon: its renditions, and what the rule and the lints found.
public struct NormalizedIcon: Sendable, Equatable {
    /// The decoded source's description (format, pixel size after orientation, alpha, ...).
    public var source: ImageInfo
    /// SPEC §3's decode scale (`IconBox.decodeScale`) of the icon as laid out: the source after
    /// orientation and trim for `fit`; its square canvas for `square`; the cropped square for
    /// `circle`. Always from the source's size, even when shrink-on-load decoded fewer pixels.
    public var decodeScale: Double
    /// The icon's size in points (pixels ÷ `decodeScale`), measured as `decodeScale` is.
    public var pointWidth: Double
    public var pointHeight: Double
    /// One per requested scale that was rendered, in the order of `NormalizeOptions.scales`.
    public var renditions: [Rendition]
    /// Requested scales skipped as upscales.
    public var skippedScales: [Double]
    public var lints: [Lint]
    /// How the platform is told to draw it: the run's `render`, or with `auto` the glyph's inks.
    public var intent: IconIntent
    /// For a vector: its document and where the renditions placed it (what `--vector` writes).
    package var vector: NormalizedVector?

    public init(
        source: ImageInfo, decodeScale: Double, pointWidth: Double, pointHeight: Double,
        renditions: [Rendition], skippedScales: [Double], lints: [Lint], intent: IconIntent
    ) {
        self.source = source
        self.decodeScale = decodeScale
        self.pointWidth = pointWidth
        self.pointHeight = pointHeight
        self.renditions = renditions
        self.skippedScales = skippedScales
        self.lints = lints
        self.intent = intent
    }

    /// Bytes held by the renditions' pixels (what the side table's cache accounts).
    public var pixelBytes: Int { renditions.reduce(0) { $0 + $1.bitmap.byteCount } }
}
