import TabIconsCore
/// The file format renditions are written in, and the one place that picks an encoder for it.
public enum OutputFormat: Sendable, Equatable {
    /// PNG, lossless, smallest colour type that keeps every pixel.
    case png
    /// WebP: lossless when `quality` is nil, lossy at `quality` (0–100) otherwise.
    case webp(quality: Float?)

    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .webp: "webp"
        }
    }

    public func encode(_ bitmap: Bitmap) throws(TabIconsError) -> [UInt8] {
        switch self {
        case .png: try PNGEncoder.encode(bitmap)
        case .webp(let quality): try WebPEncoder.encode(bitmap, quality: quality)
        }
    }
}
