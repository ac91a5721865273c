import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import Foundation
import Synchronization

/// One distinct icon content in a table's shared cache: its bytes, their hash, and the decoded,
/// normalized result once somebody asked for it.
///
/// Every slot and every item position showing these bytes points at the same `IconContent`, so
/// the bytes are held once and decoded once (SPEC §5). The cache counts the references; when the
/// last one goes (its slots retire or move to other content) the content is *evicted*: the cache
/// forgets it and it drops its decoded pixels, even if a straggler still holds the object.
///
/// The content keeps its own copy of the bytes, made once when it enters the cache: an array's
/// bytes can be read without the dynamic exclusivity checks every access to a `Data`'s storage
/// pays, so comparing a fresh copy of an icon with its content opens one `Data`,
/// not two — the difference between beating a plain byte comparison and trailing it.
///
/// ## Decoding: lazily, once, outside the table's lock
///
/// Publishing never decodes — it must answer in nanoseconds, and a revision is about bytes, not
/// about whether they decode. The first `normalized(by:)` call decodes, holding this
/// content's *own* lock while the processor runs, so concurrent callers for the same content wait
/// for that one decode instead of repeating it (a once-cell). The table's lock is never held
/// here, and this lock is never taken under the table's lock, so the two cannot deadlock and a
/// slow decode never blocks publishing.
///
/// A failed decode is remembered like a success: the same bytes fail the same way every time, so
/// every later lookup answers the same error without retrying, until the content is evicted.
final class IconContent: Sendable {
    /// The content's bytes: a private copy, immutable.
    let bytes: [UInt8]
    let hash: ContentHash
    private let state: LockedState<DecodeState>
    private let decodeCounters: DecodeCounters

    private struct DecodeState {
        var result: Result<NormalizedIcon, TabIconsError>?
        /// Pixel bytes of `result` counted in the decodeCounters's live decoded bytes.
        var accountedBytes = 0
        var evicted = false
    }

    init(copying data: Data, hash: ContentHash, decodeCounters: DecodeCounters) {
        self.bytes = [UInt8](data)
        self.hash = hash
        self.decodeCounters = decodeCounters
        self.state = LockedState(DecodeState())
    }

    /// The normalized icon for these bytes, decoding on the first call only. After eviction the
    /// result is no longer kept (a caller that still holds this object gets a fresh decode, which
    /// is then dropped): an evicted content must not pin memory nobody accounts for.
    func normalized(by processor: any IconProcessor) -> Result<NormalizedIcon, TabIconsError> {
        state.withLock { state in
            if let result = state.result {
                decodeCounters.decodeHits.add(1, ordering: .relaxed)
                return result
            }
            let result = Result { () throws(TabIconsError) -> NormalizedIcon in
                try processor.process(Data(bytes))
            }
            decodeCounters.decodes.add(1, ordering: .relaxed)
            if !state.evicted {
                state.result = result
                if case .success(let icon) = result {
                    state.accountedBytes = icon.pixelBytes
                    decodeCounters.decodedBytes.add(icon.pixelBytes, ordering: .relaxed)
                }
            }
            return result
        }
    }

    /// Whether a decode result is being kept.
    var isDecoded: Bool { state.withLock { $0.result != nil } }

    /// Called once, after the cache dropped its last reference (outside the table's lock). The
    /// decoded pixels are released here, after this content's lock is let go.
    func evict() {
        let dropped = state.withLock { state -> Result<NormalizedIcon, TabIconsError>? in
            state.evicted = true
            decodeCounters.decodedBytes.subtract(state.accountedBytes, ordering: .relaxed)
            state.accountedBytes = 0
            let kept = state.result
            state.result = nil
            return kept
        }
        withExtendedLifetime(dropped) {}
    }
}

/// Counters a table's contents update without the table's lock: decodes happen outside it.
final class DecodeCounters: Sendable {
    /// Processor calls (successful or not).
    let decodes = Atomic<Int>(0)
    /// Lookups answered from a kept decode result.
    let decodeHits = Atomic<Int>(0)
    /// Pixel bytes of the decode results live contents keep.
    let decodedBytes = Atomic<Int>(0)

    init() {}
}
