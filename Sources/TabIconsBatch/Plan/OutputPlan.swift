import TabIcons
import Foundation

/// A usage mistake the output plan finds before any work (SPEC §6a): `--out` over the inputs, a
/// `--manifest` path that cannot be the manifest, scales that name the same file. Exit 2.
public struct BatchUsageError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Every final path of a run, made before the first write (SPEC §6a "Planned before written").
///
/// The naming rule, the same for any `--jobs` because it follows input order:
/// - Two inputs whose outputs meet at the same path for the same scale (`home.png` and
///   `home.webp`; `Home.png` and `home.png`; Android's `a-b.png` and `a_b.png`) have one name:
///   the later input keeps its extension in its stem (`home-webp`), then a counter, until its
///   paths are free. Paths are compared case-insensitively (macOS and Windows fold case).
/// - Two inputs whose outputs meet across scales (a flat `home@2x.png` input beside
///   `home.png`'s 2× rendition) cannot be renamed into sense: both fail, each naming the other.
/// Every rendition path is planned for every requested scale, so a scale skipped as an upscale
/// only leaves its path unused. Paths meet by name without the format's extension: an input
/// written as WebP (`--config`) and one written as PNG are one Android resource, and an icon's
/// name never depends on another icon's format.
package struct OutputPlan: Sendable {
    /// Where one input's files go.
    package struct Icon: Sendable {
        package let stem: String
        /// The rendition path for each requested scale the layout has a place for.
        package let renditionPaths: [(scale: Double, path: String)]
        package let contentsPath: String?
        /// Android's state list, for an icon with a selected twin (`drawable/NAME_selector.xml`).
        package let selectorPath: String?
        /// With `--vector`, for an SVG input: where its vector goes (the renditions' paths stay
        /// planned for the PNG fallback).
        package let vectorPath: String?
        /// With `--symbols`, for an SVG input: the symbol set's `Contents.json`; the vector is then
        /// a custom symbol. Planned, not read off the path (an input folder may be `x.symbolset`).
        package let symbolContentsPath: String?

        package init(
            stem: String, renditionPaths: [(scale: Double, path: String)], contentsPath: String?,
            selectorPath: String? = nil, vectorPath: String? = nil, symbolContentsPath: String? = nil
        ) {
            self.stem = stem
            self.renditionPaths = renditionPaths
            self.contentsPath = contentsPath
            self.selectorPath = selectorPath
            self.vectorPath = vectorPath
            self.symbolContentsPath = symbolContentsPath
        }

        /// The icon whose outputs `layout` names from `stem`, at `scales`; `symbol`: its vector is a
        /// custom symbol (`--symbols`), whose set replaces the image set when it is written.
        init(stem: String, layout: OutputLayout, scales: [Double], fileExtension: String, vector: Bool, symbol: Bool = false) {
            self.init(
                stem: stem,
                renditionPaths: scales.compactMap { scale in
                    layout.path(stem: stem, scale: scale, fileExtension: fileExtension).map { (scale, $0) }
                },
                contentsPath: layout.contentsPath(stem: stem),
                vectorPath: symbol ? layout.symbolPath(stem: stem) : vector ? layout.vectorPath(stem: stem) : nil,
                symbolContentsPath: symbol ? layout.symbolContentsPath(stem: stem) : nil)
        }

        /// The same icon as the dark twin of the icon whose stem is `iconStem`: its files in that
        /// icon's set (`OutputLayout.darkTwinPath`), no `Contents.json`, state list or symbol set
        /// of its own.
        func darkTwin(of iconStem: String, layout: OutputLayout, fileExtension: String) -> Icon {
            Icon(
                stem: stem,
                renditionPaths: renditionPaths.compactMap { scale, _ in
                    layout.darkTwinPath(iconStem: iconStem, twinStem: stem, scale: scale, fileExtension: fileExtension)
                        .map { (scale, $0) }
                },
                contentsPath: nil,
                vectorPath: vectorPath.map { _ in layout.darkTwinVectorPath(iconStem: iconStem, twinStem: stem) })
        }

        /// The same icon with Android's state list.
        func withSelector(_ layout: OutputLayout) -> Icon {
            Icon(
                stem: stem, renditionPaths: renditionPaths, contentsPath: contentsPath,
                selectorPath: layout.selectorPath(iconStem: stem), vectorPath: vectorPath,
                symbolContentsPath: symbolContentsPath)
        }

        package func path(forScale scale: Double) -> String? { renditionPaths.first { $0.scale == scale }?.path }

        /// The vector's form, by the layout that planned its path: a VectorDrawable for Android, a
        /// symbol (made with `weights`) in a symbol set.
        func vectorTarget(symbolWeights weights: SymbolWeights) -> VectorConversion.Target? {
            vectorPath.map { $0.hasSuffix(".xml") ? .vectorDrawable : symbolContentsPath != nil ? .symbol(weights) : .svg }
        }

        /// Every path: the renditions', the vector's, `Contents.json` (the symbol set's too), the state list.
        var allPaths: [String] {
            renditionPaths.map(\.path) + [vectorPath, contentsPath, symbolContentsPath, selectorPath].compactMap { $0 }
        }
    }

    /// Per input, in input order: its files, or why it cannot have any.
    package let icons: [Result<Icon, TabIconsError>]
    /// Every folder (relative to the output root) a file of this run lands in.
    package let folders: Set<String>
    /// What no removal of this run may touch, by identity: the inputs, the folders they were
    /// collected from, the manifest and the preview page.
    package let spared: Set<FileIdentity>
    /// Per input, in input order: the inputs that are its selected and dark twins (`IconTwins`,
    /// among the inputs that have files), whose outputs are placed by `placeTwins`.
    package let twins: [(selected: Int?, dark: Int?)]
    /// Per input, its `stat` when the plan was made (links followed, as it is read; nil when not a
    /// regular file): what its stat record is checked against, and what a made input records
    /// (taken before its bytes are read, so a change since makes the next run's stat differ).
    private let inputStats: [FileStat?]
    /// The digest of each planned path's `lstat` when the plan was made (of nil: no regular file).
    private let outputStats: [String: StatDigest]

    init(
        icons: [Result<Icon, TabIconsError>], folders: Set<String>, spared: Set<FileIdentity>,
        twins: [(selected: Int?, dark: Int?)], inputStats: [FileStat?] = [], outputStats: [String: StatDigest] = [:]
    ) {
        self.icons = icons
        self.folders = folders
        self.spared = spared
        self.twins = twins
        self.inputStats = inputStats
        self.outputStats = outputStats
    }

    func inputStat(_ index: Int) -> FileStat? { index < inputStats.count ? inputStats[index] : nil }

    /// Nil when the plan has no such path.
    func outputStat(_ path: String) -> StatDigest? { outputStats[path] }

    /// The inputs that are written as one unit, each once: an icon, its twins, their twins. An
    /// icon's `Contents.json` lists its dark twin's files and its state list names its selected
    /// twin, so they are decided together (reuse, `--check`, the write of the set).
    package var units: [[Int]] {
        let twinInputs = Set(twins.flatMap { [$0.selected, $0.dark].compactMap { $0 } })
        return twins.indices.filter { !twinInputs.contains($0) }.map { root in
            var unit = [root]
            var next = 0
            while next < unit.count {
                unit += [twins[unit[next]].dark, twins[unit[next]].selected].compactMap { $0 }
                next += 1
            }
            return unit
        }
    }

    package struct Settings: Sendable {
        var layout: OutputLayout
        /// The run's format's; an input with settings of its own (`BatchInput.settings`) uses its format's.
        var fileExtension: String
        var scales: [Double]
        var outputRoot: String
        var manifestPath: String
        /// The folders the inputs were collected from (directory arguments).
        var inputFolders: [String]
        /// `--preview FILE`, an output of the run like the others.
        var previewPath: String? = nil
        /// `--vector`: SVG inputs get a vector path too.
        var vector = false
        /// `--symbols`: an SVG input's vector is a custom symbol in a symbol set.
        var symbols = false
    }

    static func make(_ inputs: [BatchInput], _ settings: Settings) throws(BatchUsageError) -> OutputPlan {
        try checkScales(settings)
        let identities = InputIdentities(inputs, folders: settings.inputFolders)
        let root = settings.outputRoot
        if let id = FileIdentity(path: root), let folder = identities.folders[id] {
            throw BatchUsageError("--out \(root) is the input folder \(folder): outputs would land among the inputs")
        }
        // The manifest and the files beside it (`RunJournal`, `StatCache`).
        let manifestFiles = [
            settings.manifestPath, RunJournal(manifestPath: settings.manifestPath).path,
            StatCache.path(manifestPath: settings.manifestPath)
        ]
        for path in manifestFiles { try checkFilePath("--manifest", path, identities) }
        if let preview = settings.previewPath {
            try checkFilePath("--preview", preview, identities)
            if manifestFiles.contains(where: { sameFile(preview, $0) }) {
                throw BatchUsageError("--preview \(preview) is the manifest \(settings.manifestPath); name another file")
            }
        }

        let (named, twins) = placeTwins(
            inputs,
            naming(
                inputs, layout: settings.layout, fileExtension: settings.fileExtension,
                scales: settings.scales, vector: settings.vector, symbols: settings.symbols),
            layout: settings.layout, fileExtension: settings.fileExtension)
        // The run's own files below --out, which no output may take.
        let reserved = manifestFiles.map { ("--manifest", $0) } + (settings.previewPath.map { [("--preview", $0)] } ?? [])
        let reservedRelative = reserved.compactMap { flag, path in relative(path, to: root).map { ($0.lowercased(), flag, path) }
        }
        var folders: Set<String> = Set(reservedRelative.map { OutputDirectory.split($0.0).folder })
        // Every path the run could write: each input's paths as named or, for an input that fails
        // a collision, as its stem would name them (it still may not land among the inputs).
        let candidates = zip(inputs, named).map { input, result in
            (try? result.get())
                ?? Icon(
                    stem: input.outputStem, layout: settings.layout, scales: settings.scales,
                    fileExtension: input.fileExtension(settings.fileExtension),
                    vector: settings.vector && OutputLayout.isVectorInput(input.name),
                    symbol: settings.symbols && OutputLayout.isVectorInput(input.name))
        }
        // One `lstat` of each path: its digest for the stat cache (`outputStat`), and whether it
        // leads to an input.
        var outputStats: [String: StatDigest] = [:]
        var checked: Set<String> = []  // folders found clear of input folders, with those above them
        // Whether a folder below --out ("": --out itself) may hold files: a first run's folders do
        // not exist, and their files are not asked for one by one.
        var folderExists: [String: Bool] = [:]
        for icon in candidates {
            for path in icon.allPaths {
                if let (_, flag, reservedPath) = reservedRelative.first(where: { path.lowercased() == $0.0 }) {
                    throw BatchUsageError("\(flag) \(reservedPath) is also the path of an output of \(icon.stem)")
                }
                var info = stat()
                let full = root + "/" + path
                let parent = OutputDirectory.split(path).folder
                let parentExists =
                    folderExists[parent]
                    ?? {
                        let exists = lstat(root + "/" + parent, &info) == 0 || errno != ENOENT
                        folderExists[parent] = exists
                        return exists
                    }()
                let found = parentExists && lstat(full, &info) == 0
                let type = info.st_mode & S_IFMT
                outputStats[path] = StatDigest(found && type == S_IFREG ? FileStat(info) : nil)
                // What it leads to: a hard link to an input, or a link whose target is one.
                let id = !found ? nil : type == S_IFLNK ? FileIdentity(path: full) : FileIdentity(info)
                if let id, let input = identities.input(id) {
                    throw BatchUsageError("--out \(root) would write \(root)/\(path) over the input \(input)")
                }
                // The folder and every folder above it up to --out: outputs inside an input folder
                // would land among the inputs (and be walked as inputs next time).
                var folder = parent
                folders.insert(folder)
                while !folder.isEmpty, checked.insert(folder).inserted {
                    if let input = FileIdentity(path: root + "/" + folder).flatMap({ identities.folders[$0] }) {
                        throw BatchUsageError(
                            "--out \(root) would write into \(root)/\(folder), the input folder \(input): outputs would land among the inputs"
                        )
                    }
                    folder = OutputDirectory.split(folder).folder
                }
            }
        }
        var spared = Set(identities.files.keys).union(identities.folders.keys)
        for (_, path) in reserved { if let id = FileIdentity(path: path) { spared.insert(id) } }
        return OutputPlan(
            icons: named, folders: folders, spared: spared, twins: twins, inputStats: identities.stats,
            outputStats: outputStats)
    }

    /// Twins as outputs (SPEC §6), after naming: a dark twin's files moved to where its layout puts
    /// them (`OutputLayout.darkTwinPath`), an icon with a selected twin given its state list.
    /// Placing cannot rename: a twin's file that meets another output at its path (folded), or on
    /// Android a state list whose resource name is another icon's, fails both inputs.
    static func placeTwins(
        _ inputs: [BatchInput], _ named: consuming [Result<Icon, TabIconsError>], layout: OutputLayout,
        fileExtension: String
    )
        -> (icons: [Result<Icon, TabIconsError>], twins: [(selected: Int?, dark: Int?)])
    {
        var icons = named
        let planned = icons.indices.filter { (try? icons[$0].get()) != nil }
        let found = IconTwins.links(
            planned.map { (inputs[$0].name, OutputLayout.iconName(stem: (try? icons[$0].get())?.stem ?? "")) })
        var twins = [(selected: Int?, dark: Int?)](repeating: (nil, nil), count: inputs.count)
        for (position, index) in planned.enumerated() {
            twins[index] = (found[position].selected.map { planned[$0] }, found[position].dark.map { planned[$0] })
        }
        for index in planned {
            guard case .success(let icon) = icons[index] else { continue }
            // A dark twin has no twins: the icon placed here is as named.
            if let darkIndex = twins[index].dark, case .success(let dark) = icons[darkIndex] {
                icons[darkIndex] = .success(
                    dark.darkTwin(of: icon.stem, layout: layout, fileExtension: inputs[darkIndex].fileExtension(fileExtension)))
            }
            if twins[index].selected != nil, layout.selectorPath(iconStem: icon.stem) != nil {
                icons[index] = .success(icon.withSelector(layout))
            }
        }
        // Who writes each path (folded), and on Android each resource name an icon or a state list takes.
        let darkTwins = Set(twins.compactMap(\.dark))
        /// What input `index` claims: its paths, its resource and its state list's.
        func claims(_ index: Int) -> (paths: [String], resource: String?, selector: String?) {
            guard case .success(let icon) = icons[index] else { return ([], nil, nil) }
            // A dark twin shares its icon's resource name on purpose (night and day of one drawable).
            let resource =
                layout == .android && !darkTwins.contains(index) && !icon.renditionPaths.isEmpty
                ? "@drawable/" + OutputLayout.androidResourceName(stem: icon.stem) : nil
            let selector = icon.selectorPath == nil ? nil : "@drawable/" + layout.selectorResourceName(iconStem: icon.stem)
            return (icon.allPaths, resource, selector)
        }
        var owners: [String: Int] = [:]
        var failures: [Int: TabIconsError] = [:]
        func claim(_ key: String, _ shown: String, by index: Int) {
            let owner = owners[key]
            if let owner, owner != index {
                failures[index] = failures[index] ?? collision(shown, with: inputs[owner].name)
                failures[owner] = failures[owner] ?? collision(shown, with: inputs[index].name)
            } else if owner == nil {
                owners[key] = index
            }
        }
        for index in icons.indices {
            let claimed = claims(index)
            for path in claimed.paths { claim(path.lowercased(), path, by: index) }
            if let resource = claimed.resource { claim(resource, resource, by: index) }
        }
        for index in icons.indices {
            if let selector = claims(index).selector { claim(selector, selector, by: index) }
        }
        for (index, error) in failures { icons[index] = .failure(error) }
        return (icons, twins)
    }

    /// Stems and paths for every input under the naming rule above, with nothing checked on disk:
    /// the step `tabicon preview` shares, so its page names the files `normalize` would write.
    static func naming(
        _ inputs: [BatchInput], layout: OutputLayout, fileExtension: String,
        scales: [Double], vector: Bool = false, symbols: Bool = false
    ) -> [Result<Icon, TabIconsError>] {
        // Folded path → the input that writes it, and the scale it is written for.
        var owners: [String: (input: Int, scale: Double)] = [:]
        var failures: [Int: TabIconsError] = [:]
        var named: [Icon] = []
        let contentsScale = -1.0
        for (index, input) in inputs.enumerated() {
            let fileExtension = input.fileExtension(fileExtension)
            var stem = input.outputStem
            let isVector = vector && OutputLayout.isVectorInput(input.name)
            let isSymbol = symbols && OutputLayout.isVectorInput(input.name)
            var icon = Icon(
                stem: stem, layout: layout, scales: scales, fileExtension: fileExtension, vector: isVector, symbol: isSymbol)
            var roles = icon.roles(contentsScale, fileExtension)
            var counter = 1
            while roles.contains(where: { owners[$0.key]?.scale == $0.scale }) {
                counter += 1
                let ext = (input.name as NSString).pathExtension.lowercased()
                let base = ext.isEmpty ? input.outputStem + "-input" : input.outputStem + "-" + ext
                stem = counter == 2 ? base : base + "-\(counter - 1)"
                icon = Icon(
                    stem: stem, layout: layout, scales: scales, fileExtension: fileExtension, vector: isVector, symbol: isSymbol)
                roles = icon.roles(contentsScale, fileExtension)
            }
            named.append(icon)
            for role in roles {
                if let owner = owners[role.key], owner.input != index {
                    failures[index] = collision(role.path, with: inputs[owner.input].name)
                    if failures[owner.input] == nil { failures[owner.input] = collision(role.path, with: input.name) }
                } else if owners[role.key] == nil {
                    owners[role.key] = (index, role.scale)
                }
            }
        }
        return named.indices.map { index in failures[index].map { .failure($0) } ?? .success(named[index]) }
    }

    private static func collision(_ path: String, with other: String) -> TabIconsError {
        TabIconsError(.io, "its output \(path) is also an output of \(other); rename one of them")
    }

    /// Scales that print alike (2.01998 and 2.02002 both print as 2.02) would write one file for
    /// two renditions.
    private static func checkScales(_ settings: Settings) throws(BatchUsageError) {
        var seen: [String: Double] = [:]
        for scale in settings.scales {
            guard let path = settings.layout.path(stem: "icon", scale: scale, fileExtension: settings.fileExtension) else {
                continue
            }
            if let other = seen[path] {
                throw BatchUsageError(
                    "--scales \(other) and \(scale) name the same file (\(path)); give scales that differ in their first four decimals"
                )
            }
            seen[path] = scale
        }
    }

    /// The same check for a page written alone (`tabicon preview -o FILE`), before any work.
    package static func checkFilePath(_ flag: String, _ path: String, inputs: [BatchInput]) throws(BatchUsageError) {
        try checkFilePath(flag, path, InputIdentities(inputs, folders: []))
    }

    /// A file the run writes by a path the user named (`--manifest`, `--preview`, the journal)
    /// that is an input, a folder, a device, a FIFO or a symbolic link.
    private static func checkFilePath(_ flag: String, _ path: String, _ identities: InputIdentities) throws(BatchUsageError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: throw BatchUsageError("\(flag) \(path) is a symbolic link; name the file itself")
        case S_IFDIR: throw BatchUsageError("\(flag) \(path) is a folder; name a file")
        case S_IFREG: break
        default: throw BatchUsageError("\(flag) \(path) is a device, FIFO or socket, not a file")
        }
        if let input = identities.input(FileIdentity(info)) {
            throw BatchUsageError("\(flag) \(path) is the input \(input)")
        }
    }

    /// Whether two paths are one file: by spelling (after standardizing), or by identity when
    /// both exist.
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        if URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path { return true }
        guard let first = FileIdentity(path: a), let second = FileIdentity(path: b) else { return false }
        return first == second
    }

    /// `path` relative to `root` when it lies below it (by spelling, after standardizing).
    static func relative(_ path: String, to root: String) -> String? {
        let full = URL(fileURLWithPath: path).standardizedFileURL.path
        var base = URL(fileURLWithPath: root).standardizedFileURL.path
        if !base.hasSuffix("/") { base += "/" }
        return full.hasPrefix(base) ? String(full.dropFirst(base.count)) : nil
    }
}

