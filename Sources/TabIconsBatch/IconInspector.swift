import TabIcons
import Foundation

/// What `inspect` learns about one icon without rendering anything: the decoded image's
/// description, the content hash of its bytes, and the normalizer's plan for it (decode scale,
/// point size and the lints `normalize` would report at the default scales), from the same plan
/// `normalize` renders, never worked out again here.
package struct IconInspector: Sendable {
    package struct Report: Sendable {
        package var info: ImageInfo
        package var contentHash: ContentHash
        /// The normalizer's answer without renditions: decode scale, point size, lints.
        package var planned: NormalizedIcon
        package var lints: [Lint] { planned.lints }
    }

    package let box: IconBox
    package let limits: DecodeOptions.Limits

    package init(box: IconBox = .regular, limits: DecodeOptions.Limits = .default) {
        self.box = box
        self.limits = limits
    }

    package func inspect(_ data: Data) throws(TabIconsError) -> Report {
        // Decoded as `normalize` decodes it (a PNG row by row, shrink on load; a vector drawn at
        // the largest rendition's size, not its intrinsic one), so the plan and its lints are
        // normalize's own.
        let planned = try Normalizer(options: NormalizeOptions(box: box, limits: limits)).planned(data)
        return Report(info: planned.source, contentHash: ContentHash(of: data), planned: planned)
    }
}
