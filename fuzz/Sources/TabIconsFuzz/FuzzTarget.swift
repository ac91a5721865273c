import Foundation
import TabIcons

/// The limits of every fuzz run: smaller than the defaults (4 MP, 4096 px a side, 1 MiB of input)
/// so the fuzzer spends its time on parsing rather than on legitimately large images, and stays
/// under its RSS limit.
let fuzzLimits = DecodeOptions.Limits(maxPixels: 4_000_000, maxSide: 4096, maxInputBytes: 1 << 20)

/// Which path the fuzzer drives (`TABICONS_FUZZ_MODE`): `inprocess` (the default, this file) or
/// `jail` (`JailedFuzzTarget.swift`: the batch's worker jail beside the in-process screening).
enum FuzzMode: String {
    case inProcess = "inprocess"
    case jail

    static let current: FuzzMode = {
        let name = ProcessInfo.processInfo.environment["TABICONS_FUZZ_MODE"] ?? FuzzMode.inProcess.rawValue
        guard let mode = FuzzMode(rawValue: name) else { fatalError("TABICONS_FUZZ_MODE: \(name) is neither inprocess nor jail") }
        return mode
    }()
}

/// One fuzz input (the callback `FuzzMain` gives libFuzzer), sent down the mode's path.
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    switch FuzzMode.current {
    case .inProcess: return fuzzInProcess(Data(bytes: start, count: count), selector: start[count - 1])
    case .jail: return fuzzJailed(Data(bytes: start, count: count), selector: start[count - 1])
    }
}

/// In process: bytes in, a coded error or a valid icon out, never a crash, a trap or a leak.
///
/// Past a successful decode it runs what the CLI runs: the normalizer, then both encoders on
/// every rendition, and checks the invariants callers rely on. The normalizer's options come from
/// the input's last byte (`options(selector:)`): decoders ignore bytes after the image data, so
/// the fuzzer can vary shape, trim, render, filter and upscaling without breaking the image.
func fuzzInProcess(_ data: Data, selector: UInt8) -> CInt {
    let decoded: DecodedImage
    do {
        decoded = try ImageDecoder.decode(data, options: DecodeOptions(limits: fuzzLimits))
    } catch {
        return 0  // a coded error is the right answer for most fuzz inputs
    }
    let bitmap = decoded.bitmap
    guard bitmap.width > 0, bitmap.height > 0, bitmap.pixels.count == bitmap.width * bitmap.height * 4 else {
        fatalError("decode returned an inconsistent bitmap \(bitmap.width)×\(bitmap.height), \(bitmap.pixels.count) bytes")
    }

    let options = options(selector: selector)
    let icon: NormalizedIcon
    do {
        icon = try Normalizer(options: options).normalize(data)
    } catch {
        // A vector is drawn again at each rendition's size, where the filter work is judged per
        // size (SVGRenderWork): a filter that fit the intrinsic size may be refused larger.
        if decoded.info.isVector, error.code == .tooLarge { return 0 }
        // The same bytes decoded a moment ago: the normalizer's own (shrink-on-load) decode
        // must not find them damaged.
        fatalError("normalize failed after a successful decode: \(error) (options \(options))")
    }
    for rendition in icon.renditions {
        let b = rendition.bitmap
        guard b.width > 0, b.height > 0, b.pixels.count == b.width * b.height * 4 else {
            fatalError("inconsistent rendition \(b.width)×\(b.height), \(b.pixels.count) bytes")
        }
        do {
            let png = try OutputFormat.png.encode(b)
            let webp = try OutputFormat.webp(quality: nil).encode(b)
            // Both outputs are lossless: PNG gives back the exact pixels, lossless WebP every
            // visible pixel (it writes fully transparent ones as transparent black, by design).
            if try ImageDecoder.decode(Data(png)).bitmap != b {
                fatalError("PNG does not round-trip a \(b.width)×\(b.height) rendition")
            }
            if transparentAsBlack(try ImageDecoder.decode(Data(webp)).bitmap) != transparentAsBlack(b) {
                fatalError("lossless WebP does not round-trip a \(b.width)×\(b.height) rendition")
            }
        } catch {
            fatalError("encoding a rendition failed: \(error)")
        }
    }
    return 0
}

/// Normalizer options from one byte: bits 0–1 shape, bit 2 trim, bits 3–4 render, bits 5–6
/// filter, bit 7 upscaling.
func options(selector: UInt8) -> NormalizeOptions {
    let shapes = NormalizeOptions.Shape.allCases, renders = NormalizeOptions.Render.allCases
    let filters = NormalizeOptions.Filter.allCases
    return NormalizeOptions(
        shape: shapes[Int(selector & 3) % shapes.count],
        trim: selector & 4 != 0,
        render: renders[Int(selector >> 3 & 3) % renders.count],
        filter: filters[Int(selector >> 5 & 3) % filters.count],
        allowUpscale: selector & 0x80 != 0,
        limits: fuzzLimits)
}

/// The bitmap with the colour of every fully transparent pixel set to 0.
func transparentAsBlack(_ bitmap: Bitmap) -> Bitmap {
    var pixels = bitmap.pixels
    for i in stride(from: 0, to: pixels.count, by: 4) where pixels[i + 3] == 0 {
        pixels[i] = 0; pixels[i + 1] = 0; pixels[i + 2] = 0
    }
    return Bitmap(width: bitmap.width, height: bitmap.height, pixels: pixels)
}
