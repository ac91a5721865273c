import TabIcons
import Foundation

/// Where a batch's jailed workers come from (SPEC §2: "A crash or a bomb costs one input").
///
/// Given to `BatchNormalizer.jail` or `PreviewRun.jail`, every input is decoded, normalized and
/// encoded in a worker process, `executable __worker`, under `WorkerLimits`: an input that
/// crashes a decoder or passes a limit costs its own error entry, never the batch. The CLI
/// passes itself (`currentExecutable`). Nil (the default) runs each input in process, as a UI
/// runtime must where it may not spawn processes (iOS).
public struct WorkerJail: Sendable, Equatable {
    /// A `tabicon` executable of this version (the worker speaks `WorkerWire`'s version).
    public var executable: String

    /// The worker's arguments: `__worker`, or for tests only `__worker --test-faults` (`IconWorker.TestFault`).
    package var workerArguments = [workerArgument]

    public init(executable: String) {
        self.executable = executable
    }

    /// The running program as the worker: right only when it is `tabicon` itself.
    public static var currentExecutable: WorkerJail {
        #if os(Linux)
            // The very file this process runs, even if the path has since been replaced.
            WorkerJail(executable: "/proc/self/exe")
        #else
            WorkerJail(executable: Bundle.main.executablePath ?? CommandLine.arguments[0])
        #endif
    }

    /// The hidden argument that makes `tabicon` a worker (`IconWorker.serve`).
    package static let workerArgument = "__worker"
    /// The worker's second, test-only argument: inputs may then ask it to fail (`IconWorker.TestFault`).
    package static let testFaultsArgument = "--test-faults"
}
