import TabIconsCore
import TabIconsCodecs
/// The rendering intents of SPEC §3: what colour information an icon keeps.
///
/// Applied to the source-resolution glyph before resampling, so the 1×, 2× and 3× renditions are
/// filtered from the same (already converted) pixels and a rendition at the source's size still
/// involves no resampling.
enum RenderIntentConversion {
    static func apply(_ render: NormalizeOptions.Render, to bitmap: Bitmap) -> Bitmap {
        switch render {
        case .auto, .original: bitmap
        case .template: template(bitmap)
        case .templateLuminance: templateLuminance(bitmap)
        }
    }

    /// Colour dropped, alpha kept: RGB becomes black (0, 0, 0), what a tab bar then tints.
    static func template(_ bitmap: Bitmap) -> Bitmap {
        var out = bitmap
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                i += 4
            }
        }
        return out
    }

    /// Alpha from darkness, for opaque dark-on-light glyphs: alpha = (255 − Y′) × A / 255 rounded,
    /// RGB black. Y′ is the luma of the gamma-encoded values with Rec. 709 weights in 8-bit fixed
    /// point, (54 R + 183 G + 19 B + 128) >> 8 (the weights sum to 256, so white is exactly 255 and
    /// turns fully transparent; black keeps its alpha). Luma rather than linear luminance because
    /// "dark" here is how the glyph looks, and it stays exact in integers.
    static func templateLuminance(_ bitmap: Bitmap) -> Bitmap {
        var out = bitmap
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let luma = luma(r: p[i], g: p[i + 1], b: p[i + 2])
                let alpha = ((255 - luma) * Int(p[i + 3]) + 127) / 255
                p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                p[i + 3] = UInt8(truncatingIfNeeded: alpha)
                i += 4
            }
        }
        return out
    }

    /// Rec. 709 luma of 8-bit gamma-encoded RGB, 0…255.
    @inline(__always)
    static func luma(r: UInt8, g: UInt8, b: UInt8) -> Int {
        (54 * Int(r) + 183 * Int(g) + 19 * Int(b) + 128) >> 8
    }
}
