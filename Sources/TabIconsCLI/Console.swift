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
    /// Writes nothing at all: the console of tests that run commands in their own process and
    /// check what the commands do, not what they print (the built binary's output is checked
    /// through a pipe).
    var silent = false

    /// One line, with every control character in it escaped (`TerminalText`): a name or message
    /// from outside can neither start a line of its own nor reach the terminal raw.
    func out(_ line: String) { write(1, TerminalText.escaped(line) + "\n") }
    func err(_ line: String) { write(2, TerminalText.escaped(line) + "\n") }

    /// Text of tabicon's own, written as it is: help and usage, the manifest's JSON (whose
    /// strings JSON escapes itself).
    func outText(_ text: String) { write(1, text + "\n") }
    func errText(_ text: String) { write(2, text + "\n") }

    /// The one line about a bad input: `tabicon: <input>: <code>: <reason>`, the input quoted as
    /// git quotes a path.
    func reportFailure(input: String, _ error: TabIconsError) {
        err("tabicon: \(TerminalText.quoted(input)): \(error.code.rawValue): \(error.message)")
    }

    /// A warning line: `tabicon: warning: <text>`.
    func warn(_ text: String) { err("tabicon: warning: \(text)") }

    /// Whether stderr is a terminal (progress bar) rather than a pipe or file (plain lines).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Colour only on a terminal and only when NO_COLOR is unset (https://no-color.org).
    static var useColor: Bool { stderrIsTerminal && getenv("NO_COLOR") == nil }

    func write(_ fd: Int32, _ text: String) {
        guard !silent else { return }
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
