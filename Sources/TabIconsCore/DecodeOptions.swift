/// How to decode: size limits and the shrink-on-load hint.
public struct DecodeOptions: Sendable, Equatable {
    /// Limits checked from the header before any pixel buffer is allocated (SPEC §2).
    public struct Limits: Sendable, Equatable, Hashable {
        public var maxPixels: Int
        public var maxSide: Int
        public var maxInputBytes: Int
        /// An SVG's largest size in bytes, after .svgz decompression (icons are under 250 KB).
        public var maxSVGBytes: Int
        /// An SVG's most elements, every `<use>` copy counted (`SVGScreening`).
        public var maxSVGElements: Int
        /// The most memory one decode may take the process to, input and process included (SPEC §2,
        /// "Memory follows the limits"): a decode that would need more is refused as `tooLarge`
        /// before it allocates (`DecodeMemoryEstimate.check`).
        public var maxDecodeMemory: Int

        public init(
            maxPixels: Int = 100_000_000, maxSide: Int = 32_768, maxInputBytes: Int = 256 << 20,
            maxSVGBytes: Int = 1 << 20, maxSVGElements: Int = 10_000, maxDecodeMemory: Int = 256 << 20
        ) {
            self.maxPixels = maxPixels
            self.maxSide = maxSide
            self.maxInputBytes = maxInputBytes
            self.maxSVGBytes = maxSVGBytes
            self.maxSVGElements = maxSVGElements
            self.maxDecodeMemory = maxDecodeMemory
        }

        public static let `default` = Limits()

        /// The one check every decoder calls with the header's dimensions, before allocating.
        package func check(width: Int, height: Int, format: ImageFormat) throws(TabIconsError) {
            guard width > 0, height > 0 else {
                throw TabIconsError(.corrupt, "invalid image size \(width)×\(height)", format: format)
            }
            if width > maxSide || height > maxSide {
                throw TabIconsError(
                    .tooLarge, "\(width)×\(height) px exceeds the limit of \(maxSide) px a side",
                    format: format)
            }
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            if overflow || pixels > maxPixels {
                throw TabIconsError(
                    .tooLarge, "\(width)×\(height) px exceeds the limit of \(maxPixels) pixels",
                    format: format)
            }
        }

        /// The input-size check, done before any parsing.
        package func check(inputBytes: Int) throws(TabIconsError) {
            if inputBytes > maxInputBytes {
                throw TabIconsError(.tooLarge, "input of \(inputBytes) bytes exceeds the limit of \(maxInputBytes) bytes")
            }
        }
    }

    public var limits: Limits
    /// Shrink on load: the longest side (after orientation) the caller needs. JPEG then decodes
    /// through DCT scaling and WebP through its scaled decode, never below this side. nil: full size.
    public var longestSideNeeded: Int?

    public init(limits: Limits = .default, longestSideNeeded: Int? = nil) {
        self.limits = limits
        self.longestSideNeeded = longestSideNeeded
    }
}
