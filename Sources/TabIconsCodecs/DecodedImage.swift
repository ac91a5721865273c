import TabIconsCore
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
    public init(
        bitmap: Bitmap, format: ImageFormat, sourceWidth: Int, sourceHeight: Int,
        hasAlpha: Bool, orientation: Orientation = .up, isAnimated: Bool = false,
        bitDepth: Int, colorModel: ImageInfo.ColorModel
    ) {
        self.init(
            bitmap: bitmap, format: format, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
            hasAlpha: hasAlpha, orientation: orientation, isAnimated: isAnimated, bitDepth: bitDepth,
            colorModel: colorModel, vector: nil)
    }

    package init(
        bitmap: Bitmap, format: ImageFormat, sourceWidth: Int, sourceHeight: Int,
        hasAlpha: Bool, orientation: Orientation = .up, isAnimated: Bool = false,
        bitDepth: Int, colorModel: ImageInfo.ColorModel, vector: SVGDocument?
    ) {
        self.bitmap = bitmap
        self.vector = vector
        self.info = ImageInfo(
            format: format, pixelWidth: sourceWidth, pixelHeight: sourceHeight,
            hasAlpha: hasAlpha, hasTransparentPixels: hasAlpha && bitmap.hasTransparentPixels,
            orientation: orientation, isAnimated: isAnimated,
            bitDepth: bitDepth, colorModel: colorModel, isVector: vector != nil)
        info.intrinsicSize = vector.map { .init(width: $0.size.width, height: $0.size.height) }
    }

}
