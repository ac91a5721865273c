/// The worker's answers on their way to the batch: a group of small inputs (`IconEngine.groupSize`)
/// is answered in one write, not one wake-up of the batch per input (bench/README "The jail's
/// cost"). Answers wait until the worker has nothing more to read, never longer than `maximumAge`,
/// so the batch's watchdog (which counts from the last answer read) charges a slow input at most
/// that much of its neighbours' work.
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
        return AtomicFileWriter.writeAll(bytes, to: fd)
    }
}
