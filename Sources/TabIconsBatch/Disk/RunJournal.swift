import TabIcons
import Foundation

/// What a run committed, recorded as it goes, so that a run that is stopped, killed or cannot
/// write its manifest still leaves a record the next run prunes from (SPEC §6a). It lives beside
/// the manifest (`MANIFEST.journal`), one JSON object a line: `{"file":{"path":…,"bytes":…,
/// "hash":…}}` before an icon's files are renamed into place, `{"folder":…}` for each folder
/// tabicon created. A run that writes its manifest removes it.
///
/// Read back it is untrusted: capped (`UntrustedFile`), each path checked (`RelativePath`), other
/// lines ignored with a warning; its entries are only pruned, through the deletion gate.
final class RunJournal: Sendable {
    let path: String
    private let descriptor = LockedState<Int32>(-1)

    init(manifestPath: String) { path = manifestPath + ".journal" }

    deinit { descriptor.withLock { if $0 >= 0 { close($0) } } }

    /// What an earlier run recorded and did not clear.
    struct Entries: Sendable {
        var files: [Manifest.FileEntry] = []
        var folders: [String] = []
        var warnings: [String] = []
    }

    /// One line of the journal: a file or a folder.
    private struct Line: Codable {
        var file: Manifest.FileEntry?
        var folder: String?
    }

    func read() -> Entries {
        var entries = Entries()
        let read: (bytes: [UInt8], stat: FileStat)?
        do throws(UntrustedFile.Failure) {
            read = try UntrustedFile.read(path)
        } catch {
            return Entries(warnings: ["ignored the journal \(path): \(error.reason)"])
        }
        var ignored = 0
        let decoder = JSONDecoder()
        for text in (read?.bytes ?? []).split(separator: UInt8(ascii: "\n")) {
            let line = try? decoder.decode(Line.self, from: Data(text))
            if let file = line?.file, RelativePath.isPlain(file.path) {
                entries.files.append(file)
            } else if let folder = line?.folder, RelativePath.isPlain(folder) {
                entries.folders.append(folder)
            } else {
                ignored += 1
            }
        }
        if ignored > 0 {
            entries.warnings.append(
                "ignored \(ignored) line\(ignored == 1 ? "" : "s") of the journal \(path) that name no plain path below --out")
        }
        return entries
    }

    /// Appends `files` and `folders` (one `write`, under the lock, so workers' lines never mix).
    func record(files: [Manifest.FileEntry], folders: [String]) throws(TabIconsError) {
        var text: [UInt8] = []
        for file in files { text += JSONValue.object([("file", file.jsonValue)]).utf8(indent: nil) + [0x0A] }
        for folder in folders { text += JSONValue.object([("folder", .string(folder))]).utf8(indent: nil) + [0x0A] }
        guard !text.isEmpty else { return }
        let failed = descriptor.withLock { fd -> Bool in
            if fd < 0 { fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644) }
            // The manifest's folder may not exist yet (the manifest is written last).
            if fd < 0, errno == ENOENT, (try? AtomicFileWriter.makeFolders(OutputDirectory.split(path).folder)) != nil {
                fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
            }
            return fd < 0 || text.withUnsafeBytes { Foundation.write(fd, $0.baseAddress!, $0.count) } != text.count
        }
        if failed { throw TabIconsError(.io, "cannot write the journal \(path): \(TabIconsError.systemReason())") }
    }

    /// Removes the journal once the manifest records everything (a regular file only).
    func clear() {
        descriptor.withLock { fd in
            if fd >= 0 { close(fd); fd = -1 }
        }
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { unlink(path) }
    }
}
