import TabIcons
import Foundation

/// The previous run, as its manifest at the `--manifest` path recorded it: the cache of an
/// incremental run (SPEC §6a "Incremental") and the list of files tabicon owns ("No stale files").
/// No manifest, or a file that is not one, is a first run: nothing is carried over or pruned.
struct PreviousRun: Sendable {
    let manifest: Manifest?
    private let iconsByInput: [String: Manifest.Icon]
    private let keptByInput: [String: [Manifest.FileEntry]]

    /// Whether the previous run had this run's options (compared once, not per input).
    private let sameOptions: Bool

    init(manifestPath: String, fingerprint: OptionFingerprint) {
        let data = FileManager.default.contents(atPath: manifestPath)
        manifest = data.flatMap { try? Manifest(parsing: $0) }
        sameOptions = manifest?.options == fingerprint
        var icons: [String: Manifest.Icon] = [:]
        for icon in manifest?.icons ?? [] where icons[icon.input] == nil { icons[icon.input] = icon }
        iconsByInput = icons
        var kept: [String: [Manifest.FileEntry]] = [:]
        for error in manifest?.errors ?? [] where !error.keptFiles.isEmpty { kept[error.input, default: []] += error.keptFiles }
        keptByInput = kept
    }

    /// Every file tabicon owns by the previous manifest: its icons' files and those it kept for
    /// inputs that failed.
    private var ownedFiles: [Manifest.FileEntry] {
        (manifest?.icons ?? []).flatMap(\.ownedFiles) + (manifest?.errors ?? []).flatMap(\.keptFiles)
    }

    /// The previous entry of `input`, carried over when nothing that decides its outputs changed:
    /// the same bytes (content hash), the same options and tool version (fingerprint), the same
    /// paths in the plan, and every file it recorded still on disk with its recorded hash.
    func reusable(input: String, contentHash: ContentHash, plan: OutputPlan.Icon,
                  directory: OutputDirectory) -> Manifest.Icon? {
        guard sameOptions, let icon = iconsByInput[input],
              icon.contentHash == contentHash.description, let renditions = icon.renditions,
              icon.name == OutputLayout.iconName(stem: plan.stem),
              renditions.allSatisfy({ plan.path(forScale: $0.scale) == $0.path }),
              icon.contentsFile?.path == plan.contentsPath
        else { return nil }
        return icon.ownedFiles.allSatisfy(directory.holds) ? icon : nil
    }

    /// Files the previous run wrote that this run does not produce, sorted, each once. Compared
    /// case-insensitively: on macOS `Home.png` and `home.png` are one file, and removing the old
    /// spelling would remove the new file.
    func staleFiles(producing produced: [String]) -> [Manifest.FileEntry] {
        let keep = Set(produced.map { $0.lowercased() })
        var seen: Set<String> = []
        return ownedFiles
            .filter { !keep.contains($0.path.lowercased()) && seen.insert($0.path).inserted }
            .sorted { $0.path < $1.path }
    }

    /// The files tabicon owns for `input` by the previous manifest (its icon's, or those kept
    /// when it failed before).
    func files(ofInput input: String) -> [Manifest.FileEntry] {
        (iconsByInput[input]?.ownedFiles ?? []) + (keptByInput[input] ?? [])
    }

    /// The folders tabicon created in earlier runs.
    var folders: Set<String> { Set(manifest?.folders ?? []) }
}

/// Removes stale files and then the folders tabicon made for them once they are empty. A file is
/// removed only while it still holds the bytes tabicon wrote; nothing tabicon did not write is
/// touched.
enum Pruning {
    static func remove(_ stale: [Manifest.FileEntry], in directory: OutputDirectory, madeFolders: Set<String>)
        -> (files: [String], folders: Set<String>) {
        var removed: [String] = []
        var candidates: Set<String> = []
        for file in stale where directory.removeFile(file.path, ifHash: file.hash) {
            removed.append(file.path)
            var folder = OutputDirectory.split(file.path).folder
            while !folder.isEmpty {
                candidates.insert(folder)
                folder = OutputDirectory.split(folder).folder
            }
        }
        var removedFolders: Set<String> = []
        // Deepest first, so a folder emptied by removing its sub-folder goes too.
        for folder in candidates.sorted(by: { $0.split(separator: "/").count > $1.split(separator: "/").count })
        where madeFolders.contains(folder) && directory.removeFolderIfEmpty(folder) {
            removedFolders.insert(folder)
        }
        return (removed, removedFolders)
    }
}
