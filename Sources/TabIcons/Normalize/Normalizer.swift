import Foundation

// PLACEHOLDER: the normalizer work (issue 3) replaces this file.
public struct Normalizer: Sendable {
    public let options: NormalizeOptions
    public init(options: NormalizeOptions = NormalizeOptions()) { self.options = options }

    public func normalize(_ data: Data) throws(TabIconsError) -> NormalizedIcon {
        throw TabIconsError(.unsupported, "the normalizer is not built yet")
    }
}
