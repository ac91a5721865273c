import TabIcons
import Foundation

/// The error entry of an input whose worker failed it (SPEC §2): `tooLarge` naming the limit it
/// passed, `unsupported` naming the library that crashed and the signal.
enum WorkerFailure {
    /// Words an allocation failure leaves behind: cairo's status through librsvg (`NoMemory`),
    /// Rust's ("memory allocation of N bytes failed") and Swift's ("failed to allocate N bytes")
    /// runtimes on their way to abort, glibc's `strerror(ENOMEM)`.
    static let allocationFailureMarks = [
        "NoMemory", "out of memory", "memory allocation of", "failed to allocate",
        "Could not allocate memory", "Cannot allocate memory", "cannot allocate memory", "bad_alloc"
    ]

    static func mentionsAllocationFailure(_ text: String) -> Bool {
        allocationFailureMarks.contains { text.contains($0) }
    }

    static func error(_ death: WorkerProcess.Death, stderr: String, peakData: Int, data: Data) -> TabIconsError {
        let format = ImageFormat.sniff(data)
        let library = format.map(libraryName) ?? "the decoder"
        // Seen near the limit, or saying it could not allocate: the limit was the cause.
        let ranOutOfMemory =
            WorkerLimits.memoryLimitApplies
            && (peakData >= WorkerLimits.memoryBytes / 4 * 3 || mentionsAllocationFailure(stderr))
        switch death {
        case .overran(.cpu): return TabIconsError(.tooLarge, WorkerLimits.svgCPUText, format: format)
        case .overran(.wall): return TabIconsError(.tooLarge, WorkerLimits.wallText, format: format)
        case .signaled(SIGXCPU): return TabIconsError(.tooLarge, WorkerLimits.cpuBackstopText, format: format)
        case .signaled(let signal) where ranOutOfMemory && signal != SIGKILL:
            return TabIconsError(.tooLarge, WorkerLimits.memoryText, format: format)
        case .signaled(SIGKILL): return TabIconsError(.unsupported, "\(library)'s worker was killed: SIGKILL", format: format)
        case .signaled(let signal):
            return TabIconsError(.unsupported, "\(library) crashed: \(signalName(signal))", format: format)
        case .exited(let status):
            if ranOutOfMemory { return TabIconsError(.tooLarge, WorkerLimits.memoryText, format: format) }
            return TabIconsError(.unsupported, "\(library) ended its worker with status \(status)", format: format)
        case .unreadable(let reason):
            return TabIconsError(.unsupported, "the worker's answer is unreadable: \(reason)", format: format)
        }
    }

    static func libraryName(_ format: ImageFormat) -> String {
        switch format {
        case .png: "libpng"
        case .jpeg: "libjpeg-turbo"
        case .webp: "libwebp"
        case .svg: "librsvg"
        }
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL",
            SIGTRAP: "SIGTRAP", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSYS: "SIGSYS",
            SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ"
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
