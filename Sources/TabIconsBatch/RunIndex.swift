import TabIcons
import Foundation

/// What a finished run knew, kept beside the manifest (`MANIFEST.index`) so that the next run with
/// the same question can answer "nothing to do" from stats alone, as git's index answers
/// `git status` (SPEC §6a "Incremental"): no manifest text read, no plan made, nothing compared.
///
/// The question is a digest (`question(of:inputs:)`): the options, the layout, the paths as given
/// and every input in order. The answer is every input's stat record and every output file's (path, stat
/// record, hash), the manifest's own stat, the counts a summary prints and the manifest's folders.
/// A run that asks the same question, finds no journal, the manifest as recorded and every file's
/// stat equal to its record (and older than the index, git's racily-clean rule; an output in the
/// same tick is hashed instead) is up to date (`RunIndexCheck`); any other finding falls back to
/// the manifest, which stays the only record of what tabicon owns.
///
/// Written by a run that keeps one (`BatchNormalizer.answersFromIndex`) and finishes with no
/// error and no warning (`RunIndexWriter`); set aside by every run that writes before its first
/// write (`setAside`), and put back only by a writer whose bytes equal it, so a run that is
/// stopped or killed leaves none. Read as untrusted: capped, never through a link, checked whole
/// (a checksum of its blocks, counts and lengths in bounds). A forged index can say only what a
/// forged manifest can: that there is nothing to do; it makes no run write or remove a file.
///
/// It also places each input's manifest entry under the input's key (`InputRecord`): a run in
/// which some inputs changed, or were added or removed, copies the entries of the others as their
/// bytes (`IndexedEntries`) rather than reading the manifest; that needs only the question's
/// options (`Question.options`) to match.
///
/// Layout, little-endian: `magic`; per input in order its `InputRecord`, then per file its path
/// (length, bytes), stat record and hash; the folders (count, then each as length and bytes); the
/// fixed tail (`Tail`); the checksum of every byte before it.
enum RunIndex {
    /// The file beside the manifest.
    static func path(manifestPath: String) -> String { manifestPath + ".index" }

    /// The first bytes, the format's version in them.
    static let magic = Array("tabicon index 3\n".utf8)
    /// The checksum's block, and how much a reader takes at a time.
    static let block = 1 << 16
    /// The longest path a record may hold.
    static let longestPath = 4096
    static let statBytes = 40
    static let hashBytes = 16
    static let checksumBytes = hashBytes

    /// The fixed part of an input's record: its stat record, how many files follow, whether its
    /// row is undersized, where its manifest entry's text is (its first byte, its length) and
    /// that text's hash, and the input's key and its unit's (`InputKeys`).
    struct InputRecord: Hashable {
        var stat: FileStat
        var files: Int
        var undersized: Bool
        var entryStart: Int
        var entryLength: Int
        var entryHash: ContentHash
        var key: ContentHash
        var unit: ContentHash

        static let bytes = statBytes + 4 + 1 + 8 + 8 + 3 * hashBytes
        /// Where `entryStart` is in the record: a copied record gets its entry's new place there.
        static let entryStartAt = statBytes + 4 + 1

        func write(into out: inout [UInt8]) {
            RunIndex.put(stat, into: &out)
            RunIndex.put(UInt32(files), into: &out)
            out.append(undersized ? 1 : 0)
            RunIndex.put(entryStart, into: &out)
            RunIndex.put(entryLength, into: &out)
            RunIndex.put(entryHash, into: &out)
            RunIndex.put(key, into: &out)
            RunIndex.put(unit, into: &out)
        }

        init(
            stat: FileStat, files: Int, undersized: Bool, entryStart: Int, entryLength: Int, entryHash: ContentHash,
            key: ContentHash, unit: ContentHash
        ) {
            self.stat = stat
            self.files = files
            self.undersized = undersized
            self.entryStart = entryStart
            self.entryLength = entryLength
            self.entryHash = entryHash
            self.key = key
            self.unit = unit
        }

        /// Nil when its flags are not 0 or 1.
        init?(_ bytes: ArraySlice<UInt8>, _ at: inout Int) {
            stat = RunIndex.readStat(bytes, &at)
            files = RunIndex.readUInt32(bytes, &at)
            guard bytes[at] <= 1 else { return nil }
            undersized = bytes[at] == 1
            at += 1
            entryStart = RunIndex.readInt(bytes, &at)
            entryLength = RunIndex.readInt(bytes, &at)
            entryHash = RunIndex.readHash(bytes, &at)
            key = RunIndex.readHash(bytes, &at)
            unit = RunIndex.readHash(bytes, &at)
        }
    }

    /// The bytes of one file's record: its path's length and bytes, its stat record and hash.
    static func fileRecordBytes(pathLength: Int) -> Int { 4 + pathLength + statBytes + hashBytes }

    /// The fixed part after the folders.
    struct Tail: Equatable {
        var question: Question
        var manifest: FileStat
        /// `--out`'s identity (not its times: renaming the index into place moves them).
        var root: FileIdentity
        var inputs: Int
        var files: Int
        var undersized: Int
        /// Where the folders begin (the body's end).
        var foldersAt: Int

        static let bytes = 2 * hashBytes + statBytes + 6 * 8

