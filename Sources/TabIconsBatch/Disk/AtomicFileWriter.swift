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

    /// The same for bytes made in pieces: `produce` hands each piece to `put`, which answers
    /// false once writing failed (nothing more is then taken). More than `limit` bytes in all is
    /// a `tooLarge` failure: nothing is renamed into place.
    package static func write(
        toPath path: String, limit: Int = .max, _ produce: (_ put: ([UInt8]) -> Bool) -> Void
    ) throws(TabIconsError) {
        let file = try Pending(path: path, limit: limit)
        produce { file.put($0) }
        try file.commit()
    }

    /// A file being written at its temporary name, put in place by `commit` or removed by
    /// `abandon` (one of them once): for bytes that come over a while (the manifest as a run goes,
    /// `ManifestOutput`). Used by one thread at a time.
    package final class Pending: @unchecked Sendable {
        private let path: String
        private let temporary: String
        private let limit: Int
        private var fd: Int32
        private var total = 0
        private var failure: TabIconsError?

        /// Opens the temporary in `path`'s folder (created when missing).
        package init(path: String, limit: Int = .max) throws(TabIconsError) {
            let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            self.path = path
            self.limit = limit
            temporary = TemporaryName.path(beside: path)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 && (errno == ENOENT || errno == ENOTDIR) {
                try makeFolders(folder)
                fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            }
            guard fd >= 0 else { throw AtomicFileWriter.failure("cannot write \(path)", path) }
        }

        /// Appends `bytes`; false once writing failed or passed the limit (nothing more is taken).
        @discardableResult
        package func put(_ bytes: [UInt8]) -> Bool {
            guard failure == nil else { return false }
            total += bytes.count
            guard total <= limit else {
                failure = TabIconsError(.tooLarge, "\(path) would hold more than \(limit) bytes", input: path)
                return false
            }
            let ok = bytes.withUnsafeBytes { raw -> Bool in
                guard let base = raw.baseAddress else { return true }
                var written = 0
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
            if !ok { failure = AtomicFileWriter.failure("cannot write \(path)", path) }
            return ok
        }

        /// Closes the file and renames it into place; on any failure (a write's before it) the
        /// temporary is removed and the failure thrown.
        package func commit() throws(TabIconsError) {
            let closed = close(fd) == 0
            var error = failure
            if error == nil, !closed { error = AtomicFileWriter.failure("cannot write \(path)", path) }
            if error == nil, rename(temporary, path) != 0 { error = AtomicFileWriter.failure("cannot rename into place", path) }
            if let error {
                unlink(temporary)
                throw error
            }
        }

        /// Closes and removes the temporary: nothing at `path` changes.
        package func abandon() {
            close(fd)
            unlink(temporary)
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
    fileprivate static func failure(_ what: String, _ path: String) -> TabIconsError {
        TabIconsError(.io, "\(what): \(TabIconsError.systemReason())", input: path)
    }
}
