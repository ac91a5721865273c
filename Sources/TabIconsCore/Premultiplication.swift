/// The one place that converts between straight and premultiplied alpha, the form resampling works
/// in (SPEC §3: no dark or light fringes, because a transparent pixel's colour weighs nothing).
///
/// Premultiplied pixels are four integers on one 0…65025 (255²) scale: `R·A`, `G·A`, `B·A` and
/// `A·255`, with R, G, B, A the straight 8-bit values. Premultiplying is therefore exact (no
/// rounding, no lost precision for faint pixels), and premultiplying then unpremultiplying gives
/// every pixel back bit for bit, alpha 0 excepted, which comes back as transparent black.
package enum Premultiplication {
    /// The full scale of a premultiplied sample: 255 × 255.
    package static let fullScale = 65025

    /// Premultiplies `count` straight RGBA pixels from `src` into `dst` (4 samples a pixel).
    /// Done a row at a time by the resampler, so no premultiplied copy of a whole image is held.
    @inline(__always)
    package static func premultiply(_ src: UnsafePointer<UInt8>, count: Int, into dst: UnsafeMutablePointer<SIMD4<Int32>>) {
        let raw = UnsafeRawPointer(src)
        for i in 0..<count {
            let pixel = SIMD4<Int32>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt8>.self))
            dst[i] = pixel &* SIMD4<Int32>(pixel[3], pixel[3], pixel[3], 255)
        }
    }

    /// One filtered pixel back to straight 8-bit RGBA, written to `out[0..<4]`.
    ///
    /// The inputs are on the 0…65025 scale and may lie outside it (a filter's negative lobes ring).
    /// Alpha is `round(a / 255)` clamped to 0…255. Each colour is `round(255 · c / a)` clamped to
    /// 0…255 — divided by the unrounded alpha, so the colour of a faint pixel is as exact as the
    /// filter made it, and a colour can never exceed its alpha's reach (no light fringes).
    /// Where alpha rounds to 0 the pixel is transparent black: it has no colour to keep.
    @inline(__always)
    package static func unpremultiply(_ pixel: SIMD4<Int32>, into out: UnsafeMutablePointer<UInt8>) {
        unpremultiply(r: Int(pixel[0]), g: Int(pixel[1]), b: Int(pixel[2]), a: Int(pixel[3]), into: out)
    }

    @inline(__always)
    package static func unpremultiply(r: Int, g: Int, b: Int, a: Int, into out: UnsafeMutablePointer<UInt8>) {
        let alpha = a <= 0 ? 0 : min((a + 127) / 255, 255)
        if alpha == 0 {
            out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 0
            return
        }
        if a == fullScale {
            // Opaque, the common case: the same formula with a constant divisor (a multiply).
            out[0] = straightOpaque(r)
            out[1] = straightOpaque(g)
            out[2] = straightOpaque(b)
            out[3] = 255
            return
        }
        out[0] = straight(r, alpha: a)
        out[1] = straight(g, alpha: a)
        out[2] = straight(b, alpha: a)
        out[3] = UInt8(truncatingIfNeeded: alpha)
    }

    /// `straight(c, alpha: 65025)`.
    @inline(__always)
    private static func straightOpaque(_ c: Int) -> UInt8 {
        if c <= 0 { return 0 }
        if c >= fullScale { return 255 }
        return UInt8(truncatingIfNeeded: (c * 510 + fullScale) / (fullScale * 2))
    }

    /// `round(255 · c / a)` clamped to 0…255, for `a > 0`; halves round up.
    @inline(__always)
    private static func straight(_ c: Int, alpha a: Int) -> UInt8 {
        if c <= 0 { return 0 }
        if c >= a { return 255 }
        return UInt8(truncatingIfNeeded: (c * 510 + a) / (a * 2))
    }

    /// cairo's ARGB32 (premultiplied, each pixel a native-endian 32-bit word A R G B) to straight
    /// RGBA, in place: how a rendered SVG enters the one pixel currency (`Bitmap`). Each colour is
    /// round(255 · c / a), clamped to a (cairo rounds when premultiplying, so c ≤ a always holds
    /// for its own output; the clamp guards the rest); alpha 0 is transparent black.
    package static func straightenCairoARGB32(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBytes { raw in
            let count = raw.count / 4
            for i in 0..<count {
                let word = raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                let a = Int(word >> 24), r = Int(word >> 16 & 0xFF), g = Int(word >> 8 & 0xFF), b = Int(word & 0xFF)
                let out = raw.baseAddress!.advanced(by: i * 4).assumingMemoryBound(to: UInt8.self)
                if a == 255 {
                    out[0] = UInt8(r); out[1] = UInt8(g); out[2] = UInt8(b); out[3] = 255
                } else if a == 0 {
                    out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 0
                } else {
                    out[0] = UInt8((min(r, a) * 510 + a) / (2 * a))
                    out[1] = UInt8((min(g, a) * 510 + a) / (2 * a))
                    out[2] = UInt8((min(b, a) * 510 + a) / (2 * a))
                    out[3] = UInt8(a)
                }
            }
        }
    }
}
