import TabIcons
import Foundation

/// Reads a file tabicon wrote in an earlier run (the manifest, the journal) as the untrusted data
/// it is (SPEC §6a): never through a link, never a FIFO or device (opened without blocking, then
/// checked), and never more than `cap` bytes, refused by its size before a byte is read.
enum UntrustedFile {
    /// The most a manifest or journal may hold: about 75,000 icons' entries (an entry of three
    /// renditions with their stat records is about 1.8 KB). tabicon never writes a larger manifest
    /// (`BatchNormalizer` fails its write instead), so a larger file is not one it wrote. What the
    /// reader keeps grows with the text, up to five times its size for a file made to cost the
    /// most (one entry of two million renditions, read whole to prune its files:
    /// bench/README.md): the cap is that bound too.
    static let cap = 128 << 20

    enum Failure: Error {
        /// A link, folder, FIFO, device or socket at the path.
        case notARegularFile
        case tooLarge(bytes: Int)
        case unreadable(String)
    }

    /// The bytes at `path` and what the file system says of the file, or nil when nothing is there.
    static func read(_ path: String, cap: Int = cap) throws(Failure) -> (bytes: [UInt8], stat: FileStat)? {
        try withOpened(path, cap: cap) { (fd, stat) throws(Failure) in
            guard let bytes = bytes(of: fd, size: stat.size) else { throw .unreadable(TabIconsError.systemReason()) }
            return (bytes, stat)
        }
    }

    /// `body` with the file at `path` open (checked as `read` checks it, closed after) and what
    /// the file system says of it, for a reader that takes the bytes in pieces (`ManifestReader`):
    /// it must read no more than the stat's size. Nil when nothing is there.
    static func withOpened<T>(
        _ path: String, cap: Int = cap,
        _ body: (Int32, FileStat) throws(Failure) -> T
    ) throws(Failure) -> T? {
        guard let (fd, stat) = try opened(path, cap: cap) else { return nil }
        defer { close(fd) }
        return try body(fd, stat)
    }

    /// The file at `path` opened as `withOpened` opens it, for the caller to close; nil when
    /// nothing is there.
    static func opened(_ path: String, cap: Int = cap) throws(Failure) -> (fd: Int32, stat: FileStat)? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw errno == ELOOP ? .notARegularFile : .unreadable(TabIconsError.systemReason())
        }
        var info = stat()
        var failure: Failure?
        if fstat(fd, &info) != 0 {
            failure = .unreadable(TabIconsError.systemReason())
        } else if info.st_mode & S_IFMT != S_IFREG {
            failure = .notARegularFile
        } else if Int(info.st_size) > cap {
            failure = .tooLarge(bytes: Int(info.st_size))
        }
        if let failure {
            close(fd)
            throw failure
        }
        return (fd, FileStat(info))
    }

    /// Each line of the regular file open at `fd` (at most `size` bytes of it, read `chunk` at a
    /// time; the last line need not end in a newline), without its newline; a line longer than
    /// `longest` is handed over as nil, never held. So a reader holds what it keeps of the lines,
    /// not the file. Throws `unreadable` on a read error.
    static func forEachLine(
        of fd: Int32, size: Int, chunk: Int = 64 << 10, longest: Int = 64 << 10,
        _ body: (ArraySlice<UInt8>?) -> Void
    ) throws(Failure) {
        var buffer = [UInt8](repeating: 0, count: chunk)
        var line: [UInt8] = []
        var overlong = false
        var remaining = size
        while remaining > 0 {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, min($0.count, remaining)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .unreadable(TabIconsError.systemReason()) }
            if n == 0 { break }
            remaining -= n
            var start = 0
            while start < n {
                let end = buffer[start..<n].firstIndex(of: UInt8(ascii: "\n")) ?? n
                if !overlong {
                    if line.count + (end - start) > longest {
                        overlong = true
                        line = []
                    } else {
                        line += buffer[start..<end]
                    }
                }
                guard end < n else { break }
                body(overlong ? nil : line[...])
                line.removeAll(keepingCapacity: true)
                overlong = false
                start = end + 1
            }
        }
        if overlong || !line.isEmpty { body(overlong ? nil : line[...]) }
    }

    /// `count` bytes of the file open at `fd` from `offset` (its position left as it was), nil
    /// unless all of them could be read: what a reader reads again at a place it knows.
    static func bytes(of fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            filled += n
        }
        return bytes
    }

    /// The bytes of the regular file open at `fd`, `size` as `fstat` said (fewer when it shrank
    /// meanwhile), in one allocation; nil on a read error, `errno` telling why.
    static func bytes(of fd: Int32, size: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let n = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { bytes.removeSubrange(filled...); break }
            filled += n
        }
        return bytes
    }
}

extension UntrustedFile.Failure {
    var reason: String {
        switch self {
        case .notARegularFile: return "it is a link, a folder or a special file"
        case .tooLarge(let bytes):
            return "it holds \(bytes) bytes, more than the \(UntrustedFile.cap >> 20) MiB a tabicon file may"
        case .unreadable(let reason): return reason
        }
    }
}
