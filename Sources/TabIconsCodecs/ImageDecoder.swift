import TabIconsCore
import Foundation

/// One format's decoder. Each is a small namespace over its C library; `ImageDecoder` picks one by
/// the sniffed format, so adding a format touches this table and nothing else.
protocol FormatDecoder {
    static var format: ImageFormat { get }
    /// Decodes `bytes` (already sniffed as this format) to oriented RGBA. Must check
    /// `options.limits` against the header before allocating pixels, and honour
    /// `options.longestSideNeeded` where the library can shrink on load.
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage
}

/// The front door for decoding: bytes (binary, base64 text or a `data:` URL) in, `DecodedImage` out.
/// For SVG the result also carries the parsed document (`DecodedImage.vector`).
public enum ImageDecoder {
    static func decoder(for format: ImageFormat) -> any FormatDecoder.Type {
        switch format {
        case .png: PNGDecoder.self
        case .jpeg: JPEGDecoder.self
        case .webp: WebPDecoder.self
        case .svg: SVGDecoder.self
        }
    }

    /// Decodes `data`, sniffing its format from the bytes. Throws `TabIconsError` with a code of
    /// SPEC §6; never crashes on bad input.
    public static func decode(_ data: Data, options: DecodeOptions = DecodeOptions()) throws(TabIconsError) -> DecodedImage {
        try options.limits.check(inputBytes: data.count)
        // Sniffed once when the bytes already are an image (the common case), else after unwrapping.
        var binary = data
        var sniffed = ImageFormat.sniff(data)
        if sniffed == nil, let unwrapped = InputEncoding.unwrap(data) {
            binary = unwrapped
            sniffed = ImageFormat.sniff(unwrapped)
        }
        if sniffed == nil, let format = ImageFormat.truncatedSignature(data) {
            let name = format == .webp ? "WebP (RIFF)" : format.rawValue.uppercased()
            throw TabIconsError(.truncated, "the input ends after \(data.count) bytes, inside the \(name) signature",
                                format: format)
        }
        guard let format = sniffed else {
            throw TabIconsError(.unsupportedFormat, ImageFormat.describeUnsupported(data, decoded: binary))
        }
        let decoder = decoder(for: format)
        return try binary.withUnsafeBytesTyped { bytes throws(TabIconsError) in
            try decoder.decode(bytes, options: options)
        }
    }
}

extension Data {
    /// `withUnsafeBytes` for a body with a typed error (the standard one is `rethrows`, which
    /// erases the error type).
    package func withUnsafeBytesTyped<R>(_ body: (UnsafeRawBufferPointer) throws(TabIconsError) -> R) throws(TabIconsError) -> R {
        let result: Result<R, TabIconsError> = withUnsafeBytes { bytes in
            Result { () throws(TabIconsError) -> R in try body(bytes) }
        }
        return try result.get()
    }
}
