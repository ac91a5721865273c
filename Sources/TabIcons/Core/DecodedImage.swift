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

    public init(format: ImageFormat, pixelWidth: Int, pixelHeight: Int, hasAlpha: Bool,
                hasTransparentPixels: Bool, orientation: Orientation = .up, isAnimated: Bool = false,
                bitDepth: Int, colorModel: ColorModel, isVector: Bool = false) {
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

/// What a decoder produced: the pixels, oriented, and what was learned about the file on the way.
public struct DecodedImage: Sendable, Equatable {
    /// 8-bit RGBA, EXIF orientation already applied. When a shrink-on-load hint was given this may
    /// be smaller than the source (never smaller than the hint asked for).
    public var bitmap: Bitmap
    public var info: ImageInfo
    /// The parsed document of a vector source, which the normalizer renders at each rendition's
    /// size (one parse for every rendition); nil for rasters. `bitmap` is then one rendering of it.
    package var vector: SVGDocument?

    /// Builds the result of a decode; `hasTransparentPixels` is read off the pixels when the file
    /// has alpha, so no decoder computes it on its own.
    public init(bitmap: Bitmap, format: ImageFormat, sourceWidth: Int, sourceHeight: Int,
                hasAlpha: Bool, orientation: Orientation = .up, isAnimated: Bool = false,
                bitDepth: Int, colorModel: ImageInfo.ColorModel) {
        self.init(bitmap: bitmap, format: format, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                  hasAlpha: hasAlpha, orientation: orientation, isAnimated: isAnimated, bitDepth: bitDepth,
                  colorModel: colorModel, vector: nil)
    }

    package init(bitmap: Bitmap, format: ImageFormat, sourceWidth: Int, sourceHeight: Int,
                 hasAlpha: Bool, orientation: Orientation = .up, isAnimated: Bool = false,
                 bitDepth: Int, colorModel: ImageInfo.ColorModel, vector: SVGDocument?) {
        self.bitmap = bitmap
        self.vector = vector
        self.info = ImageInfo(format: format, pixelWidth: sourceWidth, pixelHeight: sourceHeight,
                              hasAlpha: hasAlpha, hasTransparentPixels: hasAlpha && bitmap.hasTransparentPixels,
                              orientation: orientation, isAnimated: isAnimated,
                              bitDepth: bitDepth, colorModel: colorModel, isVector: vector != nil)
    }

}
