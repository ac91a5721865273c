import TabIconsCore
internal import CJPEGDecode
internal import CWebP
import Foundation

/// `data:` images inside an SVG (`<image href="data:image/png;base64,...">`), the only thing
/// librsvg loads from outside the document's own markup: each one's header is read with the same
/// header checks our decoders make (`PNGChunks`, libjpeg's `jpeg_read_header`, `WebPGetFeatures`)
/// and judged by the decode limits before librsvg decodes a pixel of it (measured: a 30000² px PNG
/// in a 146 KB SVG took librsvg 14 s and 6.2 GB).
///
/// Beyond the decode limits, all of a document's embedded images together may hold at most
/// `maxPixels` (librsvg keeps each decoded twice, gdk-pixbuf's copy and cairo's, 8 bytes a pixel:
/// 16 Mpx is 128 MiB). An embedded image that is not PNG, JPEG or WebP (GIF, BMP, TIFF: gdk-pixbuf
/// formats our checks cannot read), a nested SVG (a document with its own screening and filters),
/// or a payload that cannot be decoded here is refused rather than passed on unread.
enum SVGEmbeddedImages {
    static let maxPixels = 16 << 20

    /// Checks one `href` value that is a `data:` URL and answers its pixel count.
    static func check(_ url: String, limits: DecodeOptions.Limits, pixelsSoFar: Int) throws(TabIconsError) -> Int {
        guard let payload = payload(of: url) else {
            throw refused("an embedded data: URL that cannot be decoded (\(url.prefix(40).debugDescription)...)")
        }
        let remaining = max(0, maxPixels - pixelsSoFar)
        var embeddedLimits = limits
        embeddedLimits.maxPixels = min(limits.maxPixels, remaining)
        let format = ImageFormat.sniff(payload)
        let size: (width: Int, height: Int)
        do {
            size = try payload.withUnsafeBytesTyped { bytes throws(TabIconsError) in
                switch format {
                case .png?: let h = try PNGChunks.scan(bytes).header; return (h.width, h.height)
                case .jpeg?: return try jpegSize(bytes)
                case .webp?: return try webpSize(bytes)
                case .svg?: throw refused("an SVG embedded as a data: image is not supported")
                case nil:
                    throw refused(
                        "an embedded data: image that is not PNG, JPEG or WebP is not supported (\(ImageFormat.describeUnsupported(payload, decoded: nil)))"
                    )
                }
            }
            try embeddedLimits.check(width: size.width, height: size.height, format: format ?? .svg)
        } catch {
            if error.format == .svg { throw error }
            let budget =
                embeddedLimits.maxPixels < limits.maxPixels
                ? " (embedded images may hold \(maxPixels) pixels in all)" : ""
            throw TabIconsError(
                error.code == .tooLarge ? .tooLarge : .unsupported,
                "an embedded data: \(format?.rawValue.uppercased() ?? "image"): \(error.message)\(budget)",
                format: .svg)
        }
        return size.width * size.height
    }

    private static func refused(_ reason: String) -> TabIconsError {
        TabIconsError(.unsupported, reason, format: .svg)
    }

    /// The bytes of a `data:[<type>][;base64],<payload>` URL: base64 (whitespace ignored, as
    /// librsvg does) or percent-encoded. Nil when it is not a data: URL or does not decode.
    static func payload(of url: String) -> Data? {
        let text = url.drop { $0.isWhitespace }
        guard text.prefix(5).lowercased() == "data:", let comma = text.firstIndex(of: ",") else { return nil }
        let header = text[..<comma].lowercased()
        let body = text[text.index(after: comma)...]
        if header.hasSuffix(";base64") {
            var compact = String(body.filter { !$0.isWhitespace })
            compact = String(compact.prefix { $0 != "=" })
            let remainder = compact.count % 4
            if remainder == 1 { return nil }
            if remainder > 1 { compact += String(repeating: "=", count: 4 - remainder) }
            return Data(base64Encoded: compact)
        }
        return percentDecoded(Substring(body))
    }

    /// `%XX` sequences decoded, everything else as its UTF-8 bytes; nil on a broken sequence.
    static func percentDecoded(_ text: Substring) -> Data? {
        var out = Data()
        out.reserveCapacity(text.utf8.count)
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else { out.append(byte); continue }
            guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func jpegSize(_ bytes: UnsafeRawBufferPointer) throws(TabIconsError) -> (Int, Int) {
        guard let session = tabicons_jpeg_open(bytes.baseAddress, bytes.count) else {
            throw TabIconsError(.tooLarge, "out of memory for a JPEG decoder")
        }
        defer { tabicons_jpeg_close(session) }
        var header = tabicons_jpeg_header()
        guard tabicons_jpeg_read_header(session, &header) == TABICONS_JPEG_OK else {
            throw TabIconsError(.corrupt, String(cString: tabicons_jpeg_message(session)))
        }
        return (Int(header.width), Int(header.height))
    }

    private static func webpSize(_ bytes: UnsafeRawBufferPointer) throws(TabIconsError) -> (Int, Int) {
        var features = WebPBitstreamFeatures()
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
            WebPGetFeatures(base, bytes.count, &features) == VP8_STATUS_OK
        else {
            throw TabIconsError(.corrupt, "WebPGetFeatures could not read the header")
        }
        return (Int(features.width), Int(features.height))
    }
}