        func write(into out: inout [UInt8]) {
            RunIndex.put(question.asked, into: &out)
            RunIndex.put(question.options, into: &out)
            RunIndex.put(manifest, into: &out)
            for value in [
                Int(bitPattern: UInt(root.device)), Int(bitPattern: UInt(root.inode)), inputs, files, undersized, foldersAt
            ] { RunIndex.put(value, into: &out) }
        }

        init(
            question: Question, manifest: FileStat, root: FileIdentity, inputs: Int, files: Int, undersized: Int,
            foldersAt: Int
        ) {
            self.question = question
            self.manifest = manifest
            self.root = root
            self.inputs = inputs
            self.files = files
            self.undersized = undersized
            self.foldersAt = foldersAt
        }

        init(_ bytes: ArraySlice<UInt8>) {
            var at = bytes.startIndex
            let asked = RunIndex.readHash(bytes, &at)
            question = Question(asked: asked, options: RunIndex.readHash(bytes, &at))
            manifest = RunIndex.readStat(bytes, &at)
            let device = RunIndex.readWord(bytes, &at)
            root = FileIdentity(device: device, inode: RunIndex.readWord(bytes, &at))
            inputs = RunIndex.readInt(bytes, &at)
            files = RunIndex.readInt(bytes, &at)
            undersized = RunIndex.readInt(bytes, &at)
            foldersAt = RunIndex.readInt(bytes, &at)
        }
    }

    // MARK: Fields

    static func put(_ value: Int, into out: inout [UInt8]) {
        withUnsafeBytes(of: UInt64(bitPattern: Int64(value)).littleEndian) { out += $0 }
    }

    static func put(_ value: UInt32, into out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    static func put(_ stat: FileStat, into out: inout [UInt8]) {
        for value in [stat.size, stat.mtime, stat.ctime, Int(bitPattern: UInt(stat.inode)), Int(bitPattern: UInt(stat.device))] {
            put(value, into: &out)
        }
    }

    static func put(_ hash: ContentHash, into out: inout [UInt8]) {
        withUnsafeBytes(of: hash.high.littleEndian) { out += $0 }
        withUnsafeBytes(of: hash.low.littleEndian) { out += $0 }
    }

    /// The 8 bytes at `at` (which the caller made sure are there), `at` moved past them.
    static func readWord(_ bytes: ArraySlice<UInt8>, _ at: inout Int) -> UInt64 {
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[at + shift]) << (8 * shift) }
        at += 8
        return value
    }

    static func readInt(_ bytes: ArraySlice<UInt8>, _ at: inout Int) -> Int { Int(Int64(bitPattern: readWord(bytes, &at))) }

    static func readUInt32(_ bytes: ArraySlice<UInt8>, _ at: inout Int) -> Int {
        var value = 0
        for shift in 0..<4 { value |= Int(bytes[at + shift]) << (8 * shift) }
        at += 4
        return value
    }

    static func readStat(_ bytes: ArraySlice<UInt8>, _ at: inout Int) -> FileStat {
        let size = readInt(bytes, &at), mtime = readInt(bytes, &at), ctime = readInt(bytes, &at)
        return FileStat(size: size, mtime: mtime, ctime: ctime, inode: readWord(bytes, &at), device: readWord(bytes, &at))
    }

    static func readHash(_ bytes: ArraySlice<UInt8>, _ at: inout Int) -> ContentHash {
        let high = readWord(bytes, &at)
        return ContentHash(high: high, low: readWord(bytes, &at))
    }

    /// XXH3-128 of a long run of bytes in `block`-sized pieces, each piece hashed after the hash
    /// of those before it: the index's checksum (a writer and a reader that cut the bytes at
    /// other places agree) and the question's digest, without holding either whole.
    struct ChainedHash {
        private var state = ContentHash(high: 0, low: 0)
        private var pending: [UInt8] = []

        mutating func add(_ bytes: some Collection<UInt8>) {
            pending += bytes
            while pending.count >= RunIndex.block {
                fold(pending[..<RunIndex.block])
                pending.removeFirst(RunIndex.block)
            }
        }

        private mutating func fold(_ piece: ArraySlice<UInt8>) {
            var chained: [UInt8] = []
            chained.reserveCapacity(RunIndex.hashBytes + piece.count)
            RunIndex.put(state, into: &chained)
            chained += piece
            state = ContentHash(of: chained)
        }

        /// The hash of every byte added.
        func finish() -> ContentHash {
            var last = self
            last.fold(pending[...])
            return last.state
        }
    }

    /// Moves the index at `path` (if any) to a temporary name beside it before a run's first
    /// write, so that a run stopped or killed from then on leaves none (its temporaries are the
    /// next run's to remove); the run's writer compares the new index with it and may put it
    /// back (`RunIndexWriter`). Nil when there was none (or it cannot be moved).
    static func setAside(_ path: String) -> String? {
        let temporary = TemporaryName.path(beside: path)
        return rename(path, temporary) == 0 ? temporary : nil
    }

    /// What `lstat` says of the regular file at `path`, nil for anything else.
    static func linkStat(_ path: String) -> FileStat? {
        var info = Foundation.stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStat(info)
    }

    /// The folder at `path` as the system knows it (links followed, as a run opens `--out`), nil
    /// when none is there.
    static func folderIdentity(_ path: String) -> FileIdentity? {
        var info = Foundation.stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return FileIdentity(info)
    }
}
