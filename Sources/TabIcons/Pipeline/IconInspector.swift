import Foundation

/// What `inspect` learns about one icon without rendering anything: the decoded image's
/// description, the content hash of its bytes, and the lints that do not depend on a rendition.
public struct IconInspector: Sendable {
    public struct Report: Sendable {
        public var info: ImageInfo
        public var contentHash: ContentHash
        public var lints: [Lint]
    }

    public let box: IconBox
    public let limits: DecodeOptions.Limits

    public init(box: IconBox = .regular, limits: DecodeOptions.Limits = .default) {
        self.box = box
        self.limits = limits
    }

    public func inspect(_ data: Data) throws(TabIconsError) -> Report {
        let image = try ImageDecoder.decode(data, options: DecodeOptions(limits: limits))
        return Report(info: image.info, contentHash: ContentHash(of: data),
                      lints: [])  // PLACEHOLDER: source lints arrive with the normalizer
    }
}
