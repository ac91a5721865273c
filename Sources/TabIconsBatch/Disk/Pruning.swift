import TabIcons

/// Removes stale files, then the folders tabicon made for them once empty, each through the
/// deletion gate (`OutputDirectory.remove`); with `dryRun` it only answers what it would remove.
/// `produced` answers the paths the run produces that fold to a lowercased path: on a file system
/// that folds case, `Home.png` is the new `home.png`, and is spared.
enum Pruning {
    static func remove(
        _ stale: [Manifest.FileEntry], in directory: OutputDirectory, madeFolders: Set<String>,
        dryRun: Bool = false, producedFolding produced: (String) -> [String]
    ) -> (files: [String], folders: Set<String>) {
        var removed: [String] = []
        var candidates: Set<String> = []
        for file in stale {
            let sparing = Set(produced(file.path.lowercased()).compactMap { directory.fileStat($0)?.identity })
            guard directory.remove(.file(file), alsoSparing: sparing, dryRun: dryRun) else { continue }
            removed.append(file.path)
            var folder = OutputDirectory.split(file.path).folder
            while !folder.isEmpty, candidates.insert(folder).inserted {
                folder = OutputDirectory.split(folder).folder
            }
        }
        removed.sort()
        guard !dryRun else { return (removed, []) }
        var removedFolders: Set<String> = []
        // Deepest first, so a folder emptied by removing its sub-folder goes too.
        for folder in candidates.sorted(by: { $0.split(separator: "/").count > $1.split(separator: "/").count })
        where madeFolders.contains(folder) && directory.remove(.emptyFolder(folder)) {
            removedFolders.insert(folder)
        }
        return (removed, removedFolders)
    }
}
