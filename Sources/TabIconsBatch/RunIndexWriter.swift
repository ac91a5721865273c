import TabIcons
import Foundation

/// Writes the run index (`RunIndex`) as the run records its rows, in input order, a block at a
/// time to a temporary beside the manifest, and puts it in place once the manifest is: the run
/// holds a block of it, not the set's. Any row it cannot stand for (an input not read from a file,
/// a file without a stat record or a hash of tabicon's spelling), an input that failed or a
/// warning spoils it: then no index is written. The previous index, set aside before the run's
/// first write (`RunIndex.setAside`), is compared as the new one is written and put back when
/// the two are equal, so a run that changed nothing changes no file. Used under the run's results
/// lock only.
final class RunIndexWriter: @unchecked Sendable {
    private let path: String
    private let file: AtomicFileWriter.Pending
    private let question: RunIndex.Question
    /// Each input's key and its unit's, which its record holds.
    private let keys: RunIndex.InputKeys
    private let root: FileIdentity
    /// The index set aside (its temporary name, open), while every byte so far equals it.
    private var previous: (path: String, fd: Int32, size: Int)?
    private var buffer: [UInt8]
    private var checksum = RunIndex.ChainedHash()
    private var written = 0
    private var inputs = 0
    private var files = 0
    private var undersized = 0
    private var spoiled = false

    /// The writer of a run that keeps an index (`keeps`), nil when there is nothing to write: no
    /// question (an input the batch does not read from a file), no folder at `root`, or no
    /// temporary to be had. The index set aside at `previous` is removed unless a writer may
    /// put it back.
    static func make(
        path: String, keeps: Bool, question: RunIndex.Question?, keys: RunIndex.InputKeys?, root: String, previous: String?
    ) -> RunIndexWriter? {
        guard keeps, let question, let keys, let rootIdentity = RunIndex.folderIdentity(root),
            let file = try? AtomicFileWriter.Pending(path: path)
        else {
            if let previous { unlink(previous) }
            return nil
        }
        return RunIndexWriter(
            path: path, file: file, question: question, keys: keys, root: rootIdentity, previous: previous)
    }

    private init(
        path: String, file: AtomicFileWriter.Pending, question: RunIndex.Question, keys: RunIndex.InputKeys,
        root: FileIdentity, previous: String?
    ) {
        self.path = path
        self.file = file
        self.question = question
        self.keys = keys
        self.root = root
        buffer = RunIndex.magic
        if let previous {
            // Opened as any file read back is (no link, no FIFO), whatever its size: it is compared.
            if let (fd, stat) = (try? UntrustedFile.opened(previous, cap: .max)) ?? nil {
                self.previous = (previous, fd, stat.size)
            } else {
                unlink(previous)
            }
        }
    }

    deinit {
        if !spoiled { file.abandon() }
        dropPrevious()
    }

    /// The set-aside index is not the new one: removed.
    private func dropPrevious() {
        guard let (path, fd, _) = previous else { return }
        close(fd)
        unlink(path)
        previous = nil
    }

    /// Input number `inputs`' row (rows come in input order), its manifest entry's text `entry`
    /// put at `entryStart` of the manifest.
    func add(_ icon: Manifest.Icon, undersized isUndersized: Bool, entryStart: Int, entry: [UInt8]) {
        guard !spoiled else { return }
        guard inputs < keys.count, let stat = icon.inputStat else { return spoil() }
        let owned = icon.ownedFiles
        RunIndex.InputRecord(
            stat: stat, files: owned.count, undersized: isUndersized, entryStart: entryStart, entryLength: entry.count,
            entryHash: ContentHash(of: entry), key: keys.key(inputs), unit: keys.unit(inputs)
        ).write(into: &buffer)
        for file in owned {
            let length = file.path.utf8.count
            guard let stat = file.stat, case .content(let hash) = file.recordedHash, length <= RunIndex.longestPath
            else { return spoil() }
            RunIndex.put(UInt32(length), into: &buffer)
            buffer += file.path.utf8
            RunIndex.put(stat, into: &buffer)
            RunIndex.put(hash, into: &buffer)
        }
        added(files: owned.count, undersized: isUndersized)
    }

    /// Input number `inputs`' record as the previous index held it (`IndexedEntries`: its row
    /// carried as its bytes; its key and unit this input's, as they matched), its entry now at
    /// `entryStart`.
    func add(carried row: IndexedEntries.CarriedRow, entryStart: Int) {
        guard !spoiled else { return }
        let from = buffer.count
        buffer += row.indexRecord
        var start: [UInt8] = []
        RunIndex.put(entryStart, into: &start)
        let at = from + RunIndex.InputRecord.entryStartAt
        buffer.replaceSubrange(at..<(at + start.count), with: start)
        added(files: row.files, undersized: row.undersized)
    }

    private func added(files count: Int, undersized isUndersized: Bool) {
        inputs += 1
        files += count
        if isUndersized { undersized += 1 }
        if buffer.count >= RunIndex.block { flush() }
    }

    /// No index for this run (an input failed, a warning): the temporary is removed.
    func spoil() {
        dropPrevious()
        guard !spoiled else { return }
        spoiled = true
        buffer = []
        file.abandon()
    }

    private func flush() {
        checksum.add(buffer)
        if let (_, fd, size) = previous {
            let there = written + buffer.count <= size ? UntrustedFile.bytes(of: fd, size: buffer.count) : nil
            if there != buffer { dropPrevious() }
        }
        written += buffer.count
        if !file.put(buffer) { spoil() }
        buffer.removeAll(keepingCapacity: true)
    }

    /// The rest (the manifest's folders, the tail, the checksum) written and the index put in
    /// place, once the manifest at `manifestPath` is; false when it could not be (then no index
    /// is left: the next run reads the manifest).
    @discardableResult
    func finish(manifestPath: String, folders: [String]) -> Bool {
        guard !spoiled, inputs == keys.count, let manifest = RunIndex.linkStat(manifestPath) else {
            spoil()
            return false
        }
        let foldersAt = written + buffer.count
        RunIndex.put(folders.count, into: &buffer)
        for folder in folders {
            RunIndex.put(UInt32(folder.utf8.count), into: &buffer)
            buffer += folder.utf8
        }
        RunIndex.Tail(
            question: question, manifest: manifest, root: root, inputs: inputs, files: files, undersized: undersized,
            foldersAt: foldersAt
        ).write(into: &buffer)
        flush()
        guard !spoiled else { return false }
        buffer = []
        RunIndex.put(checksum.finish(), into: &buffer)
        flush()
        guard !spoiled else { return false }
        spoiled = true  // handed over: put back, committed, or removed by the commit's failure
        if let (previousPath, fd, size) = previous, size == written {
            file.abandon()
            close(fd)
            previous = nil
            if rename(previousPath, path) == 0 { return true }
            unlink(previousPath)
            return false
        }
        dropPrevious()
        do throws(TabIconsError) {
            try file.commit()
            return true
        } catch {
            return false
        }
    }
}
