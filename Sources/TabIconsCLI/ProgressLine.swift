import TabIcons
import TabIconsBatch

/// Batch progress on stderr: a bar redrawn in place when stderr is a terminal, plain
/// `[n/total] name` lines otherwise (logs, CI). Colour only on a terminal without NO_COLOR.
/// Called from worker threads, so its count lives in a `LockedState`. (Not `Progress`: the
/// commands import Foundation, whose `Progress` that name would shadow.)
final class ProgressLine: Sendable {
    private let total: Int
    private let console: Console
    private let enabled: Bool
    private let terminal: Bool
    private let color: Bool
    private let done = LockedState(0)

    init(total: Int, console: Console, enabled: Bool) {
        self.total = total
        self.console = console
        self.enabled = enabled && total > 0
        self.terminal = Console.stderrIsTerminal
        self.color = Console.useColor
    }

    /// One more input finished; `detail` is shown on the plain-line form only.
    func advance(_ name: String, detail: String? = nil) {
        guard enabled else { return }
        done.withLock { count in
            count += 1
            if terminal {
                let width = 30
                let filled = total == 0 ? width : count * width / total
                let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
                let escaped = TerminalText.escaped(name)
                let shown = escaped.count > 40 ? "…" + escaped.suffix(39) : escaped
                let text = "[\(bar)] \(count)/\(total) \(shown)"
                console.write(2, "\r\u{1B}[2K" + (color ? "\u{1B}[36m\(text)\u{1B}[0m" : text))
            } else {
                console.err("[\(count)/\(total)] \(TerminalText.quoted(name))" + (detail.map { "  " + $0 } ?? ""))
            }
        }
    }

    /// Clears the bar so an error line starts at the left margin.
    func clear() {
        guard enabled, terminal else { return }
        done.withLock { _ in console.write(2, "\r\u{1B}[2K") }
    }

    func finish() {
        guard enabled, terminal else { return }
        done.withLock { _ in console.write(2, "\r\u{1B}[2K") }
    }
}
