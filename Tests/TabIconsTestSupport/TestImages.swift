import Foundation
import TabIconsCore
import TabIconsCodecs

/// Bitmaps and decoded images built in code for the normalizer's tests.
package enum TestImages {
    /// Random RGBA; `opaque` makes every alpha 255. Otherwise a quarter of the pixels are fully
    /// transparent with random RGB left under them, the rest have random alpha.
    package static func random(width: Int, height: Int, seed: UInt64, opaque: Bool = false) -> Bitmap {
        var rng = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            for c in 0..<3 { pixels[i + c] = UInt8.random(in: 0...255, using: &rng) }
            if opaque {
                pixels[i + 3] = 255
            } else {
                pixels[i + 3] = Int.random(in: 0..<4, using: &rng) == 0 ? 0 : UInt8.random(in: 0...255, using: &rng)
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// One colour everywhere.
    package static func filled(width: Int, height: Int, _ rgba: (UInt8, UInt8, UInt8, UInt8)) -> Bitmap {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) { pixels += [rgba.0, rgba.1, rgba.2, rgba.3] }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// A red disc whose edge fades over `softness` pixels, on a fully transparent background whose
    /// RGB is `background` (black or white: what the fringe tests vary).
    package static func softDisc(size: Int, radius: Double, softness: Double = 3, background: UInt8) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        let c = Double(size) / 2
        for y in 0..<size {
            for x in 0..<size {
                let d = ((Double(x) + 0.5 - c) * (Double(x) + 0.5 - c) + (Double(y) + 0.5 - c) * (Double(y) + 0.5 - c))
                    .squareRoot()
                let alpha = min(max((radius - d) / softness, 0), 1)
                let i = (y * size + x) * 4
                let a = UInt8((alpha * 255).rounded())
                if a == 0 {
                    (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (background, background, background, 0)
                } else {
                    (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (255, 0, 0, a)
                }
            }
        }
        return Bitmap(width: size, height: size, pixels: pixels)
    }

    /// `bitmap` with a `rect` painted in `rgba`.
    package static func painting(
        _ bitmap: Bitmap, x: Int, y: Int, width: Int, height: Int,
        _ rgba: (UInt8, UInt8, UInt8, UInt8)
    ) -> Bitmap {
        var out = bitmap
        for yy in y..<(y + height) {
            for xx in x..<(x + width) {
                let i = (yy * bitmap.width + xx) * 4
                (out.pixels[i], out.pixels[i + 1], out.pixels[i + 2], out.pixels[i + 3]) = rgba
            }
        }
        return out
    }

    /// A decoded image around `bitmap`, as a decoder would return it; the source size defaults to
    /// the bitmap's (pass a larger one to play a shrink-on-load decode).
    package static func decoded(
        _ bitmap: Bitmap, sourceWidth: Int? = nil, sourceHeight: Int? = nil,
        animated: Bool = false
    ) -> DecodedImage {
        DecodedImage(
            bitmap: bitmap, format: .png, sourceWidth: sourceWidth ?? bitmap.width,
            sourceHeight: sourceHeight ?? bitmap.height, hasAlpha: true,
            isAnimated: animated, bitDepth: 8, colorModel: .rgba)
    }

    /// The pixel at (x, y).
    package static func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * bitmap.width + x) * 4
        return Array(bitmap.pixels[i..<(i + 4)])
    }
}
