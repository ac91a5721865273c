import TabIcons
import Foundation

/// One run at a time holds `--out` (SPEC §6a): an advisory `flock` on the output folder itself,
/// so no lock file is left among files other tools own, two spellings of one folder are one lock,
/// and the kernel releases it when the holder exits, however it exits. A run that writes takes it
/// exclusively; `--check` takes it shared (checks may run side by side, never beside a writer).
/// A second run is refused within a quarter of a second, before it reads or writes anything.
final class RunLock: Sendable {
    private let fd: Int32

    /// Locks the folder at `root`; nil when there is no folder there yet (nothing to guard).
    init?(root: String, exclusive: Bool) throws(BatchUsageError) {
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        if !Self.lock(fd, exclusive: exclusive) {
            close(fd)
            throw BatchUsageError(
                "another tabicon run is writing into \(root); it was left alone (run again once that one has finished)")
        }
        self.fd = fd
    }

    /// Locks the folder that holds the manifest at `manifestPath` when it is not `root` (two runs
    /// into different folders that share a manifest would each replace the other's record):
    /// waited for, not refused, since such runs are not mistakes, only to be taken in turn. Taken
    /// before `root`'s lock, which is never waited for, so no two runs wait for each other. Nil
    /// when the folder is `root` or does not exist yet.
    init?(manifestPath: String, root: String, exclusive: Bool) throws(BatchUsageError) {
        let parent = (manifestPath as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        guard let identity = FileIdentity(path: folder), identity != FileIdentity(path: root) else { return nil }
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var locked = false
        repeat {
            locked = flock(fd, exclusive ? LOCK_EX : LOCK_SH) == 0
        } while !locked && errno == EINTR
        guard locked else {
            close(fd)
            throw BatchUsageError("cannot lock the folder of --manifest \(manifestPath): \(TabIconsError.systemReason())")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// How long a lock that is held is asked for again before the run is refused. A process that
    /// spawns a child between our `open` and the child's `exec` (a build tool, a test runner, our
    /// own workers) briefly holds a copy of the descriptor, and with it the lock, after the run
    /// that took it has finished; a run that really holds `--out` holds it for far longer.
    private static let retries = 25
    private static let retryMicroseconds: UInt32 = 10_000

    private static func lock(_ fd: Int32, exclusive: Bool) -> Bool {
        for attempt in 0...retries {
            if flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK || errno == EINTR, attempt < retries else { return false }
            usleep(retryMicroseconds)
        }
        return false
    }
}
