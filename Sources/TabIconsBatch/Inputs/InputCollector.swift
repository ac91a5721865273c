import Foundation
import TabIcons

/// One input a batch will process: where its bytes come from, the name it is reported under, and
/// the path its outputs mirror inside `--out` (`InputCollector.collect`; `BatchInput(_:limit:)`).
public struct InputItem: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        case file(URL)
        case standardInput
    }

    /// Where the bytes come from.
    public var source: Source
    /// The input as the user named it (`icons/home.png`, `-`): what error lines and the
    /// manifest's `input` say.
    public var displayName: String
    /// Where its outputs go inside `--out`, without extension: `icons/home`. Always relative and
    /// free of `..`, so nothing is written outside the output root. Two inputs that would share
    /// a name are kept apart by the output plan (`OutputPlan`), not here.
    public var outputStem: String
    /// The file's path, for the output plan's identity checks; nil for stdin.
    public var path: String?
    /// The walk or the command line found a regular file here: anything else found when it is
    /// read (a FIFO swapped in) is an `io` error, not a read that waits for a writer.
    public let wasRegularFile: Bool

    /// The manifest's `name`: the file name without extension.
    public var name: String { OutputLayout.iconName(stem: outputStem) }

    package init(source: Source, displayName: String, outputStem: String, path: String? = nil, wasRegularFile: Bool = false) {
        self.source = source
        self.displayName = displayName
        self.outputStem = outputStem
        self.wasRegularFile = wasRegularFile
        switch source {
        case .file(let url): self.path = path ?? url.path
        case .standardInput: self.path = nil
        }
    }
}

/// Expands the command line's `<file|dir|->...` into inputs: `tabicon`'s walk, and a build
/// tool's (`collect`, then `Collected.batchInputs(limit:)`, `folders` and `errors` for the batch).
///
/// Decisions (docs/decisions.md, "Inputs and outputs"): folders are walked recursively for image
/// extensions (any case), sorted by path; hidden files and folders are skipped; a file named
/// explicitly is taken whatever its extension. Outputs mirror a folder argument `D` as
/// `basename(D)/...`, a file argument as its file name; `-` (stdin) is `stdin`. The folder in
/// `excluding` (the output root) is never walked. Nothing is skipped in silence (SPEC §6a): a
/// folder it cannot read, a name that is not UTF-8, an entry it cannot `lstat` are `io` failures.
public enum InputCollector {
    /// The extensions a folder is walked for (any case): the decoder registry's.
    public static let imageExtensions: Set<String> = ImageDecoder.fileExtensions

    public struct Collected: Sendable {
        /// What was found, in argument order, each folder's files sorted by path.
        public var inputs: [InputItem] = []
        /// What could not be looked at (a missing argument, an unreadable folder or entry, a name
        /// that is not UTF-8), each with the name it is reported under.
        public var failures: [(input: String, error: TabIconsError)] = []
        /// The folder arguments, for the rule that `--out` is never an input folder.
        public var folders: [String] = []

        /// `failures` as the manifest records them (`BatchNormalizer.run`'s `priorErrors`).
        public var errors: [Manifest.ErrorEntry] { failures.map { .init(input: $0.input, error: $0.error) } }

        /// `inputs` as the batch takes them, each refusing more than `limit` bytes (the run's
        /// `DecodeOptions.Limits.maxInputBytes`).
        public func batchInputs(limit: Int) -> [BatchInput] { inputs.map { BatchInput($0, limit: limit) } }
    }

