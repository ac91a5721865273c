import TabIconsCore
/// Recognising SVG from its bytes (SPEC §2): XML whose root element is `svg`, plain or gzip-
/// compressed (`.svgz`). Never from a file name.
///
/// What may come before the root element: a UTF-8 byte-order mark, whitespace, the XML
/// declaration and other processing instructions, comments, and a `<!DOCTYPE ...>` (with or without
/// an internal subset, which the screening then refuses). The root element is `svg` with or
/// without a namespace prefix (`<svg:svg>`). Only the first `prologLimit` bytes are looked at: a
/// prolog longer than that is not an icon. UTF-16 text is recognised too, so that the decoder can
/// refuse it with a reason rather than calling it an unknown format.
enum SVGSniff {
    /// How far into the (decompressed) bytes the root element must start.
    static let prologLimit = 64 << 10

    /// The gzip magic and the deflate method byte.
    static func isGzip<Bytes: Collection>(_ data: Bytes) -> Bool where Bytes.Element == UInt8 {
        data.starts(with: [0x1F, 0x8B, 0x08])
    }

    /// Whether `data` is an SVG document, plain, UTF-16 or gzip-compressed.
    static func isSVG<Bytes: Collection>(_ data: Bytes) -> Bool where Bytes.Element == UInt8 {
        if isGzip(data) {
            let inflated = SVGCompression.inflatedPrefix(Array(data.prefix(prologLimit)), count: prologLimit)
            return !isGzip(inflated) && isSVG(inflated)
        }
        if isUTF16(data) { return xmlRootElement(data).map(isSVGName) ?? false }
        let answer = data.withContiguousStorageIfAvailable { b -> Bool in
            guard let range = rootElementRange(UnsafeBufferPointer(rebasing: b.prefix(prologLimit))) else { return false }
            let name = b[range]
            let svg: [UInt8] = Array("svg".utf8)
            return name.elementsEqual(svg) || (name.count > 4 && name.suffix(4).elementsEqual(Array(":svg".utf8)))
        }
        return answer ?? (xmlRootElement(data).map(isSVGName) ?? false)
    }

    /// Whether the text is UTF-16 (by its byte-order mark, or a `<` followed by a zero byte).
    static func isUTF16<Bytes: Collection>(_ data: Bytes) -> Bool where Bytes.Element == UInt8 {
        let head = Array(data.prefix(4))
        return head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF])
            || head.starts(with: [0x3C, 0x00]) || head.starts(with: [0x00, 0x3C])
    }

    /// The name of the root element when `data` starts like an XML document, else nil.
    static func xmlRootElement<Bytes: Collection>(_ data: Bytes) -> String? where Bytes.Element == UInt8 {
        var head = Array(data.prefix(prologLimit))
        if isUTF16(head) { head = utf16AsUTF8(head) }
        return rootElement(head)
    }

    private static func isSVGName(_ name: String) -> Bool {
        name == "svg" || name.hasSuffix(":svg")
    }

    /// UTF-16 (either byte order, BOM optional) re-encoded as UTF-8, for sniffing only.
    private static func utf16AsUTF8(_ bytes: [UInt8]) -> [UInt8] {
        let bigEndian = bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0x00, 0x3C])
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 0
        while i + 1 < bytes.count {
            units.append(
                bigEndian
                    ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
                    : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i]))
            i += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// Walks the prolog of UTF-8 text and answers the root element's name.
    private static func rootElement(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { b in
            rootElementRange(b).map { String(decoding: UnsafeBufferPointer(rebasing: b[$0]), as: UTF8.self) }
        }
    }

    /// Where the root element's name lies in UTF-8 text, after the prolog.
    private static func rootElementRange(_ b: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var i = 0
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        func matches(_ text: StaticString, at j: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard j + count <= b.count else { return false }
            for k in 0..<count where b[j + k] != text.utf8Start[k] { return false }
            return true
        }
        func at(_ text: StaticString) -> Bool { matches(text, at: i) }
        func skip(past terminator: StaticString) -> Bool {
            var j = i
            while j < b.count {
                if matches(terminator, at: j) { i = j + terminator.utf8CodeUnitCount; return true }
                j += 1
            }
            return false
        }
        while true {
            while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
            guard i < b.count, b[i] == UInt8(ascii: "<") else { return nil }
            if at("<?") {
                guard skip(past: "?>") else { return nil }
            } else if at("<!--") {
                guard skip(past: "-->") else { return nil }
            } else if at("<!DOCTYPE") {
                // To the `>` that closes it, past an internal subset in brackets.
                var depth = 0, j = i + 9
                while j < b.count, !(b[j] == UInt8(ascii: ">") && depth == 0) {
                    if b[j] == UInt8(ascii: "[") { depth += 1 }
                    if b[j] == UInt8(ascii: "]") { depth = max(0, depth - 1) }
                    j += 1
                }
                guard j < b.count else { return nil }
                i = j + 1
            } else {
                var j = i + 1
                while j < b.count, !SVGMarkupScanner.endsName(b[j]) { j += 1 }
                guard j > i + 1 else { return nil }
                return (i + 1)..<j
            }
        }
    }
}
