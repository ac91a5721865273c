import Foundation
import TabIcons

/// Reading a collected input: what every command that takes inputs does with an `InputItem`,
/// and the batch's own input made from one.
extension InputItem {
    /// The input's bytes (stdin or file), refusing more than `limit` bytes.
    public func read(limit: Int) throws(TabIconsError) -> Data {
        switch source {
        case .standardInput: try InputReader.readStandardInput(limit: limit)
        case .file(let url): try InputReader.read(url, limit: limit, regularOnly: wasRegularFile)
        }
    }

    /// The file's size from `stat`, without reading it; nil for stdin or when it cannot be known.
    public var byteCount: Int? {
        guard case .file(let url) = source else { return nil }
        return InputReader.regularFileSize(atPath: url.path)
    }
}

extension BatchInput {
    /// A collected input as the batch takes it, refusing more than `limit` bytes.
    public init(_ item: InputItem, limit: Int) {
        self.init(
            name: item.displayName, outputStem: item.outputStem,
            load: { () throws(TabIconsError) -> Data in try item.read(limit: limit) },
            expectedByteCount: { item.byteCount }, sourcePath: item.path)
    }
}
