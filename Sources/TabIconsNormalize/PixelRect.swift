import TabIconsCore
import TabIconsCodecs
/// A rectangle of whole pixels inside a bitmap: what trimming and the circle's square crop select.
struct PixelRect: Sendable, Equatable, CustomStringConvertible {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The whole of `bitmap`.
    init(_ bitmap: Bitmap) {
        self.init(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
    }

    init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    var longestSide: Int { max(width, height) }

    var description: String { "\(width)×\(height)+\(x)+\(y)" }
}

extension Bitmap {
    /// The pixels inside `rect` (which must lie within the bitmap), copied row by row; the bitmap
    /// itself when `rect` covers all of it, so an uncropped source is never copied.
    func cropped(to rect: PixelRect) -> Bitmap {
        precondition(
            rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
                && rect.x + rect.width <= width && rect.y + rect.height <= height,
            "crop \(rect) outside \(width)×\(height)")
        if rect == PixelRect(self) { return self }
        let rowBytes = rect.width * 4
        var out = [UInt8](repeating: 0, count: rowBytes * rect.height)
        pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                guard let from = src.baseAddress, let to = dst.baseAddress else { return }
                for row in 0..<rect.height {
                    let offset = ((rect.y + row) * width + rect.x) * 4
                    (to + row * rowBytes).copyMemory(from: from + offset, byteCount: rowBytes)
                }
            }
        }
        return Bitmap(width: rect.width, height: rect.height, pixels: out)
    }
}
