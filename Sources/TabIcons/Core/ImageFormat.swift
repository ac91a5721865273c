/// The formats TabIcons decodes, recognised from the bytes, never from a file name.
public enum ImageFormat: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case png
    case jpeg
    case webp
    /// XML whose root element is `svg`, also gzip-compressed (`.svgz`): a vector (`SVGSniff`).
    case svg

    /// The format of `data` by its signature, or nil when it is none of them.
    ///
    /// PNG is recognised by `\x89PNG` alone, not the whole 8-byte signature: a file whose line
    /// endings a text transfer mangled (the last four bytes) is still a PNG, and libpng then says
    /// exactly that ("PNG file corrupted by ASCII conversion") instead of "not an image".
    public static func sniff<Bytes: Collection>(_ data: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        let head = Array(data.prefix(16))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        if SVGSniff.isSVG(data) { return .svg }
        return nil
    }

    /// A short description of bytes that are not a supported format: the name of a recognisable
    /// format (GIF, BMP, TIFF, HEIC/AVIF, other XML, ICO), otherwise the first bytes in hex (or,
    /// for text that is not base64, the first characters).
    static func describeUnsupported<Bytes: Collection>(_ data: Bytes, isText: Bool = false) -> String where Bytes.Element == UInt8 {
        let head = Array(data.prefix(32))
        func starts(_ s: String) -> Bool { head.starts(with: Array(s.utf8)) }
        if head.isEmpty { return "the input is empty" }
        if starts("GIF87a") || starts("GIF89a") { return "looks like GIF, which is not supported" }
        if starts("BM") && head.count >= 14 { return "looks like BMP, which is not supported" }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return "looks like TIFF, which is not supported"
        }
        if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if brand.hasPrefix("avi") { return "looks like AVIF, which is not supported" }
            return "looks like HEIC/HEIF (ftyp \(brand)), which is not supported"
        }
        if head.starts(with: [0x00, 0x00, 0x01, 0x00]) { return "looks like ICO, which is not supported" }
        let text = String(decoding: head, as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if let root = SVGSniff.xmlRootElement(data) {
            return "looks like XML whose root element is <\(root)>, not SVG, which is not supported"
        }
        if text.hasPrefix("<?xml") { return "looks like XML, which is not supported" }
        if isText {
            let start = String(text.prefix(16)).debugDescription
            return "text that is neither an image, base64 nor a data: URL (starts with \(start))"
        }
        let hex = head.prefix(8).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
        return "not a PNG, JPEG, WebP or SVG file (starts with \(hex))"
    }
}
