import Foundation
import TabIcons
import TabIconsBatch

/// SPEC §7's `rebuild-every-frame`: B bars of 5 items (icon and selected icon) republished every
/// frame, with the same buffers or with fresh copies of the same bytes, then churn.
///
/// Per configuration (bars × flavour × strategy), on a fresh strategy:
/// 1. **First frame**: every bar mounts and publishes, and the runtime fetches its icons. The
///    decodes it takes are `decodesFirstFrame` (IconTable: one per distinct content).
/// 2. **Warm-up**: a few untimed frames in the flavour.
/// 3. **Steady frames**: each frame prepares the bars' items outside the clock (for `fresh`, new
///    copies of every buffer, as an app rebuilding from scratch makes), then times publishing
///    every bar and, for a bar whose revision changed, fetching its icons. Up to `--frames`
///    frames or `--budget` seconds, whichever comes first (at least 10 frames).
/// 4. **Churn**: frames in which bars are torn down (retired) and new bars mounted with icons
///    drawn at random from the whole folder, every mounted bar publishing each frame. Then the
///    live entries and bytes are read and compared with what the mounted bars reference.
/// 5. **Teardown**: every bar retires; what is left is reported (a leak shows here).
struct RebuildEveryFrame {
    enum Flavour: String, CaseIterable {
        /// The same buffers every frame.
        case same
        /// New copies of the same bytes every frame.
        case fresh
    }

    let icons: IconSet
    let arguments: Arguments

    static let warmUpFrames = 10
    static let minimumFrames = 10
    static let frameNanoseconds120Hz = 1e9 / 120

    func run(progress: (String) -> Void) -> [Measurement] {
        var results: [Measurement] = []
        for bars in arguments.bars {
            for flavour in Flavour.allCases where arguments.flavours.contains(flavour.rawValue) {
                for kind in arguments.strategyKinds {
                    progress("\(kind.rawValue) \(flavour.rawValue) \(bars) bars")
                    results.append(measure(kind, flavour: flavour, bars: bars))
                }
            }
        }
        return results
    }

    private struct Bar {
        let slot: Int
        let items: [ItemIcons]
        var revision: UInt64 = 0
    }

    /// One frame: every bar publishes; a bar whose revision changed has its icons fetched.
    /// Answers the number of new revisions.
    @inline(__always)
    private func frame(_ bars: inout [Bar], items: [[ItemIcons]], strategy: RebuildStrategy) -> Int {
        var newRevisions = 0
        for index in bars.indices {
            let revision = strategy.publish(bar: bars[index].slot, items: items[index])
            if revision != bars[index].revision {
                bars[index].revision = revision
                newRevisions += 1
                strategy.realize(bar: bars[index].slot, items: items[index])
            }
        }
        return newRevisions
    }

    private static func freshCopies(of items: [ItemIcons]) -> [ItemIcons] {
        items.map { ItemIcons(icon: $0.icon.map(copy), selectedIcon: $0.selectedIcon.map(copy)) }
    }

