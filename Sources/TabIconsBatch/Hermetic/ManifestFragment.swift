import TabIcons
import Foundation

/// One input's record from `tabicon render` (SPEC §9): a manifest of that one icon, paths
/// relative to the render's folder, written at `STEM.tabicon.json` beside its files. Nothing in
/// it depends on where, when or by whom it was made, so a build cache can key it by content.
/// `FragmentAssembly` reads it back as the untrusted file it is.
package enum ManifestFragment {
    package static let suffix = ".tabicon.json"

    /// The fragment's path in the render's folder for an input whose outputs mirror `stem`.
    static func path(stem: String) -> String { stem + suffix }

    /// The stem a fragment at `path` stands for, or nil for a file that is no fragment.
    static func stem(ofPath path: String) -> String? {
        guard path.hasSuffix(suffix), path.count > suffix.count else { return nil }
        let stem = String(path.dropLast(suffix.count))
        return stem.hasSuffix("/") ? nil : stem
    }

    /// The document: the run's header, the set lints' thresholds unless they are the defaults,
    /// and this one icon (no errors, no folders: the assembly makes those).
    static func document(
        _ icon: Manifest.Icon, box: IconBox, scales: [Double], options: OptionFingerprint, thresholds: SetLints.Thresholds
    ) -> [UInt8] {
        var manifest = Manifest(box: box, scales: scales, options: options, icons: [icon])
        if thresholds != SetLints.Thresholds() { manifest.lintThresholds = thresholds }
        return manifest.jsonBytes
    }
}

/// The folder a hermetic command writes into: missing (then made) or empty, so that everything
/// in it afterwards is this run's and nothing of an earlier run is read (SPEC §9).
enum EmptyFolder {
    static func check(_ path: String, flag: String) throws(BatchUsageError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw BatchUsageError("\(flag) \(path): \(TabIconsError.systemReason())")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw BatchUsageError("\(flag) \(path) is not a folder; give an empty folder or a path that does not exist")
        }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw BatchUsageError("\(flag) \(path) cannot be read: \(TabIconsError.systemReason())")
        }
        if let first = entries.sorted().first {
            throw BatchUsageError(
                "\(flag) \(path) is not empty (it holds \(first)): a hermetic run writes only into an empty folder, "
                    + "so that nothing of an earlier run is read or kept")
        }
    }
}