extension OutputPlan.Icon {
    /// Each path with the scale it is written for (`contents` for `Contents.json` and the
    /// vector, which no scale's file may meet either; `contents - 1` for a state list) and the key
    /// by which paths meet: folded case (macOS and Windows), and a rendition's without its
    /// extension (then marked by a NUL, never in a path, so `Contents.json.png` is not
    /// `Contents.json`).
    fileprivate func roles(_ contents: Double, _ fileExtension: String) -> [(path: String, scale: Double, key: String)] {
        let suffix = "." + fileExtension
        return renditionPaths.map { ($0.path, $0.scale, String($0.path.dropLast(suffix.count)).lowercased() + "\u{0}") }
            + (vectorPath.map { [($0, contents, $0.lowercased())] } ?? [])
            + (contentsPath.map { [($0, contents, $0.lowercased())] } ?? [])
            + (symbolContentsPath.map { [($0, contents, $0.lowercased())] } ?? [])
            + (selectorPath.map { [($0, contents - 1, $0.lowercased())] } ?? [])
    }
}

extension BatchInput {
    /// The extension of this input's files: its own format's, or the run's.
    fileprivate func fileExtension(_ run: String) -> String { settings?.format.fileExtension ?? run }
}

/// The identities of the inputs (by name, for messages) and of the folders that hold them, and
/// each input's stat digest (links followed, as it is read; of nil for anything but a regular file).
private struct InputIdentities: Sendable {
    var files: [FileIdentity: String] = [:]
    var folders: [FileIdentity: String] = [:]
    var stats: [FileStat?] = []

    /// The name of the input whose file is `identity`, if one is.
    func input(_ identity: FileIdentity) -> String? { files[identity] }

    init(_ inputs: [BatchInput], folders roots: [String]) {
        for root in roots { if let id = FileIdentity(path: root) { folders[id] = root } }
        var seenFolders: Set<String> = []
        for input in inputs {
            var info = stat()
            guard let path = input.sourcePath, stat(path, &info) == 0 else {
                stats.append(nil)
                continue
            }
            stats.append(info.st_mode & S_IFMT == S_IFREG ? FileStat(info) : nil)
            files[FileIdentity(info)] = input.name
            let (parent, _) = OutputDirectory.split(path)
            let folder = !path.utf8.contains(UInt8(ascii: "/")) ? "." : parent.isEmpty ? "/" : parent
            // Inputs share few folders: each is asked of the file system once.
            if seenFolders.insert(folder).inserted, let id = FileIdentity(path: folder), folders[id] == nil {
                folders[id] = folder
            }
        }
    }
}
