import TabIcons

/// Removes stale files and then the folders tabicon made for them once they are empty, every one
/// through the deletion gate (`OutputDirectory.remove`): a file only while it holds the bytes
/// tabicon recorded, never an input, never outside `--out`. With `dryRun` it answers what it would
/// remove, for `--check`.
///
/// `produced` answers, for a set of folded (lowercased) paths, the paths the run produces that
/// fold to one of them: the run holds no list of its paths, so it looks them up once, and only
/// when something is stale.
enum Pruning {
    static func remove(
        _ stale: [Manifest.FileEntry], in directory: OutputDirectory, madeFolders: Set<String>, dryRun: Bool = false,
        producedFolding produced: (Set<String>) -> Set<String>
    ) -> (files: [String], folders: Set<String>) {
        let sparing = sameFileSpellings(of: stale, producedFolding: produced, in: directory)
        var removed: [String] = []
        var candidates: Set<String> = []
        for file in stale where directory.remove(.file(file), alsoSparing: sparing, dryRun: dryRun) {
            removed.append(file.path)
            var folder = OutputDirectory.split(file.path).folder
            while !folder.isEmpty {
                candidates.insert(folder)
                folder = OutputDirectory.split(folder).folder
            }
        }
        guard !dryRun else { return (removed, []) }
        var removedFolders: Set<String> = []
        // Deepest first, so a folder emptied by removing its sub-folder goes too.
        for folder in candidates.sorted(by: { $0.split(separator: "/").count > $1.split(separator: "/").count })
        where madeFolders.contains(folder) && directory.remove(.emptyFolder(folder)) {
            removedFolders.insert(folder)
        }
        return (removed, removedFolders)
    }

    /// The identities of produced files that a stale file's name differs from only in case: on a
    /// file system that folds case (macOS), `Home.png` is the new `home.png`, and must stay.
    private static func sameFileSpellings(
        of stale: [Manifest.FileEntry], producedFolding produced: (Set<String>) -> Set<String>,
        in directory: OutputDirectory
    ) -> Set<FileIdentity> {
        let staleFolded = Set(stale.map { $0.path.lowercased() })
        guard !staleFolded.isEmpty else { return [] }
        return Set(produced(staleFolded).compactMap { directory.fileStat($0)?.identity })
    }
}
