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

    public init(format: ImageFormat, pixelWidth: Int, pixelHeight: Int, hasAlpha: Bool,
                hasTransparentPixels: Bool, orientation: Orientation = .up, isAnimated: Bool = false,
                bitDepth: Int, colorModel: ColorModel) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.hasAlpha = hasAlpha
        self.hasTransparentPixels = hasTransparentPixels
        self.orientation = orientation
        self.isAnimated = isAnimated
        self.bitDepth = bitDepth
        self.colorModel = colorModel
    }
}

/// What a decoder produced: the pixels, oriented, and what was learned about the file on the way.
public struct DecodedImage: Sendable, Equatable {
    /// 8-bit RGBA, EXIF orientation already applied. When a shrink-on-load hint was given this may
    /// be smaller than the source (never smaller than the hint asked for).
    public var bitmap: Bitmap
    public var info: ImageInfo

    /// Builds the result of a decode; `hasTransparentPixels` is read off the pixels when the file
    /// has alpha, so no decoder computes it on its own.
    public init(bitmap: Bitmap, format: ImageFormat, sourceWidth: Int, sourceHeight: Int,
                hasAlpha: Bool, orientation: Orientation = .up, isAnimated: Bool = false,
                bitDepth: Int, colorModel: ImageInfo.ColorModel) {
        self.bitmap = bitmap
        self.info = ImageInfo(format: format, pixelWidth: sourceWidth, pixelHeight: sourceHeight,
                              hasAlpha: hasAlpha, hasTransparentPixels: hasAlpha && bitmap.hasTransparentPixels,
                              orientation: orientation, isAnimated: isAnimated,
                              bitDepth: bitDepth, colorModel: colorModel)
    }

}
