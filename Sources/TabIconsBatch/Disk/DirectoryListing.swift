import TabIcons
import Foundation

/// The names in a folder as the file system holds them: bytes, not `String`, so a name that is
/// not UTF-8 is seen (and reported) instead of dropped or mangled, as `FileManager` would.
package enum DirectoryListing {
    /// The names in the folder open at `fd` (without `.` and `..`); the descriptor stays open.
    package static func names(inFolder fd: Int32) throws(TabIconsError) -> [[UInt8]] {
        let copy = dup(fd)
        guard copy >= 0, let stream = fdopendir(copy) else {
            let error = TabIconsError(.io, "cannot read the folder: \(TabIconsError.systemReason())")
            if copy >= 0 { close(copy) }
            throw error
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw TabIconsError(.io, "cannot read the folder: \(TabIconsError.systemReason())") }
                return names
            }
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
    }
}
