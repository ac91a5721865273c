import TabIcons

/// When a file's stat record stands for its bytes (SPEC §6a "Incremental"): as git's index does,
/// a file whose size, mtime, ctime, inode and device all still equal what the manifest recorded
/// is taken as unchanged without being read. Anything else, or `--verify`, means read and hash.
///
/// A record is trusted only when both its times are older than the manifest that holds it
/// (git's "racily clean" rule): a file changed in the same clock tick as it was recorded, before
/// the manifest was written, may keep its size and times, so it is hashed. What is trusted, then,
/// is that a file rewritten with the same size and inode after that keeps mtime and ctime, which
/// takes changing the system clock (ctime cannot be set: `touch -d` moves it).
package struct StatCache: Sendable {
    /// False under `--verify`: every file is read and hashed.
    let trusted: Bool
    /// The previous manifest's mtime (ns): records from the same tick or later are racy.
    let recordedBefore: Int?

    /// A cache that trusts nothing: every file is read.
    static let none = StatCache(trusted: false, recordedBefore: nil)

    /// Whether `current` shows the file as it was when `recorded` was taken.
    func isUnchanged(recorded: FileStat?, current: FileStat?) -> Bool {
        guard let recorded, recorded == current else { return false }
        return stands(recorded)
    }

    /// The same for the digest of the current stat (`StatDigest`, what the output plan keeps).
    func isUnchanged(recorded: FileStat?, current: StatDigest) -> Bool {
        guard let recorded, current.matches(recorded) else { return false }
        return stands(recorded)
    }

    /// Whether a record equal to the file's stat is trusted: not under `--verify`, and older than
    /// the manifest that holds it.
    private func stands(_ recorded: FileStat) -> Bool {
        guard trusted, let bound = recordedBefore else { return false }
        return recorded.mtime < bound && recorded.ctime < bound
    }
}
