import TabIcons
import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The parent's per-input bounds on a worker (SPEC §2): a wall-clock deadline for every input,
/// and for an SVG (or any input not recognised as a raster before decoding) one second of the
/// worker's CPU, read from the kernel's accounting of the worker process (/proc/PID/stat; where
/// there is no procfs, as on macOS, only the wall bound and RLIMIT_CPU's backstop hold). Checked
/// by `WorkerProcess` every tick while it waits for the worker's answer.
struct Watchdog {
    enum Overrun: Equatable { case cpu, wall }

    let pid: pid_t
    let cpuLimit: Double?
    private let wallDeadline: Double
    private let cpuAtStart: Double
    /// The most memory (RLIMIT_DATA's measure, in bytes) the worker was seen holding.
    private(set) var peakData = 0

    init(pid: pid_t, data: Data) {
        self.pid = pid
        let raster: Set<ImageFormat> = [.png, .jpeg, .webp]
        cpuLimit = ImageFormat.sniff(data).map(raster.contains) == true ? nil : WorkerLimits.svgCPUSeconds
        wallDeadline = Self.now() + WorkerLimits.wallSeconds
        cpuAtStart = cpuLimit == nil ? 0 : Self.cpuSeconds(of: pid) ?? 0
    }

    /// The bound the worker has passed, if any; notes its memory on the way.
    mutating func check() -> Overrun? {
        if let data = Self.dataBytes(of: pid) { peakData = max(peakData, data) }
        if Self.now() > wallDeadline { return .wall }
        if let cpuLimit, let used = Self.cpuSeconds(of: pid), used - cpuAtStart > cpuLimit { return .cpu }
        return nil
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// User plus system CPU of `pid` from /proc/PID/stat (fields 14 and 15, after the command's
    /// parenthesis, which may itself hold spaces). Nil where there is no procfs.
    static func cpuSeconds(of pid: pid_t) -> Double? {
        guard let text = procText("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / ticksPerSecond
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// RLIMIT_DATA's measure of `pid` (the data-and-stack field of /proc/PID/statm), in bytes.
    static func dataBytes(of pid: pid_t) -> Int? {
        guard let text = procText("/proc/\(pid)/statm") else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 5, let pages = Int(fields[5]) else { return nil }
        return pages * pageSize
    }

    /// A small procfs file's text, with plain calls (no Foundation on the watchdog's tick).
    private static func procText(_ path: String) -> String? {
        #if canImport(Darwin)
            // No procfs on Darwin: the wall bound and RLIMIT_CPU hold alone (not compiled here;
            // proc_pid_rusage would be the way to watch CPU and memory there).
            return nil
        #else
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            return String(decoding: buffer[..<count], as: UTF8.self)
        #endif
    }
}
