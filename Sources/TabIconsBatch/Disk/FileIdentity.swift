import TabIcons
import Foundation

/// A file as the system knows it, (device, inode), whatever path reached it: the output plan
/// compares these, never path strings, to keep outputs off the inputs (SPEC §6a).
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of what `path` leads to (links followed), nil when nothing is there.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity `stat` (or `fstatat`) reported.
    package init(_ info: stat) {
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
