import Foundation
import TabIcons
import TabIconsBatch

/// One input the CLI will process: where its bytes come from, the name it is reported under, and
/// the path its outputs mirror inside `--out`.
struct InputItem: Sendable, Equatable {
    enum Source: Sendable, Equatable {
        case file(URL)
        case standardInput
    }

    let source: Source
    /// The input as the user named it (`icons/home.png`, `-`): what error lines and the
    /// manifest's `input` say.
    let displayName: String
    /// Where its outputs go inside `--out`, without extension: `icons/home`. Always relative and
    /// free of `..`, so nothing is written outside the output root.
    let outputStem: String

    /// The manifest's `name`: the file name without extension.
    var name: String { (outputStem as NSString).lastPathComponent }
}

/// Expands the command line's `<file|dir|->...` into inputs.
///
/// Decisions (README, "Inputs and outputs"): directories are walked recursively for `.png`,
/// `.jpg`, `.jpeg`, `.webp`, `.svg` and `.svgz` (any case), sorted by path so runs are reproducible; hidden files
/// and folders are skipped; a file named explicitly is taken whatever its extension (the format is
/// sniffed from bytes anyway). Outputs mirror a directory argument `D` as `basename(D)/...` and a
/// file argument as its file name; `-` (stdin) is named `stdin`. A folder given in `excluding`
/// (the output root) is never walked, so an output folder inside the input tree is not re-read.
/// The walk takes regular files (and links to them) only; see `kind(of:)`.
enum InputCollector {
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "svg", "svgz"]

    static func collect(_ arguments: [String], excluding excluded: URL? = nil) -> (inputs: [InputItem], failures: [(String, TabIconsError)]) {
        var inputs: [InputItem] = []
        var failures: [(String, TabIconsError)] = []
        let fm = FileManager.default
        let excludedPath = excluded.map { $0.standardizedFileURL.resolvingSymlinksInPath().path }
        for argument in arguments {
            if argument == "-" {
                inputs.append(InputItem(source: .standardInput, displayName: "-", outputStem: "stdin"))
                continue
            }
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                failures.append((argument, TabIconsError(.io, "no such file or directory", input: argument)))
                continue
            }
            let url = URL(fileURLWithPath: argument)
            if !isDirectory.boolValue {
                let stem = (url.lastPathComponent as NSString).deletingPathExtension
                inputs.append(InputItem(source: .file(url), displayName: argument, outputStem: safeStem(stem)))
                continue
            }
            let rootName = safeStem(url.standardizedFileURL.lastPathComponent)
            let base = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            for relative in walk(url, excludedPath: excludedPath) {
                let display = base + "/" + relative
                let stem = rootName + "/" + (relative as NSString).deletingPathExtension
                inputs.append(InputItem(source: .file(url.appendingPathComponent(relative)),
                                        displayName: display, outputStem: stem))
            }
        }
        return (disambiguated(inputs), failures)
    }

    /// Two inputs whose outputs would share a name (`home.png` and `home.webp`, or the same file
    /// named twice) must not overwrite each other: every later one keeps its extension in its stem
    /// (`home-webp`), then a counter if that is taken too. Compared case-insensitively, since
    /// macOS volumes are. Deterministic because inputs arrive sorted.
    private static func disambiguated(_ inputs: [InputItem]) -> [InputItem] {
        var taken: Set<String> = []
        return inputs.map { item in
            var stem = item.outputStem
            if taken.contains(stem.lowercased()) {
                let ext = (item.displayName as NSString).pathExtension.lowercased()
                let base = ext.isEmpty ? stem : stem + "-" + ext
                stem = base
                var counter = 2
                while taken.contains(stem.lowercased()) {
                    stem = base + "-\(counter)"
                    counter += 1
                }
            }
            taken.insert(stem.lowercased())
            return InputItem(source: item.source, displayName: item.displayName, outputStem: stem)
        }
    }

    /// Image files below `root`, as sorted relative paths.
    private static func walk(_ root: URL, excludedPath: String?) -> [String] {
        let fm = FileManager.default
        var found: [String] = []
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? root : root.appendingPathComponent(relative)
            if let excludedPath, directory.standardizedFileURL.resolvingSymlinksInPath().path == excludedPath { continue }
            guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                switch kind(of: root.appendingPathComponent(path).path) {
                case .directory: pending.append(path)
                case .file where imageExtensions.contains((name as NSString).pathExtension.lowercased()): found.append(path)
                default: continue
                }
            }
        }
        return found.sorted()
    }

    enum EntryKind { case directory, file, other }

    /// What the walk does with one directory entry. Decisions (hostile trees): a symbolic link to a
    /// directory is not followed, as `find` and `git` do not follow one, so a link back up the
    /// tree cannot make the walk loop or list each icon again at every depth; a link to a regular
    /// file is taken. FIFOs, sockets and devices are skipped: reading a FIFO that nobody writes
    /// would block the batch forever. (Named on the command line, any of them is read as given.)
    static func kind(of path: String) -> EntryKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        case S_IFLNK:
            guard stat(path, &info) == 0 else { return .other }
            return info.st_mode & S_IFMT == S_IFREG ? .file : .other
        default: return .other
        }
    }

    /// A path component that cannot climb out of the output root.
    private static func safeStem(_ stem: String) -> String {
        stem.isEmpty || stem == "." || stem == ".." ? "input" : stem
    }
}
