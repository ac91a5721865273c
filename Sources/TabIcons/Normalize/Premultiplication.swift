/// A bitmap with premultiplied alpha, the form resampling works in (SPEC §3: no dark or light
/// fringes, because a transparent pixel's colour weighs nothing).
///
/// Four `UInt16` samples a pixel: `R·A`, `G·A`, `B·A` and `A·255`, with R, G, B, A the straight 8-bit
/// values. Every sample is on the same 0…65025 (255²) scale and premultiplying is exact: no
/// rounding, so premultiplying and unpremultiplying an untouched pixel gives it back bit for bit
/// (alpha 0 excepted, which comes back as transparent black).
struct PremultipliedImage: Sendable, Equatable {
    let width: Int
    let height: Int
    /// `width × height × 4` samples, row-major.
    let samples: [UInt16]

    /// The full scale of a sample: 255 × 255.
    static let fullScale = 65025
}

/// The one place that converts between straight and premultiplied alpha.
enum Premultiplication {
    /// `bitmap` premultiplied (exactly; see `PremultipliedImage`).
    static func premultiply(_ bitmap: Bitmap) -> PremultipliedImage {
        let count = bitmap.pixels.count
        let samples = [UInt16](unsafeUninitializedCapacity: count) { out, initialized in
            bitmap.pixels.withUnsafeBufferPointer { src in
                var i = 0
                while i < count {
                    let a = UInt16(src[i + 3])
                    out[i] = UInt16(src[i]) &* a
                    out[i + 1] = UInt16(src[i + 1]) &* a
                    out[i + 2] = UInt16(src[i + 2]) &* a
                    out[i + 3] = a &* 255
                    i += 4
                }
            }
            initialized = count
        }
        return PremultipliedImage(width: bitmap.width, height: bitmap.height, samples: samples)
    }

    /// One filtered pixel back to straight 8-bit RGBA, written to `out[0..<4]`.
    ///
    /// The inputs are on the 0…65025 scale and may lie outside it (a filter's negative lobes ring).
    /// Alpha is `round(a / 255)` clamped to 0…255. Each colour is `round(255 · c / a)` clamped to
    /// 0…255 — divided by the unrounded alpha, so the colour of a faint pixel is as exact as the
    /// filter made it, and a colour can never exceed its alpha's reach (no light fringes).
    /// Where alpha rounds to 0 the pixel is transparent black: it has no colour to keep.
    @inline(__always)
    static func unpremultiply(r: Int, g: Int, b: Int, a: Int, into out: UnsafeMutablePointer<UInt8>) {
        let alpha = a <= 0 ? 0 : min((a + 127) / 255, 255)
        if alpha == 0 {
            out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 0
            return
        }
        out[0] = straight(r, alpha: a)
        out[1] = straight(g, alpha: a)
        out[2] = straight(b, alpha: a)
        out[3] = UInt8(truncatingIfNeeded: alpha)
    }

    /// `round(255 · c / a)` clamped to 0…255, for `a > 0`; halves round up.
    @inline(__always)
    private static func straight(_ c: Int, alpha a: Int) -> UInt8 {
        if c <= 0 { return 0 }
        if c >= a { return 255 }
        return UInt8(truncatingIfNeeded: (c * 510 + a) / (a * 2))
    }
}
