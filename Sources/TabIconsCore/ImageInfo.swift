/// What is known about a source image apart from its pixels: what `inspect` reports and what the
/// normalizer carries into its result.
public struct ImageInfo: Sendable, Equatable {
    /// How the source stores colour.
    public enum ColorModel: String, Sendable, Equatable, Codable {
        case gray, grayAlpha, rgb, rgba, palette, ycbcr, cmyk, ycck
    }

    public var format: ImageFormat
    /// The full source size in pixels, after orientation (what the manifest reports).
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Whether the file carries alpha (an alpha channel, tRNS, or WebP alpha).
    public var hasAlpha: Bool
    /// Whether any decoded pixel is not fully opaque.
    public var hasTransparentPixels: Bool
    /// The EXIF orientation found in the file (`.up` when absent); already applied to the pixels.
    public var orientation: Orientation
    /// True for an animated WebP or APNG; the pixels are then the first (default) frame.
    public var isAnimated: Bool
    /// Bits per sample in the source (1, 2, 4, 8, 12, 16).
    public var bitDepth: Int
    public var colorModel: ColorModel
    /// True for SVG: the size is the intrinsic size in CSS px, and renditions are drawn from the
    /// document at their own size (SPEC §3, vectors fill the box).
    public var isVector: Bool
    /// A vector's exact intrinsic size in CSS px (`pixelWidth`/`pixelHeight` are it in whole
    /// pixels): what its decode scale is taken from (`IconBox.decodeScale(of:)`). nil for rasters.
    package var intrinsicSize: IntrinsicSize?

    /// A fractional size (a vector's intrinsic size).
    package struct IntrinsicSize: Sendable, Equatable {
        package var width: Double
        package var height: Double
        package init(width: Double, height: Double) { (self.width, self.height) = (width, height) }
    }

    public init(
        format: ImageFormat, pixelWidth: Int, pixelHeight: Int, hasAlpha: Bool,
        hasTransparentPixels: Bool, orientation: Orientation = .up, isAnimated: Bool = false,
        bitDepth: Int, colorModel: ColorModel, isVector: Bool = false
    ) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.hasAlpha = hasAlpha
        self.hasTransparentPixels = hasTransparentPixels
        self.orientation = orientation
        self.isAnimated = isAnimated
        self.bitDepth = bitDepth
        self.colorModel = colorModel
        self.isVector = isVector
    }
}
