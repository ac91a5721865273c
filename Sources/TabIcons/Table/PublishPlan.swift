import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import Foundation

/// How one publish of changed content finds the shared content for each of its icons.
///
/// The table's lock is taken only to read and to commit; everything that reads bytes (hashing,
/// comparing) runs between, on values that cannot change under it: the published `Data`, and
/// contents, which are immutable. What *can* change meanwhile is the table — another publish may
/// commit to the same slot, insert the same bytes, or evict a content this plan wants to share —
/// so a plan is validated under the lock before it is committed, and redone when it is stale
/// (keeping the hashes it already computed). Every redo means some other operation committed, so
/// the table as a whole always makes progress.
struct PublishPlan {
    /// Where one icon position's content comes from.
    enum Resolution {
        /// The item has no icon in this position.
        case absent
        /// The content the slot's current entry holds at this position (compared equal): live as
        /// long as that entry is, which the commit checks through the entry's revision.
        case kept(IconContent)
        /// A cached content with the same hash, confirmed byte for byte. It may be evicted before
        /// the commit, which then checks it is still held.
        case found(IconContent)
        /// Bytes the cache does not hold: a new content, inserted by the commit provided the
        /// cache still holds nothing under its hash but the contents `compared` (found different).
        case new(IconContent, compared: [ObjectIdentifier])

        var content: IconContent? {
            switch self {
            case .absent: nil
            case .kept(let content), .found(let content), .new(let content, _): content
            }
        }
    }

    let items: [ItemIcons]
    private(set) var resolutions: [Resolution]
    /// Per position, once computed: survives a redo.
    private var hashes: [ContentHash?]
    /// Per position, the new content made for it: survives a redo.
    private var created: [IconContent?]
    /// Positions that need the cache, in ascending order.
    private(set) var lookups: [Int] = []

    init(items: [ItemIcons]) {
        self.items = items
        let positions = items.count * 2
        resolutions = Array(repeating: .absent, count: positions)
        hashes = Array(repeating: nil, count: positions)
        created = Array(repeating: nil, count: positions)
    }

    func bytes(at position: Int) -> Data? {
        items[position / 2].bytes(selected: position % 2 == 1)
    }

    /// Step 1, outside the lock: keep what equals the slot's current entry at the same position
    /// (positions below `unchangedPrefix` are already known equal), hash the rest.
    mutating func match(current: EntryIcons?, unchangedPrefix: Int, hasher: ContentHasher) {
        lookups.removeAll(keepingCapacity: true)
        for position in resolutions.indices {
            guard let bytes = bytes(at: position) else {
                resolutions[position] = .absent
                continue
            }
            if let current, position < current.contents.count, let kept = current.contents[position],
                position < unchangedPrefix || ContentEquality.sameBytes(kept.bytes, bytes)
            {
                resolutions[position] = .kept(kept)
                continue
            }
            if hashes[position] == nil { hashes[position] = hasher.hash(bytes) }
            lookups.append(position)
        }
    }

    /// The hash of each position in `lookups`, for reading the cache's candidates under the lock.
    var lookupHashes: [ContentHash] { lookups.compactMap { hashes[$0] } }

    /// Step 2, outside the lock: `candidates[i]` are the contents the cache held under the hash
    /// of `lookups[i]`. A candidate is taken only if its bytes equal ours — the hash proposes,
    /// the bytes decide. Equal new bytes at two positions of this publish share one new content.
    mutating func resolve(candidates: [[IconContent]], decodeCounters: DecodeCounters) {
        for (index, position) in lookups.enumerated() {
            guard let bytes = bytes(at: position), let hash = hashes[position] else { continue }
            let bucket = candidates[index]
            if let hit = bucket.first(where: { ContentEquality.sameBytes($0.bytes, bytes) }) {
                resolutions[position] = .found(hit)
                continue
            }
            let content =
                newContent(before: index, hash: hash, bytes: bytes)
                ?? created[position] ?? IconContent(copying: bytes, hash: hash, decodeCounters: decodeCounters)
            created[position] = content
            resolutions[position] = .new(content, compared: bucket.map(ObjectIdentifier.init))
        }
    }

    /// The new content an earlier lookup of this publish made for the same bytes, if any.
    private func newContent(before index: Int, hash: ContentHash, bytes: Data) -> IconContent? {
        for other in lookups[..<index] {
            if case .new(let content, _) = resolutions[other], content.hash == hash,
                ContentEquality.sameBytes(content.bytes, bytes)
            {
                return content
            }
        }
        return nil
    }

    /// Step 3, under the lock: whether the cache still agrees with what step 2 saw. (The slot's
    /// own entry is checked by the caller, through its revision.)
    func isValid(in cache: IconCache) -> Bool {
        resolutions.allSatisfy { resolution in
            switch resolution {
            case .absent, .kept: true
            case .found(let content): cache.holds(content)
            case .new(let content, let compared): cache.holdsOnly(compared, under: content.hash)
            }
        }
    }

    /// Positions answered by a content another slot (or position) already brought to the cache.
    var foundCount: Int {
        resolutions.reduce(0) { count, resolution in
            if case .found = resolution { count + 1 } else { count }
        }
    }

    /// The entry this plan publishes.
    func entryIcons() -> EntryIcons {
        EntryIcons(items: items, contents: resolutions.map(\.content))
    }
}

/// The content hash the cache is keyed by: `ContentHash` (XXH3-128) unless a test substitutes a
/// weaker one to force collisions and prove that equal hashes never conflate different bytes.
struct ContentHasher: Sendable {
    let hash: @Sendable (Data) -> ContentHash

    static let xxh3 = ContentHasher { ContentHash(of: $0) }
}
