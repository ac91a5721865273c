#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A worker dies with its batch: a batch killed with SIGKILL cannot kill its workers, and an
/// orphaned worker would draw on until its CPU backstop.
///
/// Not `prctl(PR_SET_PDEATHSIG)`: that follows the parent *thread*, and workers are pooled across
/// libdispatch threads that end when idle, which would kill live workers. Nor the socket's hang-up
/// alone: the worker is not reading it while it draws. So the worker checks first thing that its
/// parent is still the batch whose pid it was given (`environmentKey`), then a thread of its own
/// asks `getppid()` every `intervalMicroseconds` and ends the process once it has been reparented
/// (an orphan's parent is the reaper, never a new owner of a reused pid).
enum ParentWatch {
    /// The environment variable holding the batch's pid.
    static let environmentKey = "TABICON_WORKER_PARENT"
    /// How often the thread looks: an orphan is gone within this.
    static let intervalMicroseconds: UInt32 = 100_000
    /// Thread stacks count toward RLIMIT_DATA: not the default 8 MiB for a loop of two calls.
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
        // The pid travels as the thread's argument (a C function captures nothing). A worker whose
        // watch could not start still serves: a live batch ends it as ever.
        _ = pthread_create(
            &thread, &attributes,
            { argument in
                let parent = pid_t(truncatingIfNeeded: Int(bitPattern: argument))
                while getppid() == parent { usleep(ParentWatch.intervalMicroseconds) }
                // Orphaned: nobody reads the answer, so nothing is flushed or cleaned up.
                _exit(2)
            }, UnsafeMutableRawPointer(bitPattern: Int(expected)))
        return true
    }
}
