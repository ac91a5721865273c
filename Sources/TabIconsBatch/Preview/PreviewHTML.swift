import Foundation
import TabIcons

/// The page's text being built: markup the page writes itself (`raw`), and text that came from
/// outside (file names, messages) which always goes through `escape`, so an input named
/// `<img src=x onerror=alert(1)>.png` reads as those characters and never becomes markup.
struct PreviewHTML {
    private(set) var text = ""

    mutating func raw(_ markup: String) { text += markup }
    mutating func text(_ words: String) { text += Self.escape(words) }

    /// Escapes the five characters that can end text or an attribute value (`&`, `<`, `>`, `"`,
    /// `'`), so the result is safe both between tags and inside quoted attributes.
    static func escape(_ words: String) -> String {
        var out = ""
        out.reserveCapacity(words.utf8.count)
        for character in words.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A rendition as a `data:` URL, its type sniffed from the bytes (PNG, WebP, or the SVG
    /// `--vector` wrote).
    static func dataURL(_ bytes: [UInt8]) -> String {
        let type =
            switch ImageFormat.sniff(Data(bytes)) {
            case .webp: "image/webp"
            case .svg: "image/svg+xml"
            default: "image/png"
            }
        return "data:\(type);base64," + Data(bytes).base64EncodedString()
    }
}
