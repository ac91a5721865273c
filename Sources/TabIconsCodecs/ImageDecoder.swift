import TabIconsCore
import Foundation

/// One format: what the library knows of it, one requirement a concern, each implemented in the
/// format's folder (`PNG/`, `JPEG/`, `WebP/`, `SVG/`). Everything that depends on the format
/// iterates `ImageDecoder.registered` instead of switching on `ImageFormat`: sniffing, a signature
/// cut short, the decoder, the memory estimate, the unsupported message, the walker's extensions
/// and the help text. Adding a format is its folder and one line in `registered`.
protocol FormatDecoder: Sendable {
    static var format: ImageFormat { get }
    /// The format's name in messages ("not a PNG, JPEG, WebP or SVG file").
    static var name: String { get }
    /// The file name extensions a folder walk collects, lowercase, without the dot.
    static var fileExtensions: [String] { get }
    /// Whether `data` (whose first 16 bytes are `head`) is this format, from the bytes alone.
    static func sniff<Bytes: Collection>(head: [UInt8], _ data: Bytes) -> Bool where Bytes.Element == UInt8
    /// The name of the format's signature when `head` (at least 2 bytes) starts it but ends inside
    /// it: the input is then this format `truncated`; nil otherwise.
    static func truncatedSignature(_ head: [UInt8]) -> String?
    /// Roughly how many bytes decoding `bytes` holds at once besides them, from the header alone
    /// (`DecodeMemoryEstimate`): what a batch budgets with.
    static func decodeMemory(_ bytes: UnsafeRawBufferPointer, longestSideNeeded: Int?, limits: DecodeOptions.Limits) -> Int
    /// Decodes `bytes` (already sniffed as this format) to oriented RGBA. Must check
    /// `options.limits` against the header before allocating pixels, and honour
    /// `options.longestSideNeeded` where the library can shrink on load.
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage
}

extension FormatDecoder {
    static func truncatedSignature(_ head: [UInt8]) -> String? { nil }
}

/// The front door for decoding: bytes (binary, base64 text or a `data:` URL) in, `DecodedImage` out.
/// For SVG the result also carries the parsed document (`DecodedImage.vector`).
public enum ImageDecoder {
    /// The registry: every format, in the order sniffing tries them.
    static let registered: [any FormatDecoder.Type] = [PNGDecoder.self, JPEGDecoder.self, WebPDecoder.self, SVGDecoder.self]

    static func decoder(for format: ImageFormat) -> any FormatDecoder.Type {
        guard let decoder = registered.first(where: { $0.format == format }) else {
            preconditionFailure("no decoder registered for \(format)")
        }
        return decoder
    }

    /// Every registered format's file name extensions (what `tabicon` walks folders for).
    package static var fileExtensions: Set<String> { Set(registered.flatMap { $0.fileExtensions }) }

    /// The format a file name's extension (without the dot, any case) suggests: what a folder
    /// walk collects and what to load ahead, never what decodes (the bytes are sniffed).
    package static func format(suggestedByExtension fileExtension: some StringProtocol) -> ImageFormat? {
        let lowercase = fileExtension.lowercased()
        return registered.first { $0.fileExtensions.contains(lowercase) }?.format
    }

    /// The same for a name or path: its extension is the text after its last dot (as
    /// `pathExtension` reads it); none without a dot.
    package static func format(suggestedByName name: String) -> ImageFormat? {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        return format(suggestedByExtension: name[name.utf8.index(after: dot)...])
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
        if sniffed == nil, let (format, name) = ImageFormat.truncatedSignature(data) {
            throw TabIconsError(
                .truncated, "the input ends after \(data.count) bytes, inside the \(name) signature",
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
