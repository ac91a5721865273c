import TabIcons
import Foundation

/// The names in a folder as the file system holds them: bytes, not `String`, so a name that is
/// not UTF-8 is seen (and reported) instead of dropped or mangled, as `FileManager` would.
package enum DirectoryListing {
    /// What the folder's listing says an entry is (`d_type`), so a walk need not `lstat` a
    /// regular file or a folder to know it; `.unknown` where the file system does not say (then
    /// ask `lstat`), and for a link (then ask where it leads).
    package enum EntryType: Sendable, Equatable { case file, folder, other, unknown }

    /// The entries of the folder open at `fd` (without `.` and `..`); the descriptor stays open.
    package static func names(inFolder fd: Int32) throws(TabIconsError) -> [[UInt8]] {
        try entries(inFolder: fd).map(\.name)
    }

    /// The entries of the folder open at `fd` with what the listing says each is.
    package static func entries(inFolder fd: Int32) throws(TabIconsError) -> [(name: [UInt8], type: EntryType)] {
        var entries: [(name: [UInt8], type: EntryType)] = []
        try forEachName(inFolder: fd) { entries.append((Array($0), $1)) }
        return entries
    }

    /// Each entry's name of the folder open at `fd` (without `.` and `..`), one at a time, for a
    /// caller that keeps few of them, with what the listing says it is; valid only during the
    /// call. The descriptor stays open.
    package static func forEachName(
        inFolder fd: Int32, _ body: (UnsafeRawBufferPointer, EntryType) -> Void
    ) throws(TabIconsError) {
        let copy = dup(fd)
        guard copy >= 0, let stream = fdopendir(copy) else {
            let error = TabIconsError(.io, "cannot read the folder: \(TabIconsError.systemReason())")
            if copy >= 0 { close(copy) }
            throw error
        }
        defer { closedir(stream) }
        rewinddir(stream)
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw TabIconsError(.io, "cannot read the folder: \(TabIconsError.systemReason())") }
                return
            }
            let type: EntryType =
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_REG): .file
                case Int32(DT_DIR): .folder
                case Int32(DT_LNK), Int32(DT_UNKNOWN): .unknown
                default: .other
                }
            withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                let name = UnsafeRawBufferPointer(rebasing: raw.prefix { $0 != 0 })
                if name.elementsEqual([0x2E]) || name.elementsEqual([0x2E, 0x2E]) { return }
                body(name, type)
            }
        }
    }

    /// The folder at `path` opened for listing: the walk's way in.
    package static func names(atPath path: String) throws(TabIconsError) -> [[UInt8]] {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw TabIconsError(.io, "cannot read the folder: \(TabIconsError.systemReason())", input: path) }
        defer { close(fd) }
        do throws(TabIconsError) {
            return try names(inFolder: fd)
        } catch {
            throw error.naming(path)
        }
    }
}
