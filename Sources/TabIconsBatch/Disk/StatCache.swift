import TabIcons
import Foundation

/// What lets a rerun skip reading (SPEC §6a "Incremental"): each input's and written file's stat
/// and the hash of its bytes then, apart from the manifest as git's index keeps stat data apart
/// from what it commits. A file whose stat equals its record holds the recorded hash unread.
///
/// One disposable JSON file beside the manifest (`MANIFEST.stat-cache`): missing, unreadable, of
/// another version or forged, it is not used (everything is read and hashed). A record is trusted
/// only when both its times are older than the cache file (git's "racily clean" rule).
package struct StatCache: Sendable {
    /// One file's record: its stat and the hash of its bytes when the stat was taken.
    package struct Record: Sendable, Equatable, Codable {
        package var stat: FileStat
        package var hash: String

        package init(stat: FileStat, hash: String) {
            self.stat = stat
            self.hash = hash
        }

        // As one array, `[size, mtime, ctime, inode, device, hash]`: a third smaller than keyed
        // objects and quicker to decode, which is most of a large set's rerun (bench/README).
        package init(from decoder: any Decoder) throws {
            var f = try decoder.unkeyedContainer()
            stat = FileStat(
                size: try f.decode(Int.self), mtime: try f.decode(Int.self), ctime: try f.decode(Int.self),
                inode: try f.decode(UInt64.self), device: try f.decode(UInt64.self))
            hash = try f.decode(String.self)
        }

        package func encode(to encoder: any Encoder) throws {
            var f = encoder.unkeyedContainer()
            for value in [stat.size, stat.mtime, stat.ctime] { try f.encode(value) }
            for value in [stat.inode, stat.device] { try f.encode(value) }
            try f.encode(hash)
        }
    }

    private struct Document: Codable {
        var version: Int
        var inputs: [String: Record]
        var outputs: [String: Record]
    }

    private static let version = 4

    /// False under `--verify`: nothing is trusted.
    private let trusted: Bool
    /// The cache file's mtime (ns): records from the same tick or later are racy.
    private let bound: Int?
    /// By input name (the manifest's `input`), and by path below `--out`.
    private let inputs: [String: Record]
    private let outputs: [String: Record]
    /// The bytes read (nil when none were): a cache whose records all stand is left untouched.
    private let text: [UInt8]?

    /// A cache that trusts nothing: every file is read.
    static let none = StatCache(trusted: false, bound: nil, inputs: [:], outputs: [:], text: nil)

    /// A cache of these records, as if read from a file whose mtime is `bound` (tests).
    init(trusted: Bool, bound: Int?, inputs: [String: Record], outputs: [String: Record], text: [UInt8]? = nil) {
        self.trusted = trusted
        self.bound = bound
        self.inputs = inputs
        self.outputs = outputs
        self.text = text
    }

    /// Where the cache of the manifest at `manifestPath` lives.
    static func path(manifestPath: String) -> String { manifestPath + ".stat-cache" }

    /// The cache at `path`, read as the untrusted file it is; `trusted` false (`--verify`): none.
    init(readingFrom path: String, trusted: Bool) {
        guard trusted, let read = try? UntrustedFile.read(path),
            let document = try? JSONDecoder().decode(Document.self, from: Data(read.bytes)),
            document.version == Self.version,
            document.outputs.keys.allSatisfy(RelativePath.isPlain)
        else {
            self = .none
            return
        }
        self.init(
            trusted: true, bound: read.stat.mtime, inputs: document.inputs, outputs: document.outputs, text: read.bytes)
    }

    /// Whether `current` shows the output at `path` as it was when it held `hash`.
    func outputStands(_ path: String, hash: String, current: FileStat?) -> Bool {
        stands(outputs[path], hash: hash, current: current)
    }

    /// The recorded stat of input `name` (of the output at `path`) when its record stands for
    /// `hash` and the file's current stat is the one whose digest is `current` (what the output
    /// plan keeps); nil otherwise. `current` is asked only of a record that could stand.
    func standing(input name: String, hash: String, current: @autoclosure () -> StatDigest) -> FileStat? {
        standing(inputs[name], hash: hash, current: current)
    }

    func standing(output path: String, hash: String, current: @autoclosure () -> StatDigest) -> FileStat? {
        standing(outputs[path], hash: hash, current: current)
    }

    private func standing(_ record: Record?, hash: String, current: () -> StatDigest) -> FileStat? {
        guard let record, stands(record, hash: hash, current: record.stat), current().matches(record.stat) else { return nil }
        return record.stat
    }

    private func stands(_ record: Record?, hash: String, current: FileStat?) -> Bool {
        guard trusted, let record, record.hash == hash, record.stat == current else { return false }
        return isOlderThanTheFile(record)
    }

    /// Git's racy rule: a record is trusted only when both its times are before the cache file's.
    private func isOlderThanTheFile(_ record: Record) -> Bool {
        bound.map { record.stat.mtime < $0 && record.stat.ctime < $0 } ?? false
    }

    /// The text of the cache of a run's rows; nil when the file read already holds these records,
    /// all older than it (a racy one is written again, so it stands next time), or when there is
    /// nothing to keep. A cache that cannot be written is left out: the next run reads and hashes.
    func text(of icons: [Manifest.Icon]) -> [UInt8]? {
        var document = Document(version: Self.version, inputs: [:], outputs: [:])
        for icon in icons {
            if let stat = icon.inputStat { document.inputs[icon.input] = Record(stat: stat, hash: icon.contentHash) }
            for file in icon.ownedFiles {
                if let stat = file.stat { document.outputs[file.path] = Record(stat: stat, hash: file.hash) }
            }
        }
        let settled = [document.inputs.values, document.outputs.values].joined().allSatisfy(isOlderThanTheFile)
        if text != nil, settled, document.inputs == inputs, document.outputs == outputs { return nil }
        // No records and no cache there: nothing to keep (a run where every input failed).
        guard text != nil || !document.inputs.isEmpty || !document.outputs.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(document)).map(Array.init)
    }
}
