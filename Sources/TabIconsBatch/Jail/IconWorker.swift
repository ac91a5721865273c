import TabIcons
import Foundation

/// The worker side of the jail: `tabicon __worker` (SPEC §2). Started by `WorkerProcess`, it
/// reads `WorkerRequest`s on standard input, runs the engine's own body on each
/// (`RenderedIcon.make`) and answers each with a `WorkerReply` on the same socket,
/// in order (a few together: `WorkerOutbox`), until the batch closes it.
package enum IconWorker {
    /// Runs the worker until its input ends; the exit status (0 at the end of the input, 2 on a
    /// request it cannot read). `testFaults` (tests only: `__worker --test-faults`, which nothing
    /// but a test's `WorkerJail` passes) lets an input ask for a `TestFault`.
    package static func serve(testFaults: Bool = false) -> Int32 {
        // First of all: a worker never outlives its batch.
        guard ParentWatch.start() else { return 2 }
        closeInheritedDescriptors()
        // Replies go to a private copy of the socket; anything a library prints on standard
        // output lands in the standard error the batch reads, never inside a reply.
        let replies = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard replies >= 0, dup2(2, 1) == 1 else { return 2 }
        var memory = rlimit(rlim_cur: rlim_t(WorkerLimits.memoryBytes), rlim_max: rlim_t(WorkerLimits.memoryBytes))
        guard !WorkerLimits.memoryLimitApplies || setrlimit(resourceData, &memory) == 0 else { return 2 }
        ProcessMemory.reuseHeapAcrossInputs()
        let input = WorkerInput(fd: 0)
        var outbox = WorkerOutbox(fd: replies)
        var cpu = CPUBackstop()
        while true {
            // Answers go when nothing more waits to be read, or before an input when they have waited long enough.
            if outbox.isDue || (!outbox.isEmpty && !input.hasMore()) {
                guard outbox.send() else { return 2 }
            }
            guard let header = input.bytes(WorkerWire.headerSize) else { return outbox.send() ? 0 : 2 }
            let request: WorkerRequest
            do throws(WorkerWire.Malformed) {
                let announced = try WorkerWire.header(header[...])
                guard let fields = input.bytes(announced.fieldsLength), let body = input.body(announced.bodyLength) else {
                    return 2
                }
                request = try WorkerRequest(kind: announced.kind, fields: fields, body: body)
            } catch {
                return 2
            }
            cpu.allowNextInput()
            if testFaults, let fault = TestFault(request.data) {
                guard outbox.send(), fault.perform(replies: replies) else { return 2 }
                continue
            }
            outbox.add(answer(request).encoded)
        }
    }

    private static func answer(_ request: WorkerRequest) -> WorkerReply {
        do throws(TabIconsError) {
            return .rendered(
                try RenderedIcon.make(request.data, normalizer: Normalizer(options: request.options), work: request.work))
        } catch {
            // Under RLIMIT_DATA an allocation that fails is this limit (cairo says `NoMemory`).
            if WorkerFailure.mentionsAllocationFailure(error.message) {
                return .failed(TabIconsError(.tooLarge, WorkerLimits.memoryText, format: error.format))
            }
            return .failed(error)
        }
    }

    #if canImport(Glibc)
        private static let resourceData = __rlimit_resource_t(RLIMIT_DATA.rawValue)
        fileprivate static let resourceCPU = __rlimit_resource_t(RLIMIT_CPU.rawValue)
    #else
        private static let resourceData = RLIMIT_DATA
        fileprivate static let resourceCPU = RLIMIT_CPU
    #endif

    /// Any descriptor but 0, 1 and 2 that reached the worker (one a library in the batch opened
    /// without close-on-exec) is closed before the first input is read: those the process's
    /// descriptor folder lists (a loop up to the descriptor limit would cost a million calls where
    /// it is that high). Read with `readdir`, not `FileManager`: starting Foundation's file
    /// manager cost more than half of a worker's start.
    private static func closeInheritedDescriptors() {
        #if os(Linux)
            let openDescriptors = "/proc/self/fd"
        #else
            let openDescriptors = "/dev/fd"  // Darwin's fdesc: this process's open descriptors
        #endif
        if let folder = opendir(openDescriptors) {
            var inherited: [Int32] = []
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if let fd = Int32(name), fd > 2, fd != dirfd(folder) { inherited.append(fd) }
            }
            closedir(folder)
            for fd in inherited { close(fd) }
            return
        }
        let highest = min(Int32(clamping: sysconf(Int32(_SC_OPEN_MAX))), 65_536)
        if highest > 3 { for fd in 3..<highest { close(fd) } }
    }

    /// What a test can make a worker do, by an input beginning `TABICON-TEST-FAULT:` and the
    /// fault's name, when (and only when) the worker was started with `--test-faults`: the
    /// failures the jail must turn into one error entry, without depending on which inputs crash
    /// or exhaust today's librsvg.
    enum TestFault: String {
        case abort, segv, allocate, spin, garbage, exit, overlong

        static let prefix = Array("TABICON-TEST-FAULT:".utf8)

        init?(_ data: Data) {
            guard data.starts(with: Self.prefix),
                let fault = TestFault(rawValue: String(decoding: data.dropFirst(Self.prefix.count), as: UTF8.self))
            else { return nil }
            self = fault
        }

        /// Does it; answers false when the worker should end (its reply could not be written).
        func perform(replies: Int32) -> Bool {
            switch self {
            case .abort: raise(SIGABRT)  // as abort() ends a process
            case .segv: raise(SIGSEGV)
            case .allocate:
                // Past RLIMIT_DATA: the allocation fails and Swift's runtime aborts, as a decoder would.
                let bytes = [UInt8](repeating: 1, count: WorkerLimits.memoryBytes * 2)
                return AtomicFileWriter.writeAll(
                    WorkerReply.failed(TabIconsError(.io, "allocated \(bytes.count)")).encoded, to: replies)
            case .spin:
                var x: UInt64 = 1
                while x != 0 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
            case .garbage: return AtomicFileWriter.writeAll(Array("not a reply, but long enough".utf8), to: replies)
            // A well-formed answer with a byte after it, in one write, once the batch has read every
            // earlier answer: into an empty socket the write is one message, read whole (behind a
            // full one it could be split, and the answer read before the byte is written).
            case .overlong:
                var queued: CInt = 0
                while ioctl(replies, UInt(TIOCOUTQ), &queued) == 0, queued > 0 { usleep(100) }
                return AtomicFileWriter.writeAll(WorkerReply.failed(TabIconsError(.io, "overlong")).encoded + [0], to: replies)
            // `_exit`, as a library that ends the process on an error does without running the
            // process's exit handlers (LeakSanitizer's among them, which would report what the
            // request in flight holds and change the status).
            case .exit: _exit(3)
            }
            return false
        }
    }
}

/// RLIMIT_CPU counts the worker's whole life, so its soft limit is kept ahead of what the worker
/// has used: when less than half the backstop is left before the next input, it is moved to
/// what the worker has used plus the backstop. The kernel then ends an input the watchdog missed
/// after between half and the whole backstop.
private struct CPUBackstop {
    private var soft: Int = 0
    private let hard: rlim_t

    init() {
        var limit = rlimit()
        getrlimit(IconWorker.resourceCPU, &limit)
        hard = limit.rlim_max
    }

    mutating func allowNextInput() {
        var usage = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &usage)
        let used = Int(usage.tv_sec) + 1
        guard soft - used < WorkerLimits.cpuBackstopSeconds / 2 else { return }
        var limit = rlimit(rlim_cur: min(rlim_t(used + WorkerLimits.cpuBackstopSeconds), hard), rlim_max: hard)
        setrlimit(IconWorker.resourceCPU, &limit)
        soft = Int(limit.rlim_cur)
    }
}
