import TabIcons
import Foundation

/// A counting budget of bytes shared by a batch's workers: a worker takes its input's estimated
/// decode memory before decoding and gives it back after. While the budget is taken, other
/// workers wait; a worker that finds nothing taken always goes ahead, however large its input, so
/// one image larger than the budget runs alone instead of never. `--jobs` bounds how many inputs
/// are in flight, not how much memory they hold: with the budget, a batch's peak is its largest
/// image or the budget, whichever is larger.
final class MemoryBudget: @unchecked Sendable {  // state guarded by `condition`
    let capacity: Int
    private var taken = 0
    private let condition = NSCondition()

    init(capacity: Int) {
        self.capacity = max(capacity, 0)
    }

    func acquire(_ bytes: Int) {
        condition.lock()
        while taken > 0 && taken + bytes > capacity { condition.wait() }
        taken += bytes
        condition.unlock()
    }

    /// Grows a holding from `held` to `bytes` if that fits now (or nobody else holds anything);
    /// never waits. False leaves the holding as it was.
    func tryGrow(from held: Int, to bytes: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let others = taken - held
        guard others == 0 || others + bytes <= capacity else { return false }
        taken += bytes - held
        return true
    }

    func release(_ bytes: Int) {
        condition.lock()
        taken -= bytes
        condition.broadcast()
        condition.unlock()
    }
}
