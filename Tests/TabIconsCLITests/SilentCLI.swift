import TabIconsBatch
@testable import TabIconsCLI
import TabIconsBatchTestSupport

/// A `tabicon` command run inside the test's own process (no jail), printing nothing: tests that
/// go this way check exit statuses and files; what the tool prints is checked through the built
/// binary (`OutputHygieneTests.run`), whose output a pipe takes.
enum SilentCLI {
    static func run(_ arguments: [String], jail: WorkerJail? = nil) -> TabIconCommand.ExitStatus {
        TabIconCommand.run(arguments, jail: jail, console: Console(silent: true))
    }
}

extension BuildStep {
    /// `tabicon normalize -q` with `arguments`, in process (the build-step suites' run).
    static func cli(_ arguments: [String]) -> TabIconCommand.ExitStatus {
        SilentCLI.run(["normalize", "-q"] + arguments)
    }
}
