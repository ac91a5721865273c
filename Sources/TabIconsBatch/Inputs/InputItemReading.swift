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
        var status = stat()
        guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}

extension BatchInput {
    /// A collected input as the batch takes it: its bytes read when a worker takes it, refusing
    /// more than `limit` bytes; its size known from `stat` before that (the memory budget).
    public init(_ item: InputItem, limit: Int) {
        // One object both closures hold (each capturing the item would box it twice an input).
        let reader = ItemReader(item: item, limit: limit)
        self.init(
            name: item.displayName, outputStem: item.outputStem,
            load: { () throws(TabIconsError) -> Data in try reader.read() },
            expectedByteCount: { reader.item.byteCount }, sourcePath: item.path)
    }
}

/// A collected input and its byte limit, as a batch input's closures read it.
private final class ItemReader: Sendable {
    let item: InputItem
    let limit: Int

    init(item: InputItem, limit: Int) {
        self.item = item
        self.limit = limit
    }

    func read() throws(TabIconsError) -> Data { try item.read(limit: limit) }
}
