import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
/// A snapshot of an `IconTable`'s size and work, for tests, the benchmark and diagnostics.
///
/// Sizes are exact at the moment of the snapshot; the decode counters are updated outside the
/// table's lock and may trail a decode that is finishing on another thread.
public struct IconTableStatistics: Sendable, Equatable {
    /// Live entries (slots holding byte icons): `IconTable.count`.
    public var entries: Int
    /// Distinct contents in the shared cache.
    public var liveContents: Int
    /// Encoded bytes of those contents, each distinct content counted once: the bytes the mounted
    /// bars reference.
    public var liveBytes: Int
    /// Pixel bytes of the decoded, normalized icons the cache keeps.
    public var decodedBytes: Int
    /// Processor runs so far (decode and normalize; failures included).
    public var decodes: Int
    /// Icon lookups answered from a kept decode, without running the processor.
    public var decodeHits: Int
    /// Published icons, new to their slot and position, found in the cache (hash hit confirmed
    /// byte for byte) instead of becoming a new content.
    public var cacheHits: Int
    /// Contents inserted into the cache so far.
    public var contentsInserted: Int
    /// Revisions this table has issued.
    public var revisionsIssued: Int

    init(
        entries: Int, liveContents: Int, liveBytes: Int, decodedBytes: Int, decodes: Int,
        decodeHits: Int, cacheHits: Int, contentsInserted: Int, revisionsIssued: Int
    ) {
        self.entries = entries
        self.liveContents = liveContents
        self.liveBytes = liveBytes
        self.decodedBytes = decodedBytes
        self.decodes = decodes
        self.decodeHits = decodeHits
        self.cacheHits = cacheHits
        self.contentsInserted = contentsInserted
        self.revisionsIssued = revisionsIssued
    }
}
