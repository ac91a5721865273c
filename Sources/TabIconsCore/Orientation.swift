/// EXIF orientation: how the stored pixels are turned to be displayed, and the one place that
/// turns a tag into pixels.
///
/// Raw values are the TIFF/EXIF tag values 1–8. Cases 5–8 swap the width and the height.
public enum Orientation: Int, Sendable, Equatable, CaseIterable {
    /// 1: as stored.
    case up = 1
    /// 2: mirrored horizontally.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored vertically.
    case downMirrored = 4
    /// 5: transposed (mirrored across the main diagonal).
    case leftMirrored = 5
    /// 6: rotated 90° clockwise to display.
    case right = 6
    /// 7: transversed (mirrored across the anti-diagonal).
    case rightMirrored = 7
    /// 8: rotated 90° counter-clockwise to display.
    case left = 8

    /// Whether displaying swaps width and height.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// `bitmap` as it should be displayed.
    package func apply(to bitmap: Bitmap) -> Bitmap {
        guard self != .up else { return bitmap }
        let w = bitmap.width, h = bitmap.height
        let (ow, oh) = swapsAxes ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        bitmap.pixels.withUnsafeBytes { srcRaw in
            out.withUnsafeMutableBytes { dstRaw in
                let src = srcRaw.bindMemory(to: UInt32.self)
                let dst = dstRaw.bindMemory(to: UInt32.self)
                for y in 0..<h {
                    for x in 0..<w {
                        // Where the stored pixel (x, y) lands in the displayed image.
                        let (dx, dy): (Int, Int)
                        switch self {
                        case .up: (dx, dy) = (x, y)
                        case .upMirrored: (dx, dy) = (w - 1 - x, y)
                        case .down: (dx, dy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (dx, dy) = (x, h - 1 - y)
                        case .leftMirrored: (dx, dy) = (y, x)
                        case .right: (dx, dy) = (h - 1 - y, x)
                        case .rightMirrored: (dx, dy) = (h - 1 - y, w - 1 - x)
                        case .left: (dx, dy) = (y, w - 1 - x)
                        }
                        dst[dy * ow + dx] = src[y * w + x]
                    }
                }
            }
        }
        return Bitmap(width: ow, height: oh, pixels: out)
    }
}
