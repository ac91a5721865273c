import TabIconsCore
import TabIconsCodecs
/// The `square` and `circle` shapes and the padding's canvas (SPEC §3).
enum ShapeRenderer {
    /// The circle's aspect-fill crop: the largest square centred in `rect`. When the spare length
    /// is odd, the extra pixel is left on the right or bottom.
    static func centredSquare(in rect: PixelRect) -> PixelRect {
        let side = min(rect.width, rect.height)
        return PixelRect(
            x: rect.x + (rect.width - side) / 2, y: rect.y + (rect.height - side) / 2,
            width: side, height: side)
    }

    /// `glyph` centred on a transparent (black, alpha 0) `side × side` canvas; when the spare
    /// length is odd, the extra pixel goes right or below.
    static func centred(_ glyph: Bitmap, onSquare side: Int) -> Bitmap {
        centred(glyph, width: side, height: side)
    }

    /// `glyph` centred on a transparent `width × height` canvas (the square's, the padding's);
    /// when the spare length is odd, the extra pixel goes right or below.
    static func centred(_ glyph: Bitmap, width: Int, height: Int) -> Bitmap {
        precondition(width >= glyph.width && height >= glyph.height, "canvas smaller than glyph")
        if glyph.width == width && glyph.height == height { return glyph }
        var canvas = Bitmap(width: width, height: height)
        let dx = (width - glyph.width) / 2, dy = (height - glyph.height) / 2
        let rowBytes = glyph.width * 4
        glyph.pixels.withUnsafeBytes { src in
            canvas.pixels.withUnsafeMutableBytes { dst in
                guard let from = src.baseAddress, let to = dst.baseAddress else { return }
                for row in 0..<glyph.height {
                    (to + ((dy + row) * width + dx) * 4).copyMemory(from: from + row * rowBytes, byteCount: rowBytes)
                }
            }
        }
        return canvas
    }

    /// A rendition's last step: the glyph after its shape, centred on the plan's canvas.
    static func placed(_ glyph: Bitmap, shape: NormalizeOptions.Shape, entry: RenditionPlan.Entry) -> Bitmap {
        var bitmap = glyph
        if shape == .circle { bitmap = circleMasked(bitmap) }
        return centred(bitmap, width: entry.canvasWidth, height: entry.canvasHeight)
    }

    /// Subsamples per pixel side for the circle's coverage: 8 × 8 = 64 samples, 65 levels of edge.
    static let subsamples = 8

    /// `bitmap` with an anti-aliased circular mask: the circle inscribed in it (diameter the shorter
    /// side, centred), each pixel's alpha multiplied by the share of it inside the circle.
    ///
    /// Coverage is counted on an 8 × 8 grid of points per pixel, all in integer units of 1/16 pixel,
    /// so the mask is exact and the same everywhere (a point on the circle counts as inside).
    /// Pixels whose centre is more than 0.75 px (beyond half a diagonal) inside or outside the
    /// circle are taken as fully in or out without sampling.
    static func circleMasked(_ bitmap: Bitmap) -> Bitmap {
        let w = bitmap.width, h = bitmap.height
        let n = subsamples
        let unit = 2 * n  // grid units per pixel
        let cx = w * n, cy = h * n  // centre, in grid units
        let r = min(w, h) * n  // radius, in grid units
        let r2 = r * r
        let margin = (3 * unit) / 4  // 0.75 px
        let inner = r - margin, outer = r + margin
        let inner2 = inner > 0 ? inner * inner : -1
        let outer2 = outer * outer
        let full = n * n
        var out = bitmap
        out.pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<h {
                let py = y * unit + n - cy
                for x in 0..<w {
                    let px = x * unit + n - cx
                    let d2 = px * px + py * py
                    let coverage: Int
                    if d2 <= inner2 {
                        continue
                    } else if d2 >= outer2 {
                        coverage = 0
                    } else {
                        var count = 0
                        for j in 0..<n {
                            let sy = y * unit + 2 * j + 1 - cy
                            for i in 0..<n {
                                let sx = x * unit + 2 * i + 1 - cx
                                if sx * sx + sy * sy <= r2 { count += 1 }
                            }
                        }
                        coverage = count
                    }
                    let ai = (y * w + x) * 4 + 3
                    p[ai] = UInt8(truncatingIfNeeded: (Int(p[ai]) * coverage + full / 2) / full)
                }
            }
        }
        return out
    }
}
