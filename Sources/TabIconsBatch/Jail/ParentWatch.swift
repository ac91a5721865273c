#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A worker dies with its batch (issue 38): a batch killed with SIGKILL cannot kill its workers,
/// and a worker busy with an input would otherwise draw on, orphaned, until its CPU backstop
/// (`WorkerLimits.cpuBackstopSeconds`); it only notices the batch is gone when it next writes.
///
/// Not `prctl(PR_SET_PDEATHSIG)`: that signal follows the parent *thread* that spawned the worker,
/// not the process. Workers are spawned from `DispatchQueue.concurrentPerform`'s threads and kept
/// in a pool any thread reuses (`WorkerPool`), and libdispatch ends a pool thread that stays idle
/// for a few seconds, so it would kill live, pooled workers of a running batch (each then looks
/// like a `kill -9` from outside). Nor the request socket's hang-up alone: the batch also shuts it
/// when it ends an idle worker, and the worker is not reading it while it draws.
///
/// So the worker watches its parent process itself: the batch passes its pid
/// (`environmentKey`, set by `WorkerProcess.spawn`); the worker checks first thing that its parent
/// is still that process (the batch may have died before the watch began), then a thread of its
/// own asks every `interval` and ends the process once it has been reparented. `getppid()` is the
/// process's parent whatever thread spawned it, and a reused pid cannot fool it (an orphan's
/// parent is the reaper, never the new owner of the pid). Ten wake-ups a second, with no lock
/// and no allocation, beside the worker's drawing.
enum ParentWatch {
    /// The environment variable holding the batch's pid.
    static let environmentKey = "TABICON_WORKER_PARENT"
    /// How often the thread looks: an orphan is gone within this.
    static let intervalMicroseconds: UInt32 = 100_000
    /// The watching thread's stack: it calls two system calls in a loop. Thread stacks count
    /// toward RLIMIT_DATA, so not the default 8 MiB.
    private static let stackBytes = 128 << 10

    /// Starts the watch; false when the parent is already gone (the worker should end at once).
    /// Without the variable (a worker started by hand) the parent it has now is watched.
    static func start() -> Bool {
        let expected = getenv(environmentKey).flatMap { pid_t(String(cString: $0)) } ?? getppid()
        guard expected > 1, getppid() == expected else { return false }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
            var thread: pthread_t? = nil
        #else
            var thread = pthread_t()
        #endif
        // The pid travels as the thread's argument (a C function captures nothing).
        let status = pthread_create(
            &thread, &attributes,
            { argument in
                let parent = pid_t(truncatingIfNeeded: Int(bitPattern: argument))
                while getppid() == parent { usleep(ParentWatch.intervalMicroseconds) }
                // Orphaned: nobody reads the answer, so nothing is flushed or cleaned up.
                _exit(2)
            }, UnsafeMutableRawPointer(bitPattern: Int(expected)))
        // A worker whose watch could not start still serves (as before the watch): the batch
        // alive ends it as ever; only a batch killed outright would leave it running.
        _ = status
        return true
    }
}
