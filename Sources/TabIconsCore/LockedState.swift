import Synchronization

/// A `Mutex` from Synchronization whose critical sections ThreadSanitizer can see.
///
/// On Linux, `Mutex` locks through a futex inside the standard library, which is not built with
/// ThreadSanitizer instrumentation: TSan then sees no happens-before between two critical
/// sections and reports every access to the guarded state as a data race (a ten-line program with
/// two threads incrementing a counter under `Mutex.withLock` shows it). So every critical section
/// here begins with an acquiring load and ends with a releasing store of an atomic that lives in
/// this module, which TSan does instrument. The mutex already orders the sections; the atomic only
/// makes that order visible. On x86-64 both are plain moves and on ARM64 `ldar`/`stlr`, so outside
/// ThreadSanitizer this costs next to nothing.
///
/// Every lock in TabIcons (the side table, the batch's results, the CLI's progress, the resampler's
/// weight cache) is one of these; the batch's memory budget, which must wait, uses an
/// `NSCondition` (pthreads, which ThreadSanitizer intercepts).
package struct LockedState<State>: ~Copyable, Sendable {
    private let mutex: Mutex<State>
    private let edge = Atomic<UInt8>(0)

    package init(_ state: sending State) {
        mutex = Mutex(state)
    }

    @inline(__always)
    package borrowing func withLock<Result>(_ body: (inout sending State) -> sending Result) -> sending Result {
        mutex.withLock { state -> sending Result in
            _ = edge.load(ordering: .acquiring)
            defer { edge.store(0, ordering: .releasing) }
            return body(&state)
        }
    }
}
