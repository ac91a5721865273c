import TabIcons
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kernel's and the watchdog's bounds on one jailed worker (SPEC §2: "at most 256 MiB of
/// memory and, for an SVG, one second of CPU per input"), declared once: the worker sets the
/// kernel's from these, the batch's watchdog enforces the rest, and the error messages name them.
package enum WorkerLimits {
    /// RLIMIT_DATA (heap, anonymous mappings, thread stacks); RLIMIT_AS would also count address
    /// space reserved untouched, and fail ordinary icons.
    package static let memoryBytes = 256 << 20
    /// False in a sanitizer build, whose shadow memory RLIMIT_DATA counts (the watchdog and
    /// RLIMIT_CPU still apply there).
    package static let memoryLimitApplies = sanitizerRuntimes.allSatisfy { dlsym(nil, $0) == nil }
    private static let sanitizerRuntimes: [String] = ["__tsan_init", "__asan_init", "__msan_init"]
    /// The worker's CPU an SVG may take (drawing every rendition and encoding them).
    package static let svgCPUSeconds = 1.0
    /// The wall-clock bound on any input in a worker, raster or vector: a stuck decode, a worker
    /// that stopped answering. Generous, since a loaded machine stretches wall time.
    package static let wallSeconds = 60.0
    /// RLIMIT_CPU's soft limit ahead of what the worker has used: the kernel's backstop (SIGXCPU)
    /// should the watchdog not run. An input gets at least half of it (`CPUBackstop`).
    package static let cpuBackstopSeconds = 60

    static var memoryText: String { "needed more than \(memoryBytes >> 20) MiB" }
    static var svgCPUText: String { "took more than \(NumberText.decimal(svgCPUSeconds)) s of CPU" }
    static var wallText: String { "took more than \(NumberText.decimal(wallSeconds)) s" }
    static var cpuBackstopText: String { "took more than \(cpuBackstopSeconds / 2) s of CPU" }
}
