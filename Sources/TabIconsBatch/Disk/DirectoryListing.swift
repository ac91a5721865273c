import TabIcons
import Foundation

/// The names in a folder as the file system holds them: bytes, not `String`, so a name that is
/// not UTF-8 is seen (and reported) instead of dropped or mangled, as `FileManager` would.
package enum DirectoryListing {
    /// What the listing says an entry is (`d_type`); `.unknown` where the file system does not say
    /// and for a link (then ask `lstat`, or where it leads).
    package enum EntryType: Sendable, Equatable { case file, folder, other, unknown }

    /// The entries of the folder open at `fd` (without `.` and `..`); the descriptor stays open.
    package static func entries(inFolder fd: Int32) throws(TabIconsError) -> [(name: [UInt8], type: EntryType)] {
        let copy = dup(fd)
        guard copy >= 0, let stream = fdopendir(copy) else {
            let error = TabIconsError(.io, "cannot read the folder: \(TabIconsError.systemReason())")
            if copy >= 0 { close(copy) }
            throw error
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var entries: [(name: [UInt8], type: EntryType)] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw TabIconsError(.io, "cannot read the folder: \(TabIconsError.systemReason())") }
                return entries
            }
            let type: EntryType =
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_REG): .file
                case Int32(DT_DIR): .folder
                case Int32(DT_LNK), Int32(DT_UNKNOWN): .unknown
                default: .other
                }
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { entries.append((name, type)) }
        }
    }
}
