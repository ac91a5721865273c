import TabIcons
import Foundation

/// Whether the run index (`RunIndex`) answers a run: "up to date" only when it asks the same
/// question, no journal is there, the manifest and `--out` are the ones recorded, and every input
/// and every output file still has its stat record, read a block at a time and checked on `jobs`
/// threads. A record not older than the index (racily clean) stands for an output only once its
/// bytes hash as recorded, and for an input never. Anything else, including an index that is not
/// whole, answers nil: the run then asks the manifest.
enum RunIndexCheck {
    /// What the index recorded of the run it answers for.
    struct Answer: Sendable, Equatable {
        var files: Int
        var undersized: Int
        var folders: [String]
    }

    static func answer(
        path: String, question: RunIndex.Question, manifestPath: String, journalPath: String, root: String,
        inputs: [BatchInput], jobs: Int
    ) -> Answer? {
        guard
            let index = Opened(
                path: path, question: question, inputs: inputs.count, manifestPath: manifestPath, journalPath: journalPath,
                root: root)
        else { return nil }
        guard let directory = try? OutputDirectory(root: root, create: false) else { return nil }
        let verifier = Verifier(
            inputs: inputs, directory: directory, cache: StatCache(trusted: true, recordedBefore: index.stat.mtime), jobs: jobs)
        guard
            let folders = index.read(
                { checks, last in
                    guard checks.count >= Verifier.batch || last else { return true }
                    defer { checks.removeAll(keepingCapacity: true) }
                    return verifier.verify(checks)
                })
        else { return nil }
        return Answer(files: index.tail.files, undersized: index.tail.undersized, folders: folders)
    }

    /// An index that may serve this run, open: the same question (with `inputs`, the whole
    /// question and that many inputs; nil, its options only: records are then matched to inputs
    /// by key), no journal, the manifest and `--out` as recorded; its body not yet read (`read`).
    final class Opened {
        let fd: Int32
        let stat: FileStat
        let tail: RunIndex.Tail

        init?(
            path: String, question: RunIndex.Question, inputs: Int?, manifestPath: String, journalPath: String, root: String
        ) {
            var info = Foundation.stat()
            guard lstat(journalPath, &info) != 0, errno == ENOENT else { return nil }
            guard let (fd, indexStat) = (try? UntrustedFile.opened(path)) ?? nil else { return nil }
            let size = indexStat.size, tailAt = size - RunIndex.checksumBytes - RunIndex.Tail.bytes
            guard tailAt >= RunIndex.magic.count,
                let tailBytes = UntrustedFile.bytes(of: fd, at: tailAt, count: RunIndex.Tail.bytes)
            else {
                close(fd)
                return nil
            }
            let tail = RunIndex.Tail(tailBytes[...])
            let sameQuestion =
                inputs.map { tail.question == question && tail.inputs == $0 } ?? (tail.question.options == question.options)
            guard sameQuestion, tail.files >= 0, tail.foldersAt >= RunIndex.magic.count, tail.foldersAt <= tailAt,
                tail.inputs >= 0, tail.inputs <= (tail.foldersAt - RunIndex.magic.count) / RunIndex.InputRecord.bytes,
                RunIndex.linkStat(manifestPath) == tail.manifest,
                RunIndex.folderIdentity(root) == tail.root
            else {
                close(fd)
                return nil
            }
            self.fd = fd
            self.stat = indexStat
            self.tail = tail
        }

        deinit { close(fd) }

