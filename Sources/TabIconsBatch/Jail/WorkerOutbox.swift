#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The worker's answers on their way to the batch. The batch sends a few small inputs at a time
/// (`IconEngine.groupSize`); answering each of them with a write of its own would wake the batch
/// once an input, and each wake-up between two processes costs about what a small icon's
/// rendering does (bench/README "The jail's cost"). So answers wait here until the worker has
/// nothing more to read, and go out together.
///
/// They never wait long: before the worker starts an input, answers older than `maximumAge` go
/// out, so the batch's watchdog, which counts an input's CPU and time from the last answer it
/// read, charges a slow input at most that much of its neighbours' work; and a crash loses at
/// most that much work, which the batch redoes (`WorkerPool`).
struct WorkerOutbox {
    static let maximumAge = 0.010
    static let maximumBytes = 1 << 20

    private let fd: Int32
    private var bytes: [UInt8] = []
    private var oldest = 0.0

    init(fd: Int32) {
        self.fd = fd
    }

    var isEmpty: Bool { bytes.isEmpty }

    /// Whether what waits should go before the next input starts.
    var isDue: Bool {
        !bytes.isEmpty && (bytes.count >= Self.maximumBytes || Watchdog.now() - oldest >= Self.maximumAge)
    }

    mutating func add(_ answer: [UInt8]) {
        if bytes.isEmpty { oldest = Watchdog.now() }
        bytes += answer
    }

    /// Writes everything waiting; false when the batch is gone.
    mutating func send() -> Bool {
        guard !bytes.isEmpty else { return true }
        defer { bytes.removeAll(keepingCapacity: bytes.count <= Self.maximumBytes) }
        return IconWorker.writeAll(bytes, to: fd)
    }
}
