/// EXIF orientation (1–8) applied to a bitmap: the one place that turns a tag into pixels.
///
/// Tag values follow the TIFF/EXIF specification: 1 as stored, 2 mirrored horizontally,
/// 3 rotated 180°, 4 mirrored vertically, 5 transposed (mirror across the main diagonal),
/// 6 rotated 90° clockwise, 7 transversed, 8 rotated 90° counter-clockwise. Values 5–8 swap the
/// width and the height.
enum Orientation {
    /// Whether `orientation` swaps width and height.
    static func swapsAxes(_ orientation: Int) -> Bool { (5...8).contains(orientation) }

    /// `bitmap` as it should be displayed for `orientation`; values outside 2–8 leave it as is.
    static func apply(_ orientation: Int, to bitmap: Bitmap) -> Bitmap {
        guard (2...8).contains(orientation) else { return bitmap }
        let w = bitmap.width, h = bitmap.height
        let (ow, oh) = swapsAxes(orientation) ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        bitmap.pixels.withUnsafeBytes { srcRaw in
            out.withUnsafeMutableBytes { dstRaw in
                let src = srcRaw.bindMemory(to: UInt32.self)
                let dst = dstRaw.bindMemory(to: UInt32.self)
                for y in 0..<h {
                    for x in 0..<w {
                        // Where the stored pixel (x, y) lands in the displayed image.
                        let (dx, dy): (Int, Int)
                        switch orientation {
                        case 2: (dx, dy) = (w - 1 - x, y)
                        case 3: (dx, dy) = (w - 1 - x, h - 1 - y)
                        case 4: (dx, dy) = (x, h - 1 - y)
                        case 5: (dx, dy) = (y, x)
                        case 6: (dx, dy) = (h - 1 - y, x)
                        case 7: (dx, dy) = (h - 1 - y, w - 1 - x)
                        default: (dx, dy) = (y, w - 1 - x) // 8
                        }
                        dst[dy * ow + dx] = src[y * w + x]
                    }
                }
            }
        }
        return Bitmap(width: ow, height: oh, pixels: out)
    }
}
