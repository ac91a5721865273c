#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TabIcons
import TabIconsBatch

/// Where the CLI writes: results to stdout, errors and progress to stderr. Writes go straight to
/// the file descriptors (no buffering surprises when stdout and stderr interleave in a terminal).
/// Thread-safe: each line is one `write` call.
struct Console: Sendable {
    var quiet = false

    func out(_ text: String) { write(1, text + "\n") }
    func err(_ text: String) { write(2, text + "\n") }

    /// The one line about a bad input: `tabicon: <input>: <code>: <reason>`.
    func reportFailure(input: String, _ error: TabIconsError) {
        err("tabicon: \(input): \(error.code.rawValue): \(error.message)")
    }

    /// Whether stderr is a terminal (progress bar) rather than a pipe or file (plain lines).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Colour only on a terminal and only when NO_COLOR is unset (https://no-color.org).
    static var useColor: Bool { stderrIsTerminal && getenv("NO_COLOR") == nil }

    func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        bytes.withUnsafeMutableBytes { buffer in
            while offset < buffer.count {
                let n = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
