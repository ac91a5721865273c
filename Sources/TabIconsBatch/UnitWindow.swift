import Foundation
import Synchronization
import TabIcons

/// Hands out the plan's units in input order (each by the input that heads it: an icon, not a
/// twin; none the run carries from its index, which `RunRecord` copies in order), never more
/// than `width` inputs past the first unit not yet finished. A unit's rows
/// wait in `RunRecord` until every row before them is recorded, so without this a slow unit
/// early in the set (a large photo) would leave every row after it waiting: the window keeps
/// what waits to about `width` inputs, not the set (SPEC §6a "Incremental"). A worker finds the
/// window full before it takes a unit; it then sends what it has gathered (so the unit everyone
/// waits for is never one it holds) and waits for room.
final class UnitWindow: Sendable {
    /// Inputs a worker may run ahead of the first unfinished unit: a thousand small icons while
    /// one large photo is decoded, so the other cores stay busy.
    static let width = 1024

    private let count: Int
    private let width: Int
    /// The inputs no worker takes: twins (in their icon's unit) and those the run carries as the
    /// index recorded them (`RunRecord` records them in order).
    private let skipped: [Bool]
    private let next = Atomic<Int>(0)
    /// The first input that heads a unit not yet finished (published from `finished`'s lock).
    private let first = Atomic<Int>(0)
    private let finished: LockedState<(flags: [Bool], first: Int)>

    /// `count` inputs, of which those `skipped` answers true for are handed to no worker.
    init(count: Int, skipped: [Bool] = [], width: Int = UnitWindow.width) {
        self.count = count
        self.width = max(1, width)
        var flags = Array(repeating: false, count: count)
        for (input, skip) in skipped.prefix(count).enumerated() where skip { flags[input] = true }
        self.skipped = flags
        var first = 0
        while first < count, flags[first] { first += 1 }
        finished = LockedState((flags, first))
        self.first.store(first, ordering: .relaxed)
    }

    /// The input that heads the next unit, nil when every unit has been handed out.
    func take() -> Int? {
        while true {
            let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard position < count else { return nil }
            if !skipped[position] { return position }
        }
    }

    /// Whether the next unit lies past the window.
    var isFull: Bool {
        let upcoming = next.load(ordering: .relaxed)
        return upcoming < count && upcoming >= first.load(ordering: .acquiring) + width
    }

    /// Returns once the window has room or `stop` answers true.
    func waitForRoom(unless stop: () -> Bool) {
        while isFull, !stop() { usleep(200) }
    }

    /// The unit input `position` heads is finished (its outcomes recorded).
    func finish(_ position: Int) {
        finished.withLock { state in
            state.flags[position] = true
            while state.first < state.flags.count, state.flags[state.first] { state.first += 1 }
            first.store(state.first, ordering: .releasing)
        }
    }
}
