import TabIconsCore
import Foundation

/// Inputs that arrive as text: base64, or a `data:image/...;base64,` URL (what web-view apps
/// pass), or for SVG a `data:image/svg+xml,...` URL, percent-encoded (or raw) or base64. Binary
/// inputs, and SVG text itself, pass through untouched.
enum InputEncoding {
    /// The binary image inside `data`: itself when it already starts like an image (or is not
    /// text), else the decoded base64 payload. Returns nil when it is text that is not base64.
    static func unwrap(_ data: Data) -> Data? {
        if ImageFormat.sniff(data) != nil { return data }
        guard looksLikeText(data) else { return data }
        var text = Substring(String(decoding: data, as: UTF8.self))
        text = text.drop { $0.isWhitespace }
        if text.lowercased().hasPrefix("data:") {
            guard let comma = text.firstIndex(of: ",") else { return nil }
            let header = text[..<comma].lowercased()
            if !header.hasSuffix(";base64") {
                // Only SVG is text: `data:image/svg+xml[;charset=...],<percent-encoded markup>`.
                guard header.hasPrefix("data:image/svg+xml"),
                    let markup = SVGEmbeddedImages.percentDecoded(text[text.index(after: comma)...]),
                    ImageFormat.sniff(markup) == .svg
                else { return nil }
                return markup
            }
            text = text[text.index(after: comma)...]
        }
        let compact = text.filter { !$0.isWhitespace }
        guard !compact.isEmpty else { return nil }
        // Accept URL-safe base64 and missing padding, both common from JavaScript.
        var standard = String(compact).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = standard.count % 4
        if remainder == 2 || remainder == 3 { standard += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: standard)
    }

    /// Whether the first bytes are printable ASCII text (base64 and data URLs are).
    static func looksLikeText(_ data: Data) -> Bool {
        let head = data.prefix(64)
        guard !head.isEmpty else { return false }
        return head.allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20...0x7E).contains($0) }
    }
}
