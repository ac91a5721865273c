import TabIcons
import Foundation

/// One run at a time holds `--out` (SPEC §6a): an advisory `flock` on the output folder itself (no
/// lock file left behind; released by the kernel however the holder exits). A run that writes
/// takes it exclusively, `--check` shared; a second run is refused before it reads or writes.
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

    /// Locks the folder of the manifest at `manifestPath` when it is not `root` (two runs into
    /// different folders sharing a manifest): waited for, not refused. Taken before `root`'s lock,
    /// which is never waited for, so no two runs wait for each other. Nil: `root`, or no folder yet.
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

    /// A held lock is asked for again for a quarter of a second: a child spawned between our `open`
    /// and its `exec` briefly holds a copy of the descriptor, and with it the lock.
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
