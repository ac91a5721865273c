import TabIcons
import Foundation

/// Writes one file so that a reader never sees a partial one: the bytes go to a temporary name
/// (`TemporaryName`) in the destination folder (same file system), then a rename puts them in
/// place; a failure removes the temporary. For the files whose path the user names (the manifest,
/// the preview); outputs below `--out` go through `OutputDirectory` (no link followed).
///
/// No `fsync`: the rename already keeps a killed run from leaving a partial file; what an unsynced
/// write gives up is durability across an operating-system crash, as with `cp` or Pillow.
package enum AtomicFileWriter {
    package static func write(_ data: Data, to url: URL) throws(TabIconsError) {
        try write(Array(data), toPath: url.path)
    }

    /// A missing folder is created on the first failed open, so a write into a folder that exists
    /// costs no extra system call.
    package static func write(_ bytes: [UInt8], toPath path: String) throws(TabIconsError) {
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let create = { (name: String) in open(folder + name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        var (fd, name) = TemporaryName.create(create)
        if fd < 0 && (errno == ENOENT || errno == ENOTDIR) {
            try makeFolders(folder.isEmpty ? "." : String(folder.dropLast()))
            (fd, name) = TemporaryName.create(create)
        }
        guard fd >= 0 else { throw failure("cannot write \(path)", path) }
        let temporary = folder + name
        var error: TabIconsError?
        if !writeAll(bytes, to: fd) { error = failure("cannot write \(path)", path) }
        if close(fd) != 0, error == nil { error = failure("cannot write \(path)", path) }
        if error == nil, rename(temporary, path) != 0 { error = failure("cannot rename into place", path) }
        if let error {
            unlink(temporary)
            throw error
        }
    }

    /// The same for bytes made in pieces: `produce` hands each piece to `put`, which answers false
    /// once the pieces passed `limit` bytes in all (nothing more is taken); then the write is a
    /// `tooLarge` failure and nothing at `path` changes.
    package static func write(
        toPath path: String, limit: Int = .max, _ produce: (_ put: ([UInt8]) -> Bool) -> Void
    ) throws(TabIconsError) {
        var bytes: [UInt8] = []
        var over = false
        produce { piece in
            over = over || bytes.count + piece.count > limit
            if !over { bytes += piece }
            return !over
        }
        if over { throw TabIconsError(.tooLarge, "\(path) would hold more than \(limit) bytes", input: path) }
        try write(bytes, toPath: path)
    }

    /// All of `bytes` to `fd` (a write interrupted by a signal is asked again); false on failure.
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            written += n
        }
        return true
    }

    /// `mkdir -p` with the system's reason on failure ("not a directory", "permission denied"),
    /// where FileManager on Linux says only "NSCocoaErrorDomain error 512".
    package static func makeFolders(_ path: String) throws(TabIconsError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o777) == 0 { continue }
            let reason = errno
            var info = stat()
            if reason == EEXIST, stat(current, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { continue }
            let text =
                reason == EEXIST
                ? "\(current) exists and is not a folder"
                : "cannot create \(current): \(TabIconsError.systemReason(reason))"
            throw TabIconsError(.io, text, input: path)
        }
    }

    /// An `io` error with the system's reason for the last failed call.
    private static func failure(_ what: String, _ path: String) -> TabIconsError {
        TabIconsError(.io, "\(what): \(TabIconsError.systemReason())", input: path)
    }
}
