import Foundation
import TabIcons
import TabIconsBatch

/// Reading a collected input: what every command that takes inputs does with an `InputItem`.
extension InputItem {
    /// The input's bytes (stdin or file), refusing more than `limit` bytes.
    func read(limit: Int) throws(TabIconsError) -> Data {
        switch source {
        case .standardInput: try InputReader.readStandardInput(limit: limit)
        case .file(let url): try InputReader.read(url, limit: limit, regularOnly: wasRegularFile)
        }
    }

    /// The file's size from `stat`, without reading it; nil for stdin or when it cannot be known.
    var byteCount: Int? {
        guard case .file(let url) = source else { return nil }
        var status = stat()
        guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}
