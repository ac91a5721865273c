import TabIcons
import Foundation

/// Reads an input file or stdin into memory, refusing more than the input limit before reading.
package enum InputReader {
    /// The bytes at `url`. A directory, a missing or unreadable file is an `io` error; a file
    /// larger than `limit` bytes is `tooLarge` without being read. Plain POSIX calls: one `open`,
    /// `fstat` and `read` a file.
    ///
    /// The file is opened with `O_NONBLOCK`, so opening a FIFO never waits for a writer. With
    /// `regularOnly` (a file the walk or the command line saw as a regular file), anything else
    /// found there now is an `io` error: a FIFO swapped in after the walk must not hang the batch.
    /// Otherwise special files (a FIFO named on the command line) are reopened as the user named
    /// them and read to their end, up to the limit.
    package static func read(_ url: URL, limit: Int = DecodeOptions.Limits.default.maxInputBytes,
                             regularOnly: Bool = false) throws(TabIconsError) -> Data {
        let path = url.path
        var fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw TabIconsError(.io, TabIconsError.systemReason(), input: path) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let error = TabIconsError(.io, TabIconsError.systemReason(), input: path)
            close(fd)
            throw error
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            close(fd)
            throw TabIconsError(.io, "is a directory", input: path)
        }
        if regularOnly && type != S_IFREG {
            close(fd)
            throw TabIconsError(.io, "is no longer a regular file (a FIFO, socket or device is there now)", input: path)
        }
        if type != S_IFREG {
            close(fd)
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw TabIconsError(.io, TabIconsError.systemReason(), input: path) }
        }
        // Special files, and regular ones that report no size (procfs, sysfs), are read to
        // their end like a pipe.
        guard type == S_IFREG, status.st_size > 0 else {
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            return try readAll(handle, limit: limit, name: path)
        }
        defer { close(fd) }
        let size = Int(status.st_size)
        if size > limit {
            throw TabIconsError(.tooLarge, "input of \(size) bytes exceeds the limit of \(limit) bytes", input: path)
        }
        // A regular file is read in one allocation of its size: a 9 MB photo costs 9 MB, not the
        // doubling of a growing buffer (the photo batch's peak memory is measured against Pillow).
        var data = Data(count: size)
        var filled = 0
        var failed = false
        data.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            while filled < size {
                let n = Foundation.read(fd, base + filled, size - filled)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { failed = n < 0; break }
                filled += n
            }
        }
        if failed { throw TabIconsError(.io, TabIconsError.systemReason(), input: path) }
        if filled < size { data.removeSubrange(filled...) }   // the file shrank while being read
        return data
    }

    /// All of standard input, up to `limit` bytes.
    package static func readStandardInput(limit: Int = DecodeOptions.Limits.default.maxInputBytes) throws(TabIconsError) -> Data {
        try readAll(FileHandle.standardInput, limit: limit, name: "-")
    }

    private static func readAll(_ handle: FileHandle, limit: Int, name: String) throws(TabIconsError) -> Data {
        var data = Data()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                throw TabIconsError(.io, describe(error), input: name)
            }
            guard let chunk, !chunk.isEmpty else { return data }
            data.append(chunk)
            if data.count > limit {
                throw TabIconsError(.tooLarge, "input exceeds the limit of \(limit) bytes", input: name)
            }
        }
    }

    /// The system's reason without Foundation's wrapping ("The file couldn't be opened" ...).
    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return TabIconsError.systemReason(code.rawValue)
        }
        if nsError.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(nsError.code)) {
            return TabIconsError.systemReason(code.rawValue)
        }
        return nsError.localizedDescription
    }
}
