import TabIcons
import Foundation

/// The output root, and every file operation a batch makes below it (SPEC §6a "Nothing outside
/// `--out`", "Whole sets"). Paths below the root are walked one component at a time with
/// `openat(O_NOFOLLOW | O_DIRECTORY)` and files opened with `O_NOFOLLOW`: a link planted under
/// `--out` is an `io` error, never a way out of it. The root itself may be reached through links.
///
/// Writes are staged: `stage` writes an icon's files under temporary names beside their final
/// ones, `commit` renames them all into place, `discard` removes them. A file whose bytes already
/// equal the new ones is not staged, so its inode and mtime stay.
package final class OutputDirectory: Sendable {
    package let rootPath: String
    /// -1 while the root does not exist (a `--check` run before any real one).
    private let rootFD: Int32
    private let created = LockedState<Set<String>>([])
    /// What no removal may touch, by identity (`OutputPlan.spared`).
    package let spared: Set<FileIdentity>
    /// Where each commit is recorded before its renames, and the created folders it already names.
    private let journal: RunJournal?
    private let journaledFolders = LockedState<Set<String>>([])

    /// Opens the root, creating it (and its parents) first when `create` is set.
    init(root: String, create: Bool, sparing spared: Set<FileIdentity> = [], journal: RunJournal? = nil) throws(TabIconsError) {
        rootPath = root
        self.spared = spared
        self.journal = journal
        if create { try AtomicFileWriter.makeFolders(root) }
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 && !(errno == ENOENT && !create) {
            throw TabIconsError(.io, "cannot open \(root): \(TabIconsError.systemReason())", input: root)
        }
        rootFD = fd
    }

    deinit { if rootFD >= 0 { close(rootFD) } }

    /// Folders this object created, relative to the root.
    package var createdFolders: Set<String> { created.withLock { $0 } }

    /// The folder `relative` ("" for the root) opened, or nil when it does not exist and
    /// `create` is false. Each component must be a real folder, never a link.
    package func openFolder(_ relative: String, create: Bool) throws(TabIconsError) -> Int32? {
        guard rootFD >= 0 else { return nil }
        var fd = dup(rootFD)
        guard fd >= 0 else { throw TabIconsError(.io, "cannot open \(rootPath): \(TabIconsError.systemReason())") }
        var walked = ""
        for component in relative.split(separator: "/").map(String.init) {
            walked += (walked.isEmpty ? "" : "/") + component
            var next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT {
                guard create else { close(fd); return nil }
                if mkdirat(fd, component, 0o777) == 0 {
                    created.withLock { _ = $0.insert(walked) }
                } else if errno != EEXIST {
                    let error = failure("cannot create", walked)
                    close(fd)
                    throw error
                }
                next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if next < 0 {
                let error =
                    errno == ELOOP || errno == ENOTDIR ? notAFolder(fd, component, walked) : failure("cannot open", walked)
                close(fd)
                throw error
            }
            close(fd)
            fd = next
        }
        return fd
    }

    /// The bytes of the file at `relative`, nil when there is none; a link, a folder or a special
    /// file there is an `io` error, a file of more than `cap` bytes a `tooLarge` one (refused
    /// by its size, before a byte is read).
    package func read(_ relative: String, cap: Int = .max) throws(TabIconsError) -> [UInt8]? {
        let (folder, name) = Self.split(relative)
        guard let fd = try openFolder(folder, create: false) else { return nil }
        defer { close(fd) }
        return try read(name, in: fd, relative: relative, cap: cap)
    }

    /// `failing` names what a system error interrupted: a read, or the write this read serves.
    /// `stat`, when given, is set to the file's stat record (taken on the open file).
    private func read(
        _ name: String, in folder: Int32, relative: String, cap: Int = .max,
        failing what: String = "cannot read", stat record: UnsafeMutablePointer<FileStat?>? = nil
    ) throws(TabIconsError) -> [UInt8]? {
        let fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw errno == ELOOP ? linkError(relative) : failure(what, relative)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(what, relative) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TabIconsError(.io, "\(relative) in \(rootPath) is not a regular file")
        }
        guard Int(info.st_size) <= cap else {
            throw TabIconsError(.tooLarge, "\(relative) in \(rootPath) holds \(info.st_size) bytes, more than \(cap)")
        }
        guard let data = UntrustedFile.bytes(of: fd, size: Int(info.st_size)) else { throw failure(what, relative) }
        record?.pointee = FileStat(info)
        return [UInt8](data)
    }

    /// A folder below the root, open while a staged file in it waits; closed with its last user
    /// (an icon's files share their folder: it is walked to once, not once a file).
    fileprivate final class Folder {
        let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
        deinit { close(fd) }
    }

    /// One file of an icon, written under its temporary name and waiting to be renamed.
    package struct Staged {
        fileprivate let folder: Folder
        fileprivate let temporary: String
        fileprivate let name: String
        package let relative: String
        /// What the journal records of it.
        fileprivate let entry: Manifest.FileEntry
    }

    /// Writes every file whose bytes differ from the file at its path as a temporary beside it;
    /// answers those staged, and the paths left as they were (equal bytes) with their stat
    /// records. On any failure, every temporary this call made is removed, and nothing else changed.
    package func stage(_ files: [(path: String, bytes: [UInt8])]) throws(TabIconsError)
        -> (staged: [Staged], unchanged: [String: FileStat])
    {
        var staged: [Staged] = []
        var unchanged: [String: FileStat] = [:]
        var folders: [String: Folder] = [:]
        do throws(TabIconsError) {
            for file in files {
                let (folderPath, name) = Self.split(file.path)
                let folder: Folder
                if let open = folders[folderPath] {
                    folder = open
                } else {
                    guard let fd = try openFolder(folderPath, create: true) else {
                        throw TabIconsError(.io, "cannot open \(rootPath)")
                    }
                    folder = Folder(fd)
                    folders[folderPath] = folder
                }
                // The old bytes are read only to leave an equal file untouched: a failure is the write's.
                var stat: FileStat?
                if try read(name, in: folder.fd, relative: file.path, failing: "cannot write", stat: &stat) == file.bytes {
                    unchanged[file.path] = stat
                    continue
                }
                let temporary = try writeTemporary(file.bytes, in: folder.fd, relative: file.path)
                let entry = Manifest.FileEntry(path: file.path, of: file.bytes)
                staged.append(Staged(folder: folder, temporary: temporary, name: name, relative: file.path, entry: entry))
            }
        } catch {
            discard(staged)
            throw error
        }
        return (staged, unchanged)
    }

    /// Renames every staged file into place once the journal records them (and the folders made
    /// for them), and answers their stat records as they now are (a rename moves ctime; nil where
    /// the stat failed). A rename that fails leaves that file's previous version and removes the
    /// remaining temporaries, as a journal that cannot be written removes them all.
    @discardableResult
    package func commit(_ staged: [Staged]) throws(TabIconsError) -> [String: FileStat] {
        if let journal, !staged.isEmpty {
            let folders = created.withLock { $0 }
            let newFolders = journaledFolders.withLock { journaled in
                let new = folders.subtracting(journaled)
                journaled.formUnion(new)
                return new
            }
            do throws(TabIconsError) {
                try journal.record(files: staged.map(\.entry), folders: newFolders.sorted())
            } catch {
                discard(staged)
                throw error
            }
        }
        var stats: [String: FileStat] = [:]
        for (index, file) in staged.enumerated() {
            if renameat(file.folder.fd, file.temporary, file.folder.fd, file.name) != 0 {
                let error = failure("cannot rename into place", file.relative)
                discard(Array(staged[index...]))
                throw error
            }
            var info = stat()
            if fstatat(file.folder.fd, file.name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG {
                stats[file.relative] = FileStat(info)
            }
        }
        return stats
    }

    /// Removes staged temporaries: the icon's previous files stay exactly as they were.
    package func discard(_ staged: [Staged]) {
        for file in staged { unlinkat(file.folder.fd, file.temporary, 0) }
    }

    /// Something a batch may delete below the root, with what proves it is tabicon's.
    package enum Removal: Sendable, Equatable {
        /// A file tabicon recorded: removed only while it holds the bytes recorded for it, so a
        /// file someone replaced since is theirs, and stays.
        case file(Manifest.FileEntry)
        /// A folder tabicon made: removed only when empty.
        case emptyFolder(String)
        /// A temporary of tabicon's own name pattern (`TemporaryName`), as a killed run left it.
        case temporary(folder: String, name: String)
        /// The binary run index an older version kept beside its manifest (`MANIFEST.index`):
        /// removed only when it begins with that format's magic, `tabicon index `.
        case formerRunIndex(String)

        var relative: String {
            switch self {
            case .file(let entry): return entry.path
            case .emptyFolder(let path): return path
            case .temporary(let folder, let name): return folder.isEmpty ? name : folder + "/" + name
            case .formerRunIndex(let path): return path
            }
        }
    }

    /// The one gate every deletion of a batch goes through (SPEC §6a "What it reads back is
    /// untrusted"). It proves, in this order, that the target is a plain relative path reached
    /// below the root without following a link, that it is not an input of this run nor one of
    /// its own files (by identity: `spared`, `alsoSparing`), and that it is what the removal says
    /// (the recorded bytes, an empty folder, tabicon's temporary pattern). `dryRun` (`--check`)
    /// removes nothing. Answers whether it removed (or would remove) the target.
    package func remove(_ removal: Removal, alsoSparing extra: Set<FileIdentity> = [], dryRun: Bool = false) -> Bool {
        let relative = removal.relative
        guard RelativePath.isPlain(relative) else { return false }
        let (folderPath, name) = Self.split(relative)
        guard let folder = try? openFolder(folderPath, create: false) else { return false }
        defer { close(folder) }
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        let identity = FileIdentity(info)
        guard !spared.contains(identity), !extra.contains(identity) else { return false }
        let type = info.st_mode & S_IFMT
        switch removal {
        case .file(let entry):
            guard type == S_IFREG, Int(info.st_size) == entry.bytes,
                let bytes = try? read(name, in: folder, relative: relative),
                entry.hash == ContentHash(of: bytes).description
            else { return false }
            return dryRun || unlinkat(folder, name, 0) == 0
        case .emptyFolder:
            guard type == S_IFDIR else { return false }
            return dryRun || unlinkat(folder, name, AT_REMOVEDIR) == 0
        case .temporary:
            guard type == S_IFREG, TemporaryName.matches(name) else { return false }
            return dryRun || unlinkat(folder, name, 0) == 0
        case .formerRunIndex:
            let magic = Array("tabicon index ".utf8)
            guard type == S_IFREG, Int(info.st_size) >= magic.count, Int(info.st_size) <= UntrustedFile.cap,
                let bytes = try? read(name, in: folder, relative: relative), bytes.starts(with: magic)
            else { return false }
            return dryRun || unlinkat(folder, name, 0) == 0
        }
    }

    /// Whether the file tabicon recorded is still there with the bytes it wrote (read and hashed).
    package func holds(_ file: Manifest.FileEntry) -> Bool { check(file, cache: .none) != nil }

    /// What the file system says of the file tabicon recorded, when it is still there with the
    /// bytes it wrote: by its stat record where `cache` says that stands, else read and hashed.
    /// Nil when the file is gone, is not a regular file reached without links, or holds other
    /// bytes. `planned`: the digest of the stat the output plan took (`OutputPlan.outputStat`).
    package func check(_ file: Manifest.FileEntry, cache: StatCache, planned: StatDigest? = nil) -> FileStat? {
        // The cache's question first, in at most one system call from the root: a stat equal to
        // the record, device and inode included, is that very file whatever path reached it.
        if rootFD >= 0, RelativePath.isPlain(file.path),
            let stat = cache.standing(output: file.path, hash: file.hash, current: planned ?? StatDigest(statFromRoot(file.path)))
        {
            return stat
        }
        guard let current = fileStat(file.path) else { return nil }
        if cache.outputStands(file.path, hash: file.hash, current: current) { return current }
        guard current.size == file.bytes, let bytes = try? read(file.path),
            bytes.count == file.bytes, file.hash == ContentHash(of: bytes).description
        else { return nil }
        return current
    }

    /// `fstatat` of the plain path `relative` from the root, its last component not followed (folders
    /// on the way are, so only a stat equal to a record says it is that file); nil: no regular file.
    private func statFromRoot(_ relative: String) -> FileStat? {
        guard rootFD >= 0 else { return nil }
        var info = stat()
        guard fstatat(rootFD, relative, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStat(info)
    }

    /// What the file system says of the regular file at `relative` (no link followed), nil when
    /// there is none.
    package func fileStat(_ relative: String) -> FileStat? {
        let (folderPath, name) = Self.split(relative)
        guard let folder = try? openFolder(folderPath, create: false) else { return nil }
        defer { close(folder) }
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStat(info)
    }

    /// Whether a folder exists at `relative` (a real one, reached without links).
    package func folderExists(_ relative: String) -> Bool {
        guard let fd = try? openFolder(relative, create: false) else { return false }
        close(fd)
        return true
    }

    /// Removes the temporaries a killed run left in the folder `relative`: names of tabicon's own
    /// pattern only (`TemporaryName`). Answers how many it removed.
    package func removeStaleTemporaries(in relative: String) -> Int {
        guard let fd = try? openFolder(relative, create: false) else { return 0 }
        defer { close(fd) }
        guard let names = try? DirectoryListing.names(inFolder: fd) else { return 0 }
        let temporaries = names.map { String(decoding: $0, as: UTF8.self) }.filter(TemporaryName.matches)
        return temporaries.filter { remove(.temporary(folder: relative, name: $0)) }.count
    }

    /// Writes `bytes` to a fresh temporary in `folder` and answers its name.
    private func writeTemporary(_ bytes: [UInt8], in folder: Int32, relative: String) throws(TabIconsError) -> String {
        let (fd, name) = TemporaryName.create { openat(folder, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw failure("cannot write", relative) }
        var error: TabIconsError? = AtomicFileWriter.writeAll(bytes, to: fd) ? nil : failure("cannot write", relative)
        if close(fd) != 0, error == nil { error = failure("cannot write", relative) }
        if let error {
            unlinkat(folder, name, 0)
            throw error
        }
        return name
    }

    private func notAFolder(_ fd: Int32, _ component: String, _ walked: String) -> TabIconsError {
        var info = stat()
        if fstatat(fd, component, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFLNK {
            return linkError(walked)
        }
        return TabIconsError(.io, "\(walked) in \(rootPath) exists and is not a folder")
    }

    private func linkError(_ relative: String) -> TabIconsError {
        TabIconsError(.io, "\(relative) in \(rootPath) is a symbolic link; tabicon follows no link below --out")
    }

    private func failure(_ what: String, _ relative: String) -> TabIconsError {
        TabIconsError(.io, "\(what) \(relative) in \(rootPath): \(TabIconsError.systemReason())")
    }

    /// `icons/home.imageset/home.png` → (`icons/home.imageset`, `home.png`).
    package static func split(_ relative: String) -> (folder: String, name: String) {
        guard let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", relative) }
        return (String(relative[..<slash]), String(relative[relative.utf8.index(after: slash)...]))
    }
}
