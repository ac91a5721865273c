import TabIcons
import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One jailed worker process (`tabicon __worker`, `IconWorker`): how it is started and how one
/// request goes to it and its answer comes back, under the `Watchdog`.
///
/// Started with `posix_spawn`, never `fork()` (the batch is threaded): its standard input and
/// output are one end of a socket pair (requests in, replies out; `MSG_NOSIGNAL`, so a dead worker
/// is an error, not a SIGPIPE), its standard error another socket the batch reads. Nothing else is
/// inherited: every descriptor the package opens is close-on-exec, and the worker closes any other
/// at start. A fixed environment; signals at their defaults, unblocked; its own process group, so
/// a terminal's Ctrl-C reaches the batch, which then kills the workers (SPEC §6a).
///
/// Used by one thread at a time (`WorkerPool` hands it out), hence `@unchecked Sendable`.
final class WorkerProcess: @unchecked Sendable {
    /// How a worker failed an input.
    enum Death: Equatable {
        case signaled(Int32)
        case exited(Int32)
        case overran(Watchdog.Overrun)
        case unreadable(String)
    }

    /// One reply as it came: its kind and fields (`WorkerWire`), read by `WorkerReply`.
    typealias Reply = (kind: UInt8, fields: [UInt8])

    enum Answer {
        /// Every request answered, in order.
        case replies([Reply])
        /// The worker failed after answering the first `answered.count` requests, and is gone;
        /// what it printed and the most memory it was seen holding.
        case died(answered: [Reply], Death, stderr: String, peakData: Int)
        /// The batch was asked to stop (the signal); the worker is killed.
        case stopped(Int32)
    }

    /// The worker's environment: fixed (no backtracer, a plain locale, this process's pid for
    /// `ParentWatch`), plus only what decides which libraries and fonts it loads (so it draws the
    /// bytes the batch would in process) and the sanitizers' settings (their suppressions).
    static var environment: [String] {
        let fixed = [
            "SWIFT_BACKTRACE=enable=no", "LC_ALL=C", "PATH=/usr/bin:/bin", "\(ParentWatch.environmentKey)=\(getpid())"
        ]
        let inherited = [
            "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH", "FONTCONFIG_FILE", "FONTCONFIG_PATH",
            "ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"
        ]
        return fixed + inherited.compactMap { name in getenv(name).map { "\(name)=" + String(cString: $0) } }
    }
    /// How long the batch waits for the worker before looking at the watchdog and the stop flag.
    private static let tickMilliseconds: Int32 = 20
    private static let sendBufferBytes = 4 << 20

    #if canImport(Glibc)
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let sendFlags: Int32 = 0  // SO_NOSIGPIPE is set on the socket instead
    #endif

    let pid: pid_t
    /// The worker as the watchdog reads its CPU and memory.
    let watched: Watchdog.Worker
    private let channel: Int32
    private let errors: Int32
    /// Where answers are received, kept for the worker's life.
    private var replyBuffer = [UInt8](repeating: 0, count: 1 << 16)
    private var stderrHead: [UInt8] = []
    private var stderrTail: [UInt8] = []
    private(set) var isAlive = true
    private init(pid: pid_t, channel: Int32, errors: Int32) {
        self.pid = pid
        watched = Watchdog.Worker(pid: pid)
        self.channel = channel
        self.errors = errors
    }

    deinit {
        close(channel)
        close(errors)
    }

