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
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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
}
