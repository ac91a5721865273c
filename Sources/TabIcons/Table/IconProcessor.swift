import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import Foundation

/// The work the side table's cache does once per content: encoded bytes in, a normalized icon out.
///
/// The table never decodes by itself; it asks its processor, at most once per distinct content
/// while that content is live. The default processor is a `Normalizer` with default options; a
/// runtime with other needs (another box, other screen scales) passes its own configured
/// `Normalizer`, and tests and the benchmark inject counting processors.
///
/// A processor must be deterministic: the cache keeps its first answer (icon or error) for as long
/// as the content is live and gives it to every slot that shows those bytes.
public protocol IconProcessor: Sendable {
    func process(_ bytes: Data) throws(TabIconsError) -> NormalizedIcon
}

extension Normalizer: IconProcessor {
    public func process(_ bytes: Data) throws(TabIconsError) -> NormalizedIcon {
        try normalize(bytes)
    }
}
