import TabIconsCore
import TabIconsCodecs
/// Finding where an icon's content is: the `trim` option's crop and the `padding` lint's measure.
enum ContentBounds {
    /// The smallest rectangle holding every pixel whose alpha is above `threshold`; nil when there
    /// is none.
    static func bounds(of bitmap: Bitmap, alphaAbove threshold: UInt8) -> PixelRect? {
        let w = bitmap.width, h = bitmap.height
        var minX = w, minY = h, maxX = -1, maxY = -1
        bitmap.pixels.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            for y in 0..<h {
                guard let extent = extent(ofRow: base + y * w * 4, width: w, alphaAbove: threshold) else { continue }
                minX = min(minX, extent.lowerBound)
                maxX = max(maxX, extent.upperBound)
                if minY == h { minY = y }
                maxY = y
            }
        }
        guard maxX >= 0 else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The first and last pixel of one RGBA row whose alpha is above `threshold`; nil when none
    /// is. A row at a time, so streamed normalization measures with the same rule.
    static func extent(ofRow row: UnsafePointer<UInt8>, width: Int, alphaAbove threshold: UInt8) -> ClosedRange<Int>? {
        var first = -1
        for x in 0..<width where row[x * 4 + 3] > threshold {
            first = x
            break
        }
        guard first >= 0 else { return nil }
        var last = first
        var x = width - 1
        while x > first {
            if row[x * 4 + 3] > threshold {
                last = x
                break
            }
            x -= 1
        }
        return first...last
    }

    /// The `trim` crop (SPEC §3): everything but the fully transparent (alpha 0) margins. Any pixel
    /// with alpha above 0 is content, however faint (a soft shadow must not be cut). An image with
    /// no such pixel is kept whole rather than cropped to nothing.
    static func trimmedRect(of bitmap: Bitmap) -> PixelRect {
        bounds(of: bitmap, alphaAbove: 0) ?? PixelRect(bitmap)
    }
}
