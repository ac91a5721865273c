import TabIcons
import Foundation

/// Work over `0..<count` split into blocks of `block`, done on `jobs` threads (block `b` by
/// thread `b % jobs`), its results put together in order: what the output plan's thousands of
/// `stat` calls take, so a large set's plan does not wait on one core for the file system.
enum ParallelBlocks {
    /// `body`'s results for each block of `0..<count`, in order.
    static func map<Element: Sendable>(
        count: Int, jobs: Int, block: Int = 256, _ body: @Sendable (Range<Int>) -> [Element]
    ) -> [Element] {
        let blocks = (count + block - 1) / block
        let threads = max(1, min(jobs, blocks))
        guard threads > 1 else { return body(0..<count) }
        let results = LockedState([[Element]](repeating: [], count: blocks))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in stride(from: thread, to: blocks, by: threads) {
                let done = body((index * block)..<min(count, (index + 1) * block))
                results.withLock { $0[index] = done }
            }
        }
        // Joined a block at a time, each let go once copied: the whole is held once.
        return results.withLock { blocks in
            var joined: [Element] = []
            joined.reserveCapacity(blocks.reduce(0) { $0 + $1.count })
            for index in blocks.indices {
                joined += blocks[index]
                blocks[index] = []
            }
            return joined
        }
    }
}
