import TabIcons
import Foundation

/// Reads an input file or stdin into memory, refusing more than the input limit before reading.
package enum InputReader {
    /// The bytes at `url`. A directory, a missing or unreadable file is an `io` error; a file
    /// larger than `limit` bytes is `tooLarge` without being read.
    ///
    /// Opened with `O_NONBLOCK`, so opening a FIFO never waits for a writer. With `regularOnly` (a
    /// file the walk or the command line saw as a regular file), anything else found there now is
    /// an `io` error: a FIFO swapped in after the walk must not hang the batch.
    package static func read(
        _ url: URL, limit: Int = DecodeOptions.Limits.default.maxInputBytes,
        regularOnly: Bool = false
    ) throws(TabIconsError) -> Data {
        let path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
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
        // Special files, and regular ones that report no size (procfs), are read to their end like
        // a pipe, through this very descriptor (a reopened FIFO would lose what was written).
        guard type == S_IFREG, status.st_size > 0 else {
            defer { close(fd) }
            return try readStream(fd, limit: limit, name: path)
        }
        defer { close(fd) }
        let size = Int(status.st_size)
        if size > limit {
            throw TabIconsError(.tooLarge, "input of \(size) bytes exceeds the limit of \(limit) bytes", input: path)
        }
        guard let data = UntrustedFile.bytes(of: fd, size: size) else {
            throw TabIconsError(.io, TabIconsError.systemReason(), input: path)
        }
        return data
    }

    /// All of standard input, up to `limit` bytes.
    package static func readStandardInput(limit: Int = DecodeOptions.Limits.default.maxInputBytes) throws(TabIconsError) -> Data {
        try readStream(STDIN_FILENO, limit: limit, name: "-")
    }

    /// A pipe, FIFO or device read to its end: `poll` waits for data or for the last writer's
    /// close (a FIFO nobody has opened yet is waited for, as a blocking open would). A stop signal
    /// ends the wait.
    private static func readStream(_ fd: Int32, limit: Int, name: String) throws(TabIconsError) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, -1) < 0 {
                guard errno == EINTR, StopSignals.received == 0 else {
                    throw TabIconsError(
                        .io, errno == EINTR ? "stopped while waiting for data" : TabIconsError.systemReason(), input: name)
                }
                continue
            }
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
            if n == 0 { return data }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw TabIconsError(.io, TabIconsError.systemReason(), input: name)
            }
            data.append(contentsOf: buffer[..<n])
            if data.count > limit {
                throw TabIconsError(.tooLarge, "input exceeds the limit of \(limit) bytes", input: name)
            }
        }
    }
}
