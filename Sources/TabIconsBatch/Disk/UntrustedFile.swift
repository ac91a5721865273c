import TabIcons
import Foundation

/// Reads a file tabicon wrote in an earlier run (the manifest, its stat cache, the journal) as
/// the untrusted data it is (SPEC §6a): never through a link, never a FIFO or device (opened
/// without blocking, then checked), and never more than `cap` bytes, refused by its size before a
/// byte is read. A config is read the same way but through a link, as inputs are: it is the
/// user's file, and a build sandbox links it in.
enum UntrustedFile {
    /// The most such a file may hold (a manifest of about 9,000 icons); tabicon never writes more.
    static let cap = 16 << 20

    enum Failure: Error {
        /// A link, folder, FIFO, device or socket at the path.
        case notARegularFile
        case tooLarge(bytes: Int)
        case unreadable(String)
    }

    /// The bytes at `path` and what the file system says of the file, or nil when nothing is there.
    static func read(_ path: String, cap: Int = cap, followingLinks: Bool = false) throws(Failure)
        -> (bytes: [UInt8], stat: FileStat)?
    {
        let fd = open(path, O_RDONLY | (followingLinks ? 0 : O_NOFOLLOW) | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            // Without following, ELOOP is the link itself; following, a loop of links.
            throw errno == ELOOP && !followingLinks ? .notARegularFile : .unreadable(TabIconsError.systemReason())
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(TabIconsError.systemReason()) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile }
        guard Int(info.st_size) <= cap else { throw .tooLarge(bytes: Int(info.st_size)) }
        guard let data = bytes(of: fd, size: Int(info.st_size)) else { throw .unreadable(TabIconsError.systemReason()) }
        return ([UInt8](data), FileStat(info))
    }

    /// Up to `size` bytes of the open file in one allocation (fewer when it is shorter now); nil
    /// when a read fails.
    static func bytes(of fd: Int32, size: Int) -> Data? {
        var data = Data(count: size)
        var filled = 0
        while filled < size {
            let n = data.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + filled, size - filled) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { data.removeSubrange(filled...); break }
            filled += n
        }
        return data
    }
}

extension UntrustedFile.Failure {
    /// Why the file was refused, as a clause.
    var reason: String {
        switch self {
        case .notARegularFile: return "it is a link, a folder or a special file"
        case .tooLarge(let bytes):
            return "it holds \(bytes) bytes, more than the \(UntrustedFile.cap >> 20) MiB a tabicon file may"
        case .unreadable(let reason): return reason
        }
    }
}
