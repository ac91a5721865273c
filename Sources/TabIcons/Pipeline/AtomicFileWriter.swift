import Foundation

/// Writes files so that a reader never sees a partial one: the bytes go to a temporary name in the
/// destination folder (same file system), then a rename puts them in place. A failure removes the
/// temporary file. Folders are created as needed.
public enum AtomicFileWriter {
    public static func write(_ bytes: [UInt8], to url: URL) throws(TabIconsError) {
        try write(Data(bytes), to: url)
    }

    public static func write(_ data: Data, to url: URL) throws(TabIconsError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).tabicon-\(UUID().uuidString).tmp")
        do {
            try makeFolders(folder.path)
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                let reason = String(cString: strerror(errno))
                throw TabIconsError(.io, "cannot rename into place: \(reason)", input: url.path)
            }
        } catch let error as TabIconsError {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw TabIconsError(.io, "cannot write \(url.path): \(InputReader.describe(error))", input: url.path)
        }
    }

    /// `mkdir -p` with the system's reason on failure ("not a directory" when a path component is
    /// a file, "permission denied"...). FileManager on Linux reports those as a bare
    /// "NSCocoaErrorDomain error 512", which tells a user nothing.
    static func makeFolders(_ path: String) throws(TabIconsError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o777) == 0 { continue }
            let reason = errno
            var info = stat()
            if reason == EEXIST, stat(current, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { continue }
            let text = reason == EEXIST ? "\(current) exists and is not a folder"
                : "cannot create \(current): \(String(cString: strerror(reason)).lowercased())"
            throw TabIconsError(.io, text, input: path)
        }
    }
}