        /// Reads the body a block at a time, handing `take` the records parsed so far after each
        /// block (and whether they are the last; it removes those it is done with), then the
        /// folders; answers the folders when the index is whole (every record, nothing over, the
        /// checksum right) and `take` took every record, else nil.
        func read(_ take: (_ checks: inout [Check], _ last: Bool) -> Bool) -> [String]? {
            let end = stat.size - RunIndex.checksumBytes, tailAt = end - RunIndex.Tail.bytes
            var body = Body(inputs: tail.inputs, files: tail.files)
            var folders: FolderList?  // once the body is read and its every record taken
            var checksum = RunIndex.ChainedHash()
            var offset = 0
            while offset < end {
                guard let block = UntrustedFile.bytes(of: fd, at: offset, count: min(RunIndex.block, end - offset)) else {
                    return nil
                }
                checksum.add(block)
                if offset == 0 { guard block.starts(with: RunIndex.magic) else { return nil } }
                // This block's parts: the body (after the magic, before the folders), then the folders.
                let bodyFrom = max(0, RunIndex.magic.count - offset)
                let bodyTo = max(bodyFrom, min(block.count, tail.foldersAt - offset))
                let foldersTo = max(bodyTo, min(block.count, tailAt - offset))
                if bodyTo > bodyFrom {
                    guard body.take(block[bodyFrom..<bodyTo]) else { return nil }
                    guard take(&body.checks, offset + bodyTo == tail.foldersAt) else { return nil }
                }
                if foldersTo > bodyTo {
                    if folders == nil {
                        guard body.isComplete else { return nil }
                        folders = FolderList(most: body.folderBound)
                    }
                    guard folders!.take(block[bodyTo..<foldersTo]) else { return nil }
                }
                offset += block.count
            }
            guard body.isComplete, let folders, folders.isComplete,
                let sum = UntrustedFile.bytes(of: fd, at: end, count: RunIndex.checksumBytes)
            else { return nil }
            var at = 0
            guard RunIndex.readHash(sum[...], &at) == checksum.finish() else { return nil }
            return folders.folders
        }
    }

    /// The folders' part, parsed as its bytes come: a count, then each folder's length and bytes,
    /// every one plain, nothing after. No more than `most` (what the body's paths justify): a
    /// list it cannot be is not held.
    struct FolderList {
        let most: Int
        private var carry: [UInt8] = []
        private var left: Int?
        private(set) var folders: [String] = []

        init(most: Int) { self.most = most }

        var isComplete: Bool { left == 0 && carry.isEmpty }

        mutating func take(_ bytes: ArraySlice<UInt8>) -> Bool {
            carry += bytes
            var at = 0
            let all = carry[...]
            if left == nil {
                guard carry.count >= 8 else { return true }
                let count = RunIndex.readInt(all, &at)
                guard count >= 0, count <= most else { return false }
                left = count
            }
            while left! > 0, carry.count - at >= 4 {
                var peek = at
                let length = RunIndex.readUInt32(all, &peek)
                guard length <= RunIndex.longestPath else { return false }
                guard carry.count - peek >= length else { break }
                let folder = String(decoding: all[peek..<(peek + length)], as: UTF8.self)
                guard RelativePath.isPlain(folder) else { return false }
                folders.append(folder)
                at = peek + length
                left! -= 1
            }
            carry.removeFirst(at)
            return !(left == 0 && !carry.isEmpty)
        }
    }

    /// One record to check against the file system.
    enum Check {
        /// Record number `Int`'s (the input's number when the index asked the whole question),
        /// which starts `at` bytes into the index (its files follow).
        case input(Int, RunIndex.InputRecord, at: Int)
        case file(String, FileStat, ContentHash)
    }

    /// The body's records, parsed as its bytes come (a record may span two blocks).
    struct Body {
        private let inputCount: Int
        private let fileCount: Int
        private var carry: [UInt8] = []
        private var inputsSeen = 0
        private var filesSeen = 0
        private var filesLeft = 0
        /// Slashes in the files' paths: each output's folders are below `--out`, so the
        /// manifest's folders are about that many (a folder tabicon made that another tool's file
        /// keeps adds one; room is left for those).
        private var slashes = 0
        /// Where `carry` starts in the index.
        private var position: Int
        var checks: [Check] = []

        /// The most folders the index may list.
        var folderBound: Int { slashes + fileCount + 64 }

