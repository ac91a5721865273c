import TabIconsCore
import Foundation

/// Recognising a format from the bytes, and naming what is not supported.
extension ImageFormat {
    /// The format of `data` by its signature, or nil when it is none of them.
    ///
    /// PNG is recognised by `\x89PNG` alone, not the whole 8-byte signature: a file whose line
    /// endings a text transfer mangled (the last four bytes) is still a PNG, and libpng then says
    /// exactly that ("PNG file corrupted by ASCII conversion") instead of "not an image".
    public static func sniff<Bytes: Collection>(_ data: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        let head = Array(data.prefix(16))
        return ImageDecoder.registered.first { $0.sniff(head: head, data) }?.format
    }

    /// The format `ImageDecoder.decode` will decode `data` as: its bytes' signature, or failing
    /// that the signature of what base64 / `data:` text unwraps to (`InputEncoding`); nil for
    /// neither.
    package static func sniffInput(_ data: Data) -> ImageFormat? {
        sniff(data) ?? InputEncoding.unwrap(data).flatMap { sniff($0) }
    }

    /// The format whose signature `data` starts but ends inside: `FF D8` (a JPEG's start), `\x89P`
    /// to `\x89PNG\r\n\x1a`, `RIFF` with fewer than 12 bytes or `RIFF....WE`: such an input is
    /// that format `truncated`, not an unknown format. Fewer than two bytes say nothing yet.
    static func truncatedSignature(_ data: Data) -> (format: ImageFormat, signature: String)? {
        let head = Array(data.prefix(12))
        guard head.count >= 2 else { return nil }
        for decoder in ImageDecoder.registered {
            if let name = decoder.truncatedSignature(head) { return (decoder.format, name) }
        }
        return nil
    }

    /// A short description of an input that is not a supported image, describing it as it
    /// arrived: the name of a recognisable format (GIF, BMP, TIFF, HEIC/AVIF, PDF, ICO, XML that
    /// is not SVG); for text whose base64 decoding is a recognisable format, that format; for
    /// other text its length (never its contents); otherwise its first bytes in hex. `decoded` is the base64 payload of text
    /// input, when it had one: it is only ever named, never shown.
    static func describeUnsupported(_ input: Data, decoded: Data?) -> String {
        if input.isEmpty { return "the input is empty" }
        if let name = recognisedName(input) { return "looks like \(name), which is not supported" }
        if let decoded, decoded != input, let name = recognisedName(decoded) {
            return "base64 text of a \(name) image, which is not supported"
        }
        // Text is described, never quoted: it may be anything (a config file, a password), and
        // error lines and manifests end up in build logs.
        if InputEncoding.looksLikeText(input) {
            return "\(input.count) bytes of text that is neither an image, base64 nor a data: URL of one"
        }
        let names = ImageDecoder.registered.map { $0.name }
        let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1] : names.joined()
        return "not a \(list) file (starts with \(HexText.bytes(input.prefix(8))))"
    }

    /// The name of a format this library does not decode, when the bytes start like one.
    private static func recognisedName(_ data: Data) -> String? {
        let head = Array(data.prefix(32))
        func starts(_ s: String) -> Bool { head.starts(with: Array(s.utf8)) }
        if starts("GIF87a") || starts("GIF89a") { return "GIF" }
        if starts("BM") && head.count >= 14 { return "BMP" }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            return brand.hasPrefix("avi") ? "AVIF" : "HEIC/HEIF (ftyp \(brand.debugDescription))"
        }
        if head.starts(with: [0x00, 0x00, 0x01, 0x00]) { return "ICO" }
        if starts("%PDF-") { return "PDF" }
        let text = String(decoding: head, as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if let root = SVGSniff.xmlRootElement(data) { return "XML whose root element is <\(root)>, not SVG" }
        if text.hasPrefix("<?xml") { return "XML" }
        return nil
    }
}