    /// New storage with the same bytes (never a shared reference to the old storage).
    private static func copy(_ data: Data) -> Data {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return Data() }
            return Data(bytes: base, count: bytes.count)
        }
    }

    private func measure(_ kind: StrategyKind, flavour: Flavour, bars barCount: Int) -> Measurement {
        let processor = CountingProcessor(Normalizer())
        let strategy = kind.make(processor: processor)
        var bars = (0..<barCount).map { Bar(slot: $0, items: icons.bar) }
        let sameItems = bars.map(\.items)
        func itemsForFrame() -> [[ItemIcons]] {
            flavour == .same ? sameItems : bars.map { Self.freshCopies(of: $0.items) }
        }

        // 1–2. First frame, warm-up.
        _ = frame(&bars, items: sameItems, strategy: strategy)
        let decodesFirstFrame = processor.decodes
        for _ in 0..<Self.warmUpFrames {
            let items = itemsForFrame()
            _ = frame(&bars, items: items, strategy: strategy)
        }

        // 3. Steady frames.
        var samples: [UInt64] = []
        samples.reserveCapacity(arguments.frames)
        var newRevisions = 0
        let decodesBefore = processor.decodes
        let budget = UInt64(arguments.budget * 1e9)
        var spent: UInt64 = 0
        while samples.count < arguments.frames, spent < budget || samples.count < Self.minimumFrames {
            let items = itemsForFrame()
            // The items live until after the clock stops: freeing last frame's copies is the
            // app's cost, not the table's.
            let elapsed = withExtendedLifetime(items) {
                let start = Clock.now()
                newRevisions += frame(&bars, items: items, strategy: strategy)
                return Clock.now() - start
            }
            samples.append(elapsed)
            spent += elapsed
        }
        let frames = samples.count
        let decodesSteady = processor.decodes - decodesBefore

        // 4. Churn.
        var rng = SeededGenerator(seed: arguments.seed)
        var nextSlot = barCount
        let step = max(1, barCount / 8)
        for _ in 0..<arguments.churnFrames {
            var teardowns = Int.random(in: 0...step, using: &rng)
            var mounts = Int.random(in: 0...step, using: &rng)
            if bars.count - teardowns < max(1, barCount / 2) { teardowns = 0 }
            if bars.count + mounts > barCount * 2 { mounts = 0 }
            for _ in 0..<teardowns where !bars.isEmpty {
                let bar = bars.remove(at: Int.random(in: bars.indices, using: &rng))
                strategy.retire(bar: bar.slot)
            }
            for _ in 0..<mounts {
                bars.append(Bar(slot: nextSlot, items: randomItems(using: &rng)))
                nextSlot += 1
            }
            let items = flavour == .same ? bars.map(\.items) : itemsForFrame()
            _ = frame(&bars, items: items, strategy: strategy)
        }
        let referenced = Set(bars.flatMap { $0.items.flatMap { [$0.icon, $0.selectedIcon].compactMap { $0 } } })
        let liveEntriesAfterChurn = strategy.liveEntries
        let liveBytesAfterChurn = strategy.liveBytes

        // 5. Teardown.
        for bar in bars { strategy.retire(bar: bar.slot) }

        let sorted = samples.sorted()
        let median = Double(sorted[frames / 2])
        let p99 = Double(sorted[min(frames - 1, Int((Double(frames) * 0.99).rounded(.up)) - 1)])
        return Measurement(
            strategy: kind.rawValue, flavour: flavour.rawValue, bars: barCount, frames: frames,
            nsPerFrameMedian: median, nsPerFrameP99: p99,
            decodesPerFrame: Double(decodesSteady) / Double(frames),
            newRevisionsPerFrame: Double(newRevisions) / Double(frames),
            frameShare120Hz: median / Self.frameNanoseconds120Hz,
            liveEntriesAfterChurn: liveEntriesAfterChurn, mountedBarsAfterChurn: bars.count,
            liveBytesAfterChurn: liveBytesAfterChurn,
            referencedBytesAfterChurn: referenced.reduce(0) { $0 + $1.count },
            decodesFirstFrame: decodesFirstFrame,
            liveEntriesAfterTeardown: strategy.liveEntries, liveBytesAfterTeardown: strategy.liveBytes)
    }

    /// A churned bar: 1 to 5 items, icons drawn from every file of the folder, some items without
    /// a selected icon.
    private func randomItems(using rng: inout SeededGenerator) -> [ItemIcons] {
        (0..<Int.random(in: 1...5, using: &rng)).map { _ in
            let icon = icons.pool[Int.random(in: icons.pool.indices, using: &rng)]
            let selected = Bool.random(using: &rng) ? icons.pool[Int.random(in: icons.pool.indices, using: &rng)] : nil
            return ItemIcons(icon: icon, selectedIcon: selected)
        }
    }
}

/// The monotonic clock in nanoseconds.
enum Clock {
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
