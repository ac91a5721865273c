import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import Synchronization

/// The one place revisions are issued (SPEC §5): they start at 1, only ever grow, and are never
/// handed out twice, so content A, then B, then A again gets three different revisions and a UI
/// differ that sees a revision it has not seen knows the icons changed.
///
/// Every `IconTable` draws from `process` unless a test gives it a counter of its own, so
/// revisions are unique across all tables of a process, not only within one slot: a revision can
/// never be mistaken for another table's. 0 is never issued; it means "no byte icons".
final class RevisionCounter: Sendable {
    /// The process-wide sequence.
    static let process = RevisionCounter()

    private let last = Atomic<UInt64>(0)

    init() {}

    /// The next revision. Wrapping would take 2^64 publishes of changed content, so it is not
    /// guarded against.
    func next() -> UInt64 {
        last.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
