import TabIcons
import Foundation

/// Where a run's manifest text goes as it is made (`ManifestWriter.Stream`): compared a piece at
/// a time with the manifest file there, and written only from the first byte that differs (to a
/// temporary, the equal bytes before it copied from the file), renamed into place at the end. So a
/// run that changed nothing writes nothing and changes no mtime (SPEC §6a), and no run holds the
/// text or the rows it came from.
///
/// The file there is read as untrusted (`UntrustedFile.opened`'s checks: a link, a special
/// file or one over the cap is as good as absent). Its bytes are hashed as they are compared, and
/// the prefix copied from it must hash the same: a file changed under the run fails the write
/// rather than leave a manifest of two texts. Used under the batch's results lock only.
final class ManifestOutput: @unchecked Sendable {
    enum Comparison: Equatable { case absent, equal, different }

    private let path: String
    private let limit: Int
    /// The file there, open until the text first differs from it.
    private var existing: (fd: Int32, size: Int)?
    private var matched = 0
    /// The equal pieces' hashes (`ContentHash`), each piece's length with it: the copy reads the
    /// same pieces again and must hash the same.
    private var matchedPieces: [(count: Int, hash: ContentHash)] = []
    private var pending: AtomicFileWriter.Pending?
    private var failure: TabIconsError?
    private var written = 0
    /// Whether a manifest was there to compare with.
    private let existed: Bool

    init(path: String, limit: Int) {
        self.path = path
        self.limit = limit
        if let (fd, stat) = (try? UntrustedFile.opened(path)) ?? nil { existing = (fd, stat.size) }
        existed = existing != nil
    }

    deinit {
        if let existing { close(existing.fd) }
        pending?.abandon()
    }

    /// The next piece of the text; false once it can take no more (over the limit, a failed write).
    @discardableResult
    func put(_ bytes: [UInt8]) -> Bool {
        guard failure == nil else { return false }
        guard !bytes.isEmpty else { return true }
        written += bytes.count
        guard written <= limit else {
            failure = TabIconsError(.tooLarge, "\(path) would hold more than \(limit) bytes", input: path)
            pending?.abandon()
            pending = nil
            return false
        }
        if pending == nil, let (fd, size) = existing, matched + bytes.count <= size,
            let there = UntrustedFile.bytes(of: fd, size: bytes.count), there.count == bytes.count,
            there.withUnsafeBytes({ a in bytes.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } })
        {
            matched += bytes.count
            matchedPieces.append((bytes.count, ContentHash(of: bytes)))
            return true
        }
        guard startWriting() else { return false }
        return pending!.put(bytes)
    }

    /// The temporary, begun with the equal bytes read so far; false (with `failure`) when it cannot be.
    private func startWriting() -> Bool {
        if pending != nil { return true }
        do throws(TabIconsError) {
            let file = try AtomicFileWriter.Pending(path: path)
            pending = file
            guard let (fd, _) = existing else { return true }
            var offset = 0
            for (count, hash) in matchedPieces {
                guard let piece = UntrustedFile.bytes(of: fd, at: offset, count: count) else {
                    throw TabIconsError(.io, "cannot read \(path) again", input: path)
                }
                guard ContentHash(of: piece) == hash else {
                    throw TabIconsError(.io, "\(path) changed while the run read it; run again", input: path)
                }
                file.put(piece)
                offset += count
            }
            matchedPieces = []
            close(fd)
            existing = nil
            return true
        } catch {
            failure = error
            pending?.abandon()
            pending = nil
            return false
        }
    }

    /// Ends the text: nothing written when it equals the file there (`equal`), else the new file
    /// renamed into place. Throws what kept it from being written (the file there then stays).
    func finish() throws(TabIconsError) -> Comparison {
        if let failure { throw failure }
        if pending == nil, let existing, matched == existing.size { return .equal }
        guard startWriting(), let pending else { throw failure! }
        self.pending = nil
        try pending.commit()
        return existed ? .different : .absent
    }

    /// Drops the text: the temporary (if any) is removed, the file there left as it was.
    func abandon() {
        pending?.abandon()
        pending = nil
    }
}
