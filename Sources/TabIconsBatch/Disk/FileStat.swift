import TabIcons
import Foundation

/// What the file system says of a file, as git's index keeps it: size, modification and change
/// times in nanoseconds, inode and device (SPEC §6a "Incremental", `StatCache`).
package struct FileStat: Sendable, Equatable, Hashable, Codable {
    package let size: Int
    package let mtime: Int
    /// The inode's change time: any write, rename or `utimensat` (a forged mtime) moves it, and
    /// no caller can set it.
    package let ctime: Int
    package let inode: UInt64
    package let device: UInt64

    package init(size: Int, mtime: Int, ctime: Int, inode: UInt64, device: UInt64) {
        self.size = size
        self.mtime = mtime
        self.ctime = ctime
        self.inode = inode
        self.device = device
    }

    package init(_ info: stat) {
        #if canImport(Darwin)
            let m = info.st_mtimespec, c = info.st_ctimespec
        #else
            let m = info.st_mtim, c = info.st_ctim
        #endif
        self.init(
            size: Int(info.st_size), mtime: Int(m.tv_sec) * 1_000_000_000 + Int(m.tv_nsec),
            ctime: Int(c.tv_sec) * 1_000_000_000 + Int(c.tv_nsec),
            inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }

    /// The regular file at `path` (links followed, as an input is read), nil for anything else.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        self.init(info)
    }

    /// The file as the system knows it, whatever path reached it.
    package var identity: FileIdentity { FileIdentity(device: device, inode: inode) }
}

/// What `stat` said of a file (or that no regular file was there), as one number: all a stat
/// record's check needs of the current stat (`StatCache`). A `Hasher` digest, seeded per process,
/// so no file can be made to meet another's.
package struct StatDigest: Sendable, Equatable {
    private let value: Int

    package init(_ stat: FileStat?) { value = stat?.hashValue ?? 0 }

    /// Whether this is the digest of `stat`.
    package func matches(_ stat: FileStat?) -> Bool { self == StatDigest(stat) }
}
