extension TabIconCommand {
    /// How `tabicon` ends (SPEC §6). Status 1 has two names because it has two meanings that a
    /// caller treats alike, as `diff` does: "not everything is as it should be, look at the
    /// lines above" (some inputs failed, or `--check` found that a run would change `--out`).
    public struct ExitStatus: RawRepresentable, Equatable, Sendable, CustomStringConvertible {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Every input done; with `--check`, `--out` is exactly what a run would write.
        public static let success = ExitStatus(rawValue: 0)
        /// Some inputs failed; every good one was still done (and written).
        public static let someInputsFailed = ExitStatus(rawValue: 1)
        /// `--check`: a run would write, change or remove files (each listed on stdout).
        public static let checkFoundChanges = ExitStatus(rawValue: 1)
        /// A mistake in the command line, found before any work.
        public static let usage = ExitStatus(rawValue: 2)
        /// Stopped by SIGINT (128 + 2) or SIGTERM (128 + 15), SPEC §6a.
        public static let interrupted = ExitStatus(rawValue: 130)
        public static let terminated = ExitStatus(rawValue: 143)

        public var description: String { "exit \(rawValue)" }
    }
}
