import TabIconsCore
import Foundation

/// 16-bit linear RGBA with associated alpha (libpng's `PNG_FORMAT_LINEAR_RGB_ALPHA`) to 8-bit
/// sRGB RGBA with straight alpha: how `PNGRowDecoder` finishes each row of a 16-bit source, as
/// it is read (the 16-bit image never exists whole).
///
/// The encoding is the one libpng's own 8-bit output uses: its sRGB approximation, a power law
/// with exponent 0.45455 (PNG_GAMMA_sRGB = 2.2), rounded to nearest. Compared with libpng's
/// direct 16-to-8-bit path this keeps the full 16-bit precision until the last step, so a
/// linear 16-bit ramp lands within ±1 of the exact value where libpng's path is up to 8 off.
///
/// A pixel with alpha 0 has no recoverable colour in associated form: it becomes (0, 0, 0, 0).
/// Low alpha loses colour precision the same way (the colour was multiplied by it); the
/// premultiplied colour, which is all anyone sees, stays within ±1.
enum PNGLinear16 {
    /// One row (or any run of pixels): `samples` (4 a pixel) into `pixels` (4 bytes a pixel).
    /// `samplesAreSRGB`: the file had no colour-space chunk and was read with no gamma
    /// conversion, so the samples are already sRGB-encoded and rounding them to 8 bits
    /// (v · 255 / 65535) is the whole encoding; otherwise they are linear light, encoded here.
    static func convert(
        _ samples: UnsafeBufferPointer<UInt16>, into pixels: UnsafeMutablePointer<UInt8>,
        samplesAreSRGB: Bool
    ) {
        if samplesAreSRGB {
            unassociated(samples, into: pixels) { UInt8(($0 * 255 + 32767) / 65535) }
        } else {
            encodeTable.withUnsafeBufferPointer { table in
                unassociated(samples, into: pixels) { table[Int($0)] }
            }
        }
    }

    /// Straight 8-bit RGBA from associated 16-bit RGBA: each colour sample divided by alpha
    /// (rounded), then turned into 8 bits by `encode`; alpha rounded to 8 bits; alpha 0 gives
    /// (0, 0, 0, 0).
    @inline(__always)
    private static func unassociated(
        _ src: UnsafeBufferPointer<UInt16>, into dst: UnsafeMutablePointer<UInt8>,
        encode: (UInt32) -> UInt8
    ) {
        var i = 0
        while i + 3 < src.count {
            let alpha = UInt32(src[i + 3])
            if alpha == 65535 {
                for c in 0..<3 { dst[i + c] = encode(UInt32(src[i + c])) }
            } else if alpha > 0 {
                for c in 0..<3 {
                    dst[i + c] = encode(min(65535, (UInt32(src[i + c]) * 65535 + alpha / 2) / alpha))
                }
            } else {
                for c in 0..<3 { dst[i + c] = 0 }
            }
            dst[i + 3] = UInt8((alpha * 255 + 32767) / 65535)
            i += 4
        }
    }

    /// Linear 16-bit value → 8-bit sRGB (power 0.45455), 64 KiB built once.
    private static let encodeTable: [UInt8] = (0...65535).map { value -> UInt8 in
        let encoded: Double = 255 * pow(Double(value) / 65535, 0.45455)
        return UInt8(min(255, (encoded + 0.5).rounded(.down)))
    }
}
