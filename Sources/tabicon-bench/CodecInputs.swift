import Foundation
import TabIcons
import TabIconsBatch

/// The files the `decode` and `normalize` scenarios read: every .png .jpg .jpeg .webp .svg .svgz
/// under the given folders (recursively, sorted), held in memory so disk reads are not measured.
struct CodecInputs {
    /// The rebuild scenario's raster icons, and SVG.
    static let extensions = IconSet.extensions + ["svg", "svgz"]

    struct File {
        let name: String
        let bytes: Data
        let format: ImageFormat
    }

    let files: [File]
    let folders: [String]

    /// Loads `folders`, or by default `TestImages/` and, when `bench/fetch-inputs.sh` has filled
    /// them, `bench/inputs/icons` and `bench/inputs/photos`.
    static func load(_ folders: [String]) throws(SetupError) -> CodecInputs {
        let chosen = folders.isEmpty ? defaultFolders() : folders
        var files: [File] = []
        for folder in chosen {
            let root = URL(fileURLWithPath: folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
                throw SetupError("cannot read \(folder)")
            }
            var paths: [URL] = []
            for case let url as URL in walker where Self.extensions.contains(url.pathExtension.lowercased()) {
                paths.append(url)
            }
            for url in paths.sorted(by: { $0.path < $1.path }) {
                guard let bytes = try? Data(contentsOf: url) else { throw SetupError("cannot read \(url.path)") }
                guard let format = ImageFormat.sniff(bytes) else { continue }
                files.append(File(name: url.path, bytes: bytes, format: format))
            }
        }
        guard !files.isEmpty else { throw SetupError("no .png .jpg .webp .svg files in \(chosen.joined(separator: ", "))") }
        return CodecInputs(files: files, folders: chosen)
    }

    static func defaultFolders() -> [String] {
        var folders: [String] = []
        var directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for _ in 0..<6 {
            let testImages = directory.appendingPathComponent("TestImages")
            if FileManager.default.fileExists(atPath: testImages.path) {
                folders.append(testImages.path)
                for sub in ["icons", "photos"] {
                    let path = directory.appendingPathComponent("bench/inputs/\(sub)").path
                    if FileManager.default.fileExists(atPath: path) { folders.append(path) }
                }
                return folders
            }
            directory.deleteLastPathComponent()
        }
        return folders
    }
}

/// Monotonic seconds.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Median of a non-empty list.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// This thread's CPU seconds: what one-core figures are split by, steadier than wall time when
/// other processes share the cores.
func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