    /// Collects `arguments` (files, folders, `-` for stdin) as `tabicon` does; never the folder
    /// `excluded` (the output root). What cannot be looked at is in `failures`, not thrown: the
    /// other inputs still run and the manifest names each failure.
    public static func collect(_ arguments: [String], excluding excluded: URL? = nil) -> Collected {
        var collected = Collected()
        let excludedPath = excluded.map { $0.standardizedFileURL.resolvingSymlinksInPath().path }
        for argument in arguments {
            if argument == "-" {
                collected.inputs.append(InputItem(source: .standardInput, displayName: "-", outputStem: "stdin"))
                continue
            }
            var info = stat()
            guard stat(argument, &info) == 0 else {
                let reason = errno == ENOENT ? "no such file or directory" : TabIconsError.systemReason()
                collected.failures.append((argument, TabIconsError(.io, reason, input: argument)))
                continue
            }
            let url = URL(fileURLWithPath: argument)
            if info.st_mode & S_IFMT != S_IFDIR {
                let stem = (url.lastPathComponent as NSString).deletingPathExtension
                collected.inputs.append(
                    InputItem(
                        source: .file(url), displayName: argument, outputStem: safeStem(stem),
                        wasRegularFile: info.st_mode & S_IFMT == S_IFREG))
                continue
            }
            collected.folders.append(argument)
            let base = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            let (found, failures) = walk(url, excludedPath: excludedPath)
            let stemPrefix = safeStem(url.standardizedFileURL.lastPathComponent)
            let folderPath = url.path
            for relative in found {
                let path = folderPath + "/" + relative
                collected.inputs.append(
                    InputItem(
                        source: .file(URL(fileURLWithPath: path, isDirectory: false)), displayName: base + "/" + relative,
                        outputStem: stemPrefix + "/" + withoutExtension(relative), path: path,
                        wasRegularFile: true))
            }
            for (relative, error) in failures {
                let name = relative.isEmpty ? base : base + "/" + relative
                collected.failures.append((name, error.naming(name)))
            }
        }
        return collected
    }

    /// Image files below `root`, as sorted relative paths, and what could not be looked at.
    private static func walk(_ root: URL, excludedPath: String?) -> (found: [String], failures: [(String, TabIconsError)]) {
        var found: [String] = []
        var failures: [(String, TabIconsError)] = []
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? root : root.appendingPathComponent(relative)
            if let excludedPath, directory.standardizedFileURL.resolvingSymlinksInPath().path == excludedPath { continue }
            let folder = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            defer { if folder >= 0 { close(folder) } }
            guard folder >= 0, let names = try? DirectoryListing.names(inFolder: folder) else {
                failures.append((relative, TabIconsError(.io, "cannot read the folder: \(TabIconsError.systemReason())")))
                continue
            }
            for bytes in names where bytes.first != UInt8(ascii: ".") {
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    let shown = (relative.isEmpty ? "" : relative + "/") + String(decoding: bytes, as: UTF8.self)
                    failures.append((shown, TabIconsError(.io, "the file name is not valid UTF-8; rename it")))
                    continue
                }
                let path = relative.isEmpty ? name : relative + "/" + name
                switch kind(of: name, in: folder) {
                case .directory: pending.append(path)
                case .file where isImageName(name): found.append(path)
                case .unreadable(let reason): failures.append((path, TabIconsError(.io, "cannot stat: \(reason)")))
                case .brokenLink(let reason) where isImageName(name):
                    failures.append((path, TabIconsError(.io, "a symbolic link to nothing: \(reason)")))
                default: continue
                }
            }
        }
        return (found.sorted(), failures.sorted { $0.0 < $1.0 })
    }

    private enum EntryKind: Equatable { case directory, file, other, unreadable(String), brokenLink(String) }

    /// What the walk does with the entry `name` of the folder open at `folder`. A link to a folder
    /// is not followed (as `find` and `git` do not), so a link up the tree cannot make the walk
    /// loop; a link to a regular file is taken. FIFOs, sockets and devices are skipped: reading a
    /// FIFO nobody writes would block the batch. A link to nothing named like an image is reported.
    private static func kind(of name: String, in folder: Int32) -> EntryKind {
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .unreadable(TabIconsError.systemReason()) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        case S_IFLNK:
            guard fstatat(folder, name, &info, 0) == 0 else { return .brokenLink(TabIconsError.systemReason()) }
            return info.st_mode & S_IFMT == S_IFREG ? .file : .other
        default: return .other
        }
    }

    /// Whether a file name has one of `imageExtensions`, any case.
    private static func isImageName(_ name: String) -> Bool {
        ImageDecoder.format(suggestedByName: name) != nil
    }

    /// `icons/home` of `icons/home.png`: a name the walk found has an image extension, so its last
    /// component has a dot, and not first (hidden names are skipped).
    private static func withoutExtension(_ relative: String) -> String {
        guard let dot = relative.utf8.lastIndex(of: UInt8(ascii: ".")) else { return relative }
        return String(relative[..<dot])
    }

    /// A path component that cannot climb out of the output root.
    private static func safeStem(_ stem: String) -> String {
        stem.isEmpty || stem == "." || stem == ".." ? "input" : stem
    }
}
