import TabIcons
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signal that asked the batch to stop (SIGINT, SIGTERM), 0 while none has.
private let stopSignal = Atomic<Int32>(0)

/// SIGINT and SIGTERM as a request, not an exit (SPEC §6a): the handler only records the signal;
/// the batch starts no new icon, an icon in flight removes its temporaries instead of renaming
/// them, the previous manifest stays, and the command exits 128 + the signal (130, 143). Dying
/// at once, as the default action does, would leave temporaries and half-renamed sets behind.
package enum StopSignals {
    package static func install() {
        signal(SIGINT) { stopSignal.store($0, ordering: .relaxed) }
        signal(SIGTERM) { stopSignal.store($0, ordering: .relaxed) }
        // A parent may start us with them blocked (a spawn inherits its thread's mask; Foundation's
        // Process in a test runner does): then a stop would wait, pending, until the run ended.
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGINT)
        sigaddset(&stops, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
    }

    /// The signal received, or 0.
    package static var received: Int32 { stopSignal.load(ordering: .relaxed) }
}
