/// An 8-bit RGBA raster with straight (unpremultiplied) alpha, rows packed with no padding.
///
/// This is the one pixel currency between the decoders, the normalizer and the encoders. Straight
/// alpha is what the codecs read and write; premultiplication happens only inside resampling
/// (`Premultiplication`), where it belongs.
public struct Bitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes, R G B A per pixel, row-major.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(
            width > 0 && height > 0 && pixels.count == width * height * 4,
            "Bitmap: \(pixels.count) bytes do not make \(width)×\(height) RGBA")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A fully transparent black bitmap.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    public var byteCount: Int { pixels.count }

    /// Whether any pixel has alpha below 255.
    public var hasTransparentPixels: Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return true }
                i += 4
            }
            return false
        }
    }
}
