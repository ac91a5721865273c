import Foundation

/// A fresh folder under the system's temporary directory, removed when the test's scope ends.
package final class TemporaryDirectory {
    package let url: URL

    package init(_ label: String = "tabicons") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    package func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    /// Every regular file below the folder, as sorted relative paths.
    package func files() -> [String] {
        let base = url.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(relative)
            }
        }
        return found.sorted()
    }

    /// Relative path → bytes of every file below the folder; the stat cache beside a manifest
    /// (inodes and times: what this folder's file system said, which two folders never share) as
    /// being there, so two runs' trees compare by what the runs produced.
    package func snapshot() throws -> [String: Data] {
        var result: [String: Data] = [:]
        for file in files() {
            let data = try Data(contentsOf: url.appendingPathComponent(file))
            if (file as NSString).lastPathComponent == "manifest.json.stat-cache" {
                result[file] = Data("a stat cache".utf8)
            } else {
                result[file] = data
            }
        }
        return result
    }
}