        /// The records of `inputs` inputs and `files` files, the first at `position` in the index
        /// (the body's start; one input's record read again starts at its own place).
        init(inputs: Int, files: Int, at position: Int = RunIndex.magic.count) {
            inputCount = inputs
            fileCount = files
            self.position = position
        }

        /// Every input and file recorded, no byte over.
        var isComplete: Bool { carry.isEmpty && inputsSeen == inputCount && filesLeft == 0 && filesSeen == fileCount }

        /// The records `bytes` completes; false when they cannot be the index's.
        mutating func take(_ bytes: ArraySlice<UInt8>) -> Bool {
            carry += bytes
            var at = 0
            let all = carry[...]
            while true {
                if filesLeft == 0 {
                    guard inputsSeen < inputCount else { break }
                    guard carry.count - at >= RunIndex.InputRecord.bytes else { break }
                    let recordAt = position + at
                    guard let record = RunIndex.InputRecord(all, &at) else { return false }
                    filesLeft = record.files
                    checks.append(.input(inputsSeen, record, at: recordAt))
                    inputsSeen += 1
                } else {
                    guard carry.count - at >= 4 else { break }
                    var peek = at
                    let length = RunIndex.readUInt32(all, &peek)
                    guard length <= RunIndex.longestPath, filesSeen < fileCount else { return false }
                    guard carry.count - peek >= length + RunIndex.statBytes + RunIndex.hashBytes else { break }
                    let path = String(decoding: all[peek..<(peek + length)], as: UTF8.self)
                    slashes += all[peek..<(peek + length)].count { $0 == UInt8(ascii: "/") }
                    at = peek + length
                    let stat = RunIndex.readStat(all, &at)
                    checks.append(.file(path, stat, RunIndex.readHash(all, &at)))
                    filesSeen += 1
                    filesLeft -= 1
                }
            }
            carry.removeFirst(at)
            position += at
            // Past the last input's files nothing may follow.
            return !(inputsSeen == inputCount && filesLeft == 0 && !carry.isEmpty)
        }
    }

    /// Checks records on `jobs` threads: each input's stat (links followed, as it is read), each
    /// file's as the run asks the stat cache (`OutputDirectory.statFromRoot`).
    struct Verifier {
        static let batch = 4096
        let inputs: [BatchInput]
        let directory: OutputDirectory
        let cache: StatCache
        let jobs: Int

        func verify(_ checks: [Check]) -> Bool {
            let slices = max(1, min(jobs, checks.count / 256))
            let failed = LockedState(false)
            DispatchQueue.concurrentPerform(iterations: slices) { slice in
                for position in stride(from: slice, to: checks.count, by: slices) where !holds(checks[position]) {
                    failed.withLock { $0 = true }
                    return
                }
            }
            return !failed.withLock { $0 }
        }

        private func holds(_ check: Check) -> Bool {
            switch check {
            case .input(let index, let record, _):
                let input = inputs[index], recorded = record.stat
                if let walked = input.walked {
                    return cache.isUnchanged(recorded: recorded, current: walked.file.withPath { FileStat(path: $0) })
                }
                guard let file = input.file else { return false }
                return cache.isUnchanged(recorded: recorded, current: FileStat(path: file.path))
            case .file(let path, let recorded, let hash):
                guard RelativePath.isPlain(path), let current = directory.statFromRoot(path) else { return false }
                if cache.isUnchanged(recorded: recorded, current: current) { return true }
                // Racily clean: the same stat, in the index's tick or later; its bytes decide, read
                // as the run reads a recorded file (no link on the way), the stat still the same.
                guard current == recorded, recorded.size <= UntrustedFile.cap else { return false }
                let file = Manifest.FileEntry(path: path, bytes: recorded.size, hash: .content(hash), stat: recorded)
                return directory.check(file, cache: .none) == recorded
            }
        }
    }
}
