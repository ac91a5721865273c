import Foundation

/// The formats TabIcons decodes, recognised from the bytes, never from a file name.
public enum ImageFormat: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case png
    case jpeg
    case webp
    /// XML whose root element is `svg`, also gzip-compressed (`.svgz`): a vector (`SVGSniff`).
    case svg
}