    /// A socket pair, close-on-exec from the start where the system can (Linux: atomically).
    private static func socketPair() throws(TabIconsError) -> [Int32] {
        var pair: [Int32] = [-1, -1]
        #if canImport(Glibc)
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
            let type = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            throw TabIconsError(.io, "cannot start a worker: " + TabIconsError.systemReason())
        }
        #if !canImport(Glibc)
            for fd in pair { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            var on: Int32 = 1
            _ = setsockopt(pair[0], SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return pair
    }

    static func spawn(executable: String, arguments: [String]) throws(TabIconsError) -> WorkerProcess {
        let pair = try socketPair()
        let errorPair: [Int32]
        do throws(TabIconsError) {
            errorPair = try socketPair()
        } catch {
            close(pair[0]); close(pair[1])
            throw error
        }
        defer { close(pair[1]); close(errorPair[1]) }

        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil  // an opaque pointer there
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPair[1], 2)

        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETPGROUP)
        #if canImport(Darwin)
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(pair[0]); close(errorPair[0])
            throw TabIconsError(.io, "cannot start a worker (\(executable)): " + TabIconsError.systemReason(status))
        }
        for fd in [pair[0], errorPair[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        // A photo's bytes in one call, not a wake-up of each side for every 200 KiB (the default).
        var sendBuffer = Int32(Self.sendBufferBytes)
        _ = setsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        return WorkerProcess(pid: pid, channel: pair[0], errors: errorPair[0])
    }

    /// Sends framed requests (each its header and fields, then the input's bytes as the body,
    /// straight from the batch's buffers) and takes their answers in order as they come, watching
    /// the worker, the deadline and `shouldStop` every tick, reading answers while still sending.
    /// A worker that fails is killed and reaped. Only these requests are in flight, so a byte past
    /// their answers is the worker's fault.
    func exchange(_ requests: [WorkerRequest], shouldStop: () -> Int32) -> Answer {
        drainErrors()  // what it printed between inputs is not this input's
        stderrHead.removeAll(keepingCapacity: true)
        stderrTail.removeAll(keepingCapacity: true)
        // Each request's header and fields, then its input's bytes from the batch's own buffer.
        let parts = requests.flatMap { [Data($0.head), $0.data] }.filter { !$0.isEmpty }
        let total = parts.reduce(0) { $0 + $1.count }
        var sent = 0
        var watchdog = Watchdog(worker: watched, inputs: requests.lazy.map(\.data))
        var replies: [Reply] = []
        var received: [UInt8] = []
        var consumed = 0
        var expected: Int?
        var lastCheck = Watchdog.now()
        while true {
            let signal = shouldStop()
            if signal != 0 {
                kill()
                return .stopped(signal)
            }
            let wanted = POLLIN | (sent < total ? POLLOUT : 0)
            var fds = [
                pollfd(fd: channel, events: Int16(wanted), revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
            ]
            let ready = poll(&fds, 2, Self.tickMilliseconds)
            if ready < 0 && errno != EINTR {
                return fail(.unreadable("poll: " + TabIconsError.systemReason()), watchdog, replies)
            }
            // Every tick, even while the worker keeps writing to standard error.
            let now = Watchdog.now()
            if now - lastCheck >= Double(Self.tickMilliseconds) / 1000 {
                lastCheck = now
                if let overrun = watchdog.check() { return fail(.overran(overrun), watchdog, replies) }
            }
            if ready <= 0 { continue }
            if fds[1].revents != 0 { drainErrors() }
            let events = Int32(fds[0].revents)
            guard events != 0 else { continue }
            // A hang-up or an error shows when the call is made: reading finds the end.
            let readable = events & (POLLIN | POLLHUP | POLLERR) != 0
            let writable = events & (POLLOUT | POLLHUP | POLLERR) != 0
            if sent < total && writable {
                let n = sendMore(parts, from: sent)
                if n > 0 { sent += n } else if errno != EAGAIN && errno != EINTR { return died(watchdog, replies) }
            }
            guard readable else { continue }
            let n = replyBuffer.withUnsafeMutableBytes { recv(channel, $0.baseAddress, $0.count, 0) }
            if n == 0 { return died(watchdog, replies) }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return died(watchdog, replies)
            }
            received += replyBuffer[..<n]
            // Every whole answer in what came, up to the last one owed; the bounds start again for
            // the inputs after each.
            while replies.count < requests.count {
                let left = received.count - consumed
                if expected == nil, left >= WorkerWire.headerSize {
                    do throws(WorkerWire.Malformed) {
                        let header = try WorkerWire.header(received[consumed..<consumed + WorkerWire.headerSize])
                        guard header.bodyLength == 0 else { throw WorkerWire.Malformed("a reply with a body") }
                        expected = header.fieldsLength
                    } catch {
                        // Bytes that are no answer may be the tail of the one before: neither stands.
                        return fail(.unreadable(error.description), watchdog, replies.dropLast())
                    }
                }
                guard let length = expected, left >= WorkerWire.headerSize + length else { break }
                let fields = consumed + WorkerWire.headerSize
                replies.append((received[consumed + 5], Array(received[fields..<fields + length])))
                consumed = fields + length
                expected = nil
                watchdog.restart(requests[replies.count...].lazy.map(\.data))
            }
            if consumed == received.count {
                received.removeAll(keepingCapacity: true)
                consumed = 0
            }
            if replies.count == requests.count {
                // Bytes past the last answer make that answer the worker's fault.
                guard received.isEmpty else {
                    return fail(.unreadable("bytes past its answer"), watchdog, replies.dropLast())
                }
                guard sent == total else { return fail(.unreadable("answers before its requests were read"), watchdog, replies) }
                return .replies(replies)
            }
        }
    }

    /// Sends what the socket takes of the part that byte `offset` of all the parts falls in.
    private func sendMore(_ parts: [Data], from offset: Int) -> Int {
        var skip = offset
        for part in parts {
            guard skip < part.count else {
                skip -= part.count
                continue
            }
            return part.withUnsafeBytes { send(channel, $0.baseAddress! + skip, $0.count - skip, Self.sendFlags) }
        }
        return 0
    }

    /// The worker closed its end: it died (or is about to); reap it for the reason.
    private func died(_ watchdog: Watchdog, _ answered: [Reply]) -> Answer {
        isAlive = false
        var status: Int32 = 0
        // A worker that closed its socket and lives on is broken: a short grace, then SIGKILL.
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid {
                return .died(answered: answered, Self.death(status), stderr: errorText(), peakData: watchdog.peakData)
            }
            usleep(2_000)
        }
        kill()
        return .died(
            answered: answered, .unreadable("the worker closed its channel"), stderr: errorText(), peakData: watchdog.peakData)
    }

    private func fail(_ death: Death, _ watchdog: Watchdog, _ answered: some Collection<Reply>) -> Answer {
        kill()
        return .died(answered: Array(answered), death, stderr: errorText(), peakData: watchdog.peakData)
    }

    /// Kills and reaps the worker (idempotent).
    func kill() {
        guard isAlive else { return }
        isAlive = false
        _ = signalProcess(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Ends idle workers: each reads the end of its input and exits, all told before any is
    /// waited for, so they exit side by side; each reaped here, or killed after 100 ms.
    static func finish(_ workers: [WorkerProcess]) {
        for worker in workers where worker.isAlive { shutdown(worker.channel, Int32(SHUT_RDWR)) }
        for worker in workers where worker.isAlive {
            var status: Int32 = 0
            var (waited, pause): (UInt32, UInt32) = (0, 50)  // µs; a worker exits in a few hundred
            while true {
                let reaped = waitpid(worker.pid, &status, WNOHANG)
                if reaped == worker.pid || (reaped < 0 && errno == ECHILD) {
                    worker.isAlive = false
                    break
                }
                if waited >= 100_000 {
                    worker.kill()
                    break
                }
                usleep(pause)
                waited += pause
                pause = min(pause * 2, 5_000)
            }
        }
    }

    private static func death(_ status: Int32) -> Death {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// Reads what the worker printed during this input, keeping its first and last 2 KiB: a
    /// runtime's fatal error comes first, then a stack trace that may run long.
    private func drainErrors() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            let room = max(0, 2048 - stderrHead.count)
            stderrHead += chunk[..<min(n, room)]
            stderrTail += chunk[min(n, room)..<n]
            if stderrTail.count > 2048 { stderrTail.removeFirst(stderrTail.count - 2048) }
        }
    }

    private func errorText() -> String {
        drainErrors()
        return String(decoding: stderrHead, as: UTF8.self) + "\n" + String(decoding: stderrTail, as: UTF8.self)
    }
}

/// `kill(2)`, which the method of the same name hides.
private func signalProcess(_ pid: pid_t, _ signal: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.kill(pid, signal)
    #else
        Darwin.kill(pid, signal)
    #endif
}
