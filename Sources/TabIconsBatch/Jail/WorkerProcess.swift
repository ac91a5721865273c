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
/// output are one end of a socket pair (requests in, replies out; `send(MSG_NOSIGNAL)`, so a dead
/// worker is an error, not a SIGPIPE), its standard error another socket the batch reads (what a crash or
/// an allocation failure says). Nothing else is inherited: every descriptor the package opens is
/// close-on-exec, and the worker closes any other at start (`IconWorker`). A fixed environment
/// (`environment`); signals at their defaults, unblocked; its own process group, so a terminal's
/// Ctrl-C reaches the batch, which then kills the workers (SPEC §6a), not the workers first.
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

    enum Answer {
        case reply(kind: UInt8, fields: [UInt8])
        /// The worker failed the input and is gone; what it printed and the most memory it was seen holding.
        case died(Death, stderr: String, peakData: Int)
        /// The batch was asked to stop (the signal); the worker is killed.
        case stopped(Int32)
    }

    /// The worker's environment: fixed (no crash report from Swift's backtracer, a plain
    /// locale), plus only what decides which libraries and fonts it loads, so it draws with the
    /// very librsvg and fonts the batch would in process (the same bytes either way), and the
    /// sanitizers' settings, so a sanitizer build's worker keeps the batch's suppressions (without
    /// them LeakSanitizer turns a worker's exit status into its own). Only a sanitizer build reads them.
    static var environment: [String] {
        let fixed = ["SWIFT_BACKTRACE=enable=no", "LC_ALL=C", "PATH=/usr/bin:/bin"]
        let inherited = [
            "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH", "FONTCONFIG_FILE", "FONTCONFIG_PATH",
            "ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"
        ]
        return fixed + inherited.compactMap { name in getenv(name).map { "\(name)=" + String(cString: $0) } }
    }
    /// How long the batch waits for the worker before looking at the watchdog and the stop flag:
    /// a stop reaches an input in flight within this, a CPU overrun is caught within this.
    private static let tickMilliseconds: Int32 = 20

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

    static func spawn(executable: String, arguments: [String]) throws(TabIconsError) -> WorkerProcess {
        var pair: [Int32] = [-1, -1]
        var errorPair: [Int32] = [-1, -1]
        #if canImport(Glibc)
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
                throw TabIconsError(.io, "cannot start a worker: " + TabIconsError.systemReason())
            }
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &errorPair) == 0 else {
                let error = TabIconsError(.io, "cannot start a worker: " + TabIconsError.systemReason())
                close(pair[0]); close(pair[1])
                throw error
            }
        #else
            guard socketpair(AF_UNIX, SOCK_STREAM, 0, &pair) == 0 else {
                throw TabIconsError(.io, "cannot start a worker: " + TabIconsError.systemReason())
            }
            guard socketpair(AF_UNIX, SOCK_STREAM, 0, &errorPair) == 0 else {
                let error = TabIconsError(.io, "cannot start a worker: " + TabIconsError.systemReason())
                close(pair[0]); close(pair[1])
                throw error
            }
            for fd in pair + errorPair { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            var on: Int32 = 1
            _ = setsockopt(pair[0], SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
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
        return WorkerProcess(pid: pid, channel: pair[0], errors: errorPair[0])
    }

    /// Sends one framed request (its header and fields, then the input's bytes as the body,
    /// straight from the batch's buffer, in one `sendmsg` when the socket takes it) and waits for
    /// the framed answer, watching the worker, the deadline and `shouldStop` every tick. A worker
    /// that fails is killed and reaped. The answer is read as it comes, as much as is there at a
    /// time: one request is in flight, so a byte past the answer is the worker's fault.
    func exchange(head: [UInt8], body: Data, watchdog: inout Watchdog, shouldStop: () -> Int32) -> Answer {
        drainErrors()  // what it printed between inputs is not this input's
        stderrHead.removeAll(keepingCapacity: true)
        stderrTail.removeAll(keepingCapacity: true)
        let total = head.count + body.count
        var sent = 0
        var received: [UInt8] = []
        var expected: Int?
        var lastCheck = Watchdog.now()
        // The socket usually takes a small request at once: poll only when it did not.
        var waitFirst = false
        while true {
            let signal = shouldStop()
            if signal != 0 {
                kill()
                return .stopped(signal)
            }
            if waitFirst {
                var fds = [
                    pollfd(fd: channel, events: Int16(sent < total ? POLLOUT : POLLIN), revents: 0),
                    pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
                ]
                let ready = poll(&fds, 2, Self.tickMilliseconds)
                if ready < 0 && errno != EINTR { return fail(.unreadable("poll: " + TabIconsError.systemReason()), watchdog) }
                // Every tick, even while the worker keeps writing to standard error.
                let now = Watchdog.now()
                if now - lastCheck >= Double(Self.tickMilliseconds) / 1000 {
                    lastCheck = now
                    if let overrun = watchdog.check() { return fail(.overran(overrun), watchdog) }
                }
                if ready <= 0 { continue }
                if fds[1].revents != 0 { drainErrors() }
                guard fds[0].revents != 0 else { continue }
            }
            waitFirst = true
            if sent < total {
                let n = send(head, body, from: sent)
                if n > 0 { sent += n } else if errno != EAGAIN && errno != EINTR { return died(watchdog) }
                continue
            }
            let n = replyBuffer.withUnsafeMutableBytes { recv(channel, $0.baseAddress, $0.count, 0) }
            if n == 0 { return died(watchdog) }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return died(watchdog)
            }
            received += replyBuffer[..<n]
            if expected == nil, received.count >= WorkerWire.headerSize {
                do throws(WorkerWire.Malformed) {
                    let header = try WorkerWire.header(received[..<WorkerWire.headerSize])
                    guard header.bodyLength == 0 else { throw WorkerWire.Malformed("a reply with a body") }
                    expected = header.fieldsLength
                } catch {
                    return fail(.unreadable(error.description), watchdog)
                }
            }
            if let expected, received.count >= WorkerWire.headerSize + expected {
                guard received.count == WorkerWire.headerSize + expected else {
                    return fail(.unreadable("bytes past its answer"), watchdog)
                }
                return .reply(kind: received[5], fields: Array(received[WorkerWire.headerSize...]))
            }
        }
    }

    /// Sends what is left of the head and the body from `offset`, both in one call.
    private func send(_ head: [UInt8], _ body: Data, from offset: Int) -> Int {
        head.withUnsafeBytes { head in
            body.withUnsafeBytes { body in
                var parts = [
                    iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress.map { $0 + min(offset, head.count) }),
                        iov_len: head.count - min(offset, head.count)),
                    iovec(
                        iov_base: UnsafeMutableRawPointer(
                            mutating: body.baseAddress.map { $0 + max(0, offset - head.count) }),
                        iov_len: body.count - max(0, offset - head.count))
                ]
                return parts.withUnsafeMutableBufferPointer { parts in
                    var message = msghdr()
                    message.msg_iov = parts.baseAddress
                    message.msg_iovlen = numericCast(parts.count)
                    return sendmsg(channel, &message, Self.sendFlags)
                }
            }
        }
    }

    /// The worker closed its end: it died (or is about to); reap it for the reason.
    private func died(_ watchdog: Watchdog) -> Answer {
        isAlive = false
        var status: Int32 = 0
        // A worker that closed its socket and lives on is broken: a short grace, then SIGKILL.
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid {
                return .died(Self.death(status), stderr: errorText(), peakData: watchdog.peakData)
            }
            usleep(2_000)
        }
        kill()
        return .died(.unreadable("the worker closed its channel"), stderr: errorText(), peakData: watchdog.peakData)
    }

    private func fail(_ death: Death, _ watchdog: Watchdog) -> Answer {
        kill()
        return .died(death, stderr: errorText(), peakData: watchdog.peakData)
    }

    /// Kills and reaps the worker (idempotent).
    func kill() {
        guard isAlive else { return }
        isAlive = false
        _ = signalProcess(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Ends an idle worker: it reads the end of its input and exits; reaped here.
    func finish() {
        guard isAlive else { return }
        shutdown(channel, Int32(SHUT_RDWR))
        var status: Int32 = 0
        for _ in 0..<100 {
            if waitpid(pid, &status, WNOHANG) == pid { isAlive = false; return }
            usleep(1_000)
        }
        kill()
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
