import TabIcons
import Foundation

/// Writes one file so that a reader never sees a partial one: the bytes go to a temporary name
/// (`TemporaryName`) in the destination folder (same file system), then a rename puts them in
/// place. A failure removes the temporary file. Folders are created as needed. The batch's
/// outputs go through `OutputDirectory` instead (no links followed, whole sets); this is for the
/// manifest, whose path the user names (and the plan has checked).
///
/// Plain POSIX calls, and no `fsync`: Foundation's `Data.write(to:)` syncs every file to disk,
/// which made writing a batch's 1,000-odd small renditions cost more than normalizing them (and
/// left the CPU idle, waiting on the disk). The rename still guarantees that a running or killed
/// `tabicon` never leaves a partial file; what an unsynced write gives up is only durability
/// across an operating-system crash, as with `cp`, Pillow or vips.
package enum AtomicFileWriter {
    package static func write(_ data: Data, to url: URL) throws(TabIconsError) {
        try write(Array(data), to: url)
    }

    package static func write(_ bytes: [UInt8], to url: URL) throws(TabIconsError) {
        try write(bytes, toPath: url.path)
    }

    /// The same for a path; a missing folder is created on the first failed open, so a batch
    /// writing into folders that exist pays no extra system call per file.
    package static func write(_ bytes: [UInt8], toPath path: String) throws(TabIconsError) {
        try write(toPath: path) { put in _ = put(bytes) }
    }

    /// The same for bytes made in pieces (the manifest, `ManifestWriter`): `produce` hands each
    /// piece to `put`, which answers false once writing failed (nothing more is then taken).
    /// More than `limit` bytes in all is a `tooLarge` failure: nothing is renamed into place.
    package static func write(
        toPath path: String, limit: Int = .max, _ produce: (_ put: ([UInt8]) -> Bool) -> Void
    ) throws(TabIconsError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let temporary = (slash == nil ? "" : folder + "/") + TemporaryName.make()
        var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 && (errno == ENOENT || errno == ENOTDIR) {
            try makeFolders(folder)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw failure("cannot write \(path)", path) }
        var ok = true
        var reason: Int32 = 0
        var total = 0
        var overLimit = false
        produce { bytes in
            guard ok else { return false }
            total += bytes.count
            guard total <= limit else {
                overLimit = true
                ok = false
                return false
            }
            var written = 0
            ok = bytes.withUnsafeBytes { raw -> Bool in
                guard let base = raw.baseAddress else { return true }
                while written < raw.count {
                    let n = Foundation.write(fd, base + written, raw.count - written)
                    if n < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    written += n
                }
                return true
            }
            if !ok { reason = errno }
            return ok
        }
        if !ok { errno = reason }
        let writeError =
            ok
            ? nil
            : overLimit
                ? TabIconsError(.tooLarge, "\(path) would hold more than \(limit) bytes", input: path)
                : failure("cannot write \(path)", path)
        let closed = close(fd) == 0
        if let writeError {
            unlink(temporary)
            throw writeError
        }
        guard closed else {
            let error = failure("cannot write \(path)", path)
            unlink(temporary)
            throw error
        }
        if rename(temporary, path) != 0 {
            let error = failure("cannot rename into place", path)
            unlink(temporary)
            throw error
        }
    }

    /// `mkdir -p` with the system's reason on failure ("not a directory" when a path component is
    /// a file, "permission denied"...). FileManager on Linux reports those as a bare
    /// "NSCocoaErrorDomain error 512", which tells a user nothing.
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
