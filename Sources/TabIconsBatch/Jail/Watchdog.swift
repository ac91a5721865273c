import TabIcons
import Foundation

/// The parent's per-input bounds on a worker (SPEC §2): a wall-clock deadline for every input,
/// and for an SVG (or any input not recognised as a raster) one second of the worker's CPU, read
/// from the kernel's accounting (Linux: its CPU clock; Darwin: `proc_pid_rusage`). Checked by
/// `WorkerProcess` every tick while it waits for an answer.
struct Watchdog {
    enum Overrun: Equatable { case cpu, wall }

    /// Where a worker's CPU time is read: fixed when it is spawned.
    struct Worker {
        let pid: pid_t
        #if os(Linux)
            let cpuClock: clockid_t?
        #endif

        init(pid: pid_t) {
            self.pid = pid
            #if os(Linux)
                var clock = clockid_t()
                cpuClock = clock_getcpuclockid(pid, &clock) == 0 ? clock : nil
            #endif
        }

        /// User plus system CPU of the worker, in seconds; nil when it cannot be read.
        var cpuSeconds: Double? {
            #if os(Linux)
                var time = timespec()
                guard let cpuClock, clock_gettime(cpuClock, &time) == 0 else { return nil }
                return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
            #elseif canImport(Darwin)
                return Watchdog.usage(of: pid)?.cpuSeconds
            #else
                return nil
            #endif
        }
    }

    let worker: Worker
    private(set) var cpuLimit: Double?
    private var wallDeadline = 0.0
    private var cpuAtStart = 0.0
    /// The most memory (RLIMIT_DATA's measure on Linux, the physical footprint on Darwin, in
    /// bytes) the worker was seen holding.
    private(set) var peakData = 0

    /// Watches `worker` from now on the inputs it has still to answer (`inputs`).
    init(worker: Worker, inputs: some Sequence<Data>) {
        self.worker = worker
        restart(inputs)
    }

    /// The bounds start again, from now, for the inputs still to answer (called when an answer
    /// arrives): one second of CPU if any is an SVG (or unrecognised), the wall-clock bound for
    /// all. An input of a group that passes them is tried again alone (`WorkerPool`).
    mutating func restart(_ inputs: some Sequence<Data>) {
        let raster: Set<ImageFormat> = [.png, .jpeg, .webp]
        cpuLimit =
            inputs.allSatisfy { ImageFormat.sniff($0).map(raster.contains) == true } ? nil : WorkerLimits.svgCPUSeconds
        wallDeadline = Self.now() + WorkerLimits.wallSeconds
        cpuAtStart = cpuLimit == nil ? 0 : worker.cpuSeconds ?? 0
    }

    /// The bound the worker has passed, if any; notes its memory on the way.
    mutating func check() -> Overrun? {
        if let data = Self.dataBytes(of: worker.pid) { peakData = max(peakData, data) }
        if Self.now() > wallDeadline { return .wall }
        if let cpuLimit, let used = worker.cpuSeconds, used - cpuAtStart > cpuLimit { return .cpu }
        return nil
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// RLIMIT_DATA's measure of `pid` (the data-and-stack field of /proc/PID/statm), in bytes;
    /// on Darwin its physical footprint.
    static func dataBytes(of pid: pid_t) -> Int? {
        #if canImport(Darwin)
            return usage(of: pid).map(\.footprint)
        #else
            // Plain calls, no Foundation, on the watchdog's tick.
            let fd = open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            let fields = buffer[..<max(count, 0)].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count > 5, let pages = Int(fields[5]) else { return nil }
            return pages * pageSize
        #endif
    }

    #if canImport(Darwin)
        /// Darwin's accounting of `pid`: its CPU (in Mach time units, nanoseconds only on Intel)
        /// and its physical footprint.
        static func usage(of pid: pid_t) -> (cpuSeconds: Double, footprint: Int)? {
            var info = rusage_info_v2()
            let status = withUnsafeMutablePointer(to: &info) { pointer in
                pointer.withMemoryRebound(to: rusage_info_t?.self, capacity: 1) { proc_pid_rusage(pid, RUSAGE_INFO_V2, $0) }
            }
            guard status == 0 else { return nil }
            var timebase = mach_timebase_info_data_t()
            mach_timebase_info(&timebase)
            let ticks = Double(info.ri_user_time + info.ri_system_time)
            return (ticks * Double(timebase.numer) / Double(timebase.denom) / 1e9, Int(info.ri_phys_footprint))
        }
    #endif
}
