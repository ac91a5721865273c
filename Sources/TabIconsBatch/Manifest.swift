import TabIcons
import Foundation

/// The document `tabicon normalize` writes and `tabicon inspect --json` prints (SPEC §6), as
/// build pipelines read it. Keys may be added over time, never renamed; `renditions` is absent
/// from an inspect document.
public struct Manifest: Codable, Sendable, Equatable {
    public var version: Int
    public var tool: String
    public var box: Double
    public var scales: [Double]
    public var icons: [Icon]
    public var errors: [ErrorEntry]

    public init(box: IconBox, scales: [Double], icons: [Icon] = [], errors: [ErrorEntry] = []) {
        self.version = 1
        self.tool = "tabicon \(TabIconsVersion.current)"
        self.box = box.points
        self.scales = scales
        self.icons = icons
        self.errors = errors
    }

    /// One icon that decoded, with what was learned and (for normalize) what was written.
    public struct Icon: Codable, Sendable, Equatable {
        public var input: String
        public var name: String
        public var format: String
        public var pixelWidth: Int
        public var pixelHeight: Int
        public var orientation: Int
        public var hasAlpha: Bool
        public var animated: Bool
        /// SVG: renditions drawn from the document, `pixelWidth`/`pixelHeight` its intrinsic size.
        public var vector: Bool?
        public var contentHash: String
        public var decodeScale: Double
        public var pointWidth: Double
        public var pointHeight: Double
        public var renditions: [RenditionEntry]?
        public var lints: [Lint]

        public init(input: String, name: String, info: ImageInfo, contentHash: ContentHash,
                    box: IconBox, renditions: [RenditionEntry]?, lints: [Lint]) {
            self.input = input
            self.name = name
            self.format = info.format.rawValue
            self.pixelWidth = info.pixelWidth
            self.pixelHeight = info.pixelHeight
            self.orientation = info.orientation.rawValue
            self.hasAlpha = info.hasAlpha
            self.animated = info.isAnimated
            self.vector = info.isVector ? true : nil
            self.contentHash = contentHash.description
            let scale = box.decodeScale(of: info)
            // Rounded to 4 decimals so 96/25 reads 3.84, not 3.8400000000000003.
            self.decodeScale = Manifest.rounded(scale)
            self.pointWidth = Manifest.rounded(Double(info.pixelWidth) / scale)
            self.pointHeight = Manifest.rounded(Double(info.pixelHeight) / scale)
            self.renditions = renditions
            self.lints = lints
        }

        var jsonValue: JSONValue {
            var pairs: [(String, JSONValue)] = [
                ("input", .string(input)), ("name", .string(name)), ("format", .string(format)),
                ("pixelWidth", .int(pixelWidth)), ("pixelHeight", .int(pixelHeight)),
                ("orientation", .int(orientation)), ("hasAlpha", .bool(hasAlpha)), ("animated", .bool(animated)),
            ] + (vector == true ? [("vector", .bool(true))] : []) + [
                ("contentHash", .string(contentHash)), ("decodeScale", .double(decodeScale)),
                ("pointWidth", .double(pointWidth)), ("pointHeight", .double(pointHeight)),
            ]
            if let renditions { pairs.append(("renditions", .array(renditions.map(\.jsonValue)))) }
            pairs.append(("lints", .array(lints.map { .object([("code", .string($0.code.rawValue)), ("message", .string($0.message))]) })))
            return .object(pairs)
        }
    }

    /// One written file: its screen scale, path relative to the output root, size and hash.
    public struct RenditionEntry: Codable, Sendable, Equatable {
        public var scale: Double
        public var path: String
        public var pixelWidth: Int
        public var pixelHeight: Int
        public var bytes: Int
        public var hash: String

        public init(scale: Double, path: String, pixelWidth: Int, pixelHeight: Int, bytes: Int, hash: ContentHash) {
            self.scale = scale
            self.path = path
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.bytes = bytes
            self.hash = hash.description
        }

        var jsonValue: JSONValue {
            .object([
                ("scale", .double(scale)), ("path", .string(path)), ("pixelWidth", .int(pixelWidth)),
                ("pixelHeight", .int(pixelHeight)), ("bytes", .int(bytes)), ("hash", .string(hash)),
            ])
        }
    }

    /// One input that failed, with its error code and the library's reason.
    public struct ErrorEntry: Codable, Sendable, Equatable {
        public var input: String
        public var code: String
        public var message: String

        public init(input: String, error: TabIconsError) {
            self.input = input
            self.code = error.code.rawValue
            self.message = error.message
        }

        var jsonValue: JSONValue {
            .object([("input", .string(input)), ("code", .string(code)), ("message", .string(message))])
        }
    }

    /// The document as pretty-printed JSON, keys in the order SPEC §6 shows them.
    public func jsonData() -> Data { Data((jsonValue.text() + "\n").utf8) }

    package var jsonValue: JSONValue {
        .object([
            ("version", .int(version)), ("tool", .string(tool)), ("box", .double(box)),
            ("scales", .array(scales.map { .double($0) })),
            ("icons", .array(icons.map(\.jsonValue))),
            ("errors", .array(errors.map(\.jsonValue))),
        ])
    }

    static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}
