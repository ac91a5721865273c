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

    /// The regular file's size from `stat` (links followed), without reading it; nil for stdin
    /// or when it is not a regular file.
    public var byteCount: Int? {
        var status = stat()
        guard case .file(let url) = source, stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
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
