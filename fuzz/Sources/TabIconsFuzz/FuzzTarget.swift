import Foundation
import TabIcons

/// One fuzz input (the callback `FuzzMain` gives libFuzzer): bytes in, a coded error or a valid icon out, never a crash.
///
/// The limits are smaller than the defaults (4 MP, 4096 px a side) so that the fuzzer spends its
/// time on parsing rather than on legitimately large images, and stays under its RSS limit.
/// Past a successful decode it runs what the CLI runs: the normalizer with default options, and
/// both encoders on the smallest rendition, and checks the invariants a caller relies on.
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    let limits = DecodeOptions.Limits(maxPixels: 4_000_000, maxSide: 4096, maxInputBytes: 1 << 20)

    let decoded: DecodedImage
    do {
        decoded = try ImageDecoder.decode(data, options: DecodeOptions(limits: limits))
    } catch {
        return 0 // a coded error is the right answer for most fuzz inputs
    }
    let bitmap = decoded.bitmap
    if bitmap.width <= 0 || bitmap.height <= 0 || bitmap.pixels.count != bitmap.width * bitmap.height * 4 {
        fatalError("decode returned an inconsistent bitmap \(bitmap.width)×\(bitmap.height), \(bitmap.pixels.count) bytes")
    }

    do {
        let icon = try Normalizer(options: NormalizeOptions(limits: limits)).normalize(data)
        if let smallest = icon.renditions.first {
            _ = try OutputFormat.png.encode(smallest.bitmap)
            _ = try OutputFormat.webp(quality: nil).encode(smallest.bitmap)
        }
    } catch {
        // The decode above succeeded; a second decode of the same bytes must too.
        if error.code == .corrupt || error.code == .truncated || error.code == .unsupportedFormat {
            fatalError("normalize failed after a successful decode: \(error)")
        }
    }
    return 0
}
