import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
/// The content-addressed store behind an `IconTable`: every distinct icon content that a live
/// entry references, keyed by its XXH3-128 hash and counted by references.
///
/// A reference is one item position (icon or selected icon) of one slot's entry, so a slot that
/// shows the same bytes twice holds two. A content is inserted by the publish that first
/// references it and removed when its count drops to zero, which makes the cache exactly as big as
/// the mounted bars need: live bytes are the bytes those bars reference, each distinct content
/// counted once.
///
/// This is a plain value living inside the table's `Mutex`: every method runs under the lock, so
/// none of them hashes or compares bytes. A bucket holds more than one content only if two
/// different byte strings share a 128-bit hash; the table tells them apart by comparing bytes
/// outside the lock before it asks for anything here.
struct IconCache {
    private struct Holder {
        let content: IconContent
        var references: Int
    }

    private var buckets: [ContentHash: [Holder]] = [:]
    /// Distinct contents held.
    private(set) var liveContents = 0
    /// Sum of the encoded sizes of the contents held.
    private(set) var liveBytes = 0

    /// The contents held under `hash` (usually none or one): the candidates a publish compares its
    /// bytes with, outside the lock.
    func candidates(for hash: ContentHash) -> [IconContent] {
        buckets[hash]?.map(\.content) ?? []
    }

    /// Whether `content` is still held (not evicted since it was looked up).
    func holds(_ content: IconContent) -> Bool {
        buckets[content.hash]?.contains { $0.content === content } ?? false
    }

    /// Whether every content now held under `hash` is one of `compared` — those a publish has
    /// already found different from its bytes. If so, its bytes are new to the cache; if not,
    /// another publish inserted something meanwhile that has not been compared yet.
    func holdsOnly(_ compared: [ObjectIdentifier], under hash: ContentHash) -> Bool {
        guard let bucket = buckets[hash] else { return true }
        return bucket.allSatisfy { compared.contains(ObjectIdentifier($0.content)) }
    }

    /// One more reference to `content`, inserting it if it is not held yet. Callers insert only
    /// contents whose bytes they have checked are new to the cache (`holdsOnly`). Answers whether
    /// it was inserted.
    @discardableResult
    mutating func retain(_ content: IconContent) -> Bool {
        if let index = buckets[content.hash]?.firstIndex(where: { $0.content === content }) {
            buckets[content.hash]?[index].references += 1
            return false
        }
        buckets[content.hash, default: []].append(Holder(content: content, references: 1))
        liveContents += 1
        liveBytes += content.bytes.count
        return true
    }

    /// One reference fewer; answers the content if that was its last one. The caller evicts it
    /// after letting go of the lock (dropping decoded pixels is not work for under the lock).
    mutating func release(_ content: IconContent) -> IconContent? {
        let hash = content.hash
        guard let index = buckets[hash]?.firstIndex(where: { $0.content === content }) else { return nil }
        // Mutated in place through the dictionary, so the bucket array is not copied.
        buckets[hash]?[index].references -= 1
        guard buckets[hash]?[index].references == 0 else { return nil }
        buckets[hash]?.remove(at: index)
        if buckets[hash]?.isEmpty == true { buckets[hash] = nil }
        liveContents -= 1
        liveBytes -= content.bytes.count
        return content
    }

    /// References held to `content` (0 when not held); for tests.
    func references(to content: IconContent) -> Int {
        buckets[content.hash]?.first { $0.content === content }?.references ?? 0
    }
}
