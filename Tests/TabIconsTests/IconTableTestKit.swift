import Foundation
import Synchronization
@testable import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize

/// A processor that stands in for the normalizer in the table's tests: it counts its runs and
/// answers an icon that identifies the bytes it was given, so a test can tell which content a
/// lookup was answered from. Bytes starting with 0xEE fail, like a corrupt file would.
final class FakeProcessor: IconProcessor {
    private let runs = Atomic<Int>(0)
    /// Microseconds each run takes, to widen races in the concurrency tests.
    let delay: UInt32

    init(delay: UInt32 = 0) { self.delay = delay }

    var decodes: Int { runs.load(ordering: .relaxed) }

    func process(_ bytes: Data) throws(TabIconsError) -> NormalizedIcon {
        runs.add(1, ordering: .relaxed)
        if delay > 0 { usleep(delay) }
        if bytes.first == 0xEE { throw TabIconsError(.corrupt, "fake: bytes start with 0xEE") }
        return FakeProcessor.icon(for: bytes)
    }

    /// The icon this processor makes of `bytes`: a 1×N bitmap whose pixels are the bytes (padded
    /// with zeros to whole pixels), N = ceil(count / 4), at least 1.
    static func icon(for bytes: Data) -> NormalizedIcon {
        let width = max(1, (bytes.count + 3) / 4)
        var pixels = [UInt8](bytes)
        pixels.append(contentsOf: repeatElement(0, count: width * 4 - pixels.count))
        let bitmap = Bitmap(width: width, height: 1, pixels: pixels)
        let info = ImageInfo(
            format: .png, pixelWidth: width, pixelHeight: 1, hasAlpha: true,
            hasTransparentPixels: false, bitDepth: 8, colorModel: .rgba)
        return NormalizedIcon(
            source: info, decodeScale: 1, pointWidth: Double(width), pointHeight: 1,
            renditions: [Rendition(scale: 1, bitmap: bitmap)], skippedScales: [], lints: [], intent: .template)
    }
}

/// Helpers to build icon buffers the way apps do.
enum Bytes {
    /// A fresh heap buffer holding `count` bytes derived from `seed` (large enough, for counts over
    /// 14, not to be stored inline in the `Data`).
    static func make(_ seed: UInt8, count: Int = 64) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ $0) })
    }

    /// A new `Data` with the same bytes in new storage: what an app rebuilding its items from
    /// scratch passes.
    static func copy(_ data: Data) -> Data {
        Data([UInt8](data))
    }
}

extension IconTable {
    /// A table with a fake processor and a revision counter of its own (revisions start at 1).
    static func forTesting(
        processor: FakeProcessor = FakeProcessor(),
        hasher: ContentHasher = .xxh3
    ) -> IconTable {
        IconTable(processor: processor, revisions: RevisionCounter(), hasher: hasher)
    }
}

/// A hash under which every content collides: the table must still tell them apart by bytes.
extension ContentHasher {
    static let constant = ContentHasher { _ in ContentHash(high: 7, low: 7) }
    /// Collides contents of the same length only.
    static let byLength = ContentHasher { ContentHash(high: 0, low: UInt64($0.count)) }
}

extension IconTable {
    /// `icon(slot:item:selected:)` as a value, so a test can compare an answer, an absence and an
    /// error in one expectation.
    func iconResult(slot: Int, item: Int, selected: Bool = false) -> Result<NormalizedIcon, TabIconsError>? {
        do throws(TabIconsError) {
            guard let icon = try icon(slot: slot, item: item, selected: selected) else { return nil }
            return .success(icon)
        } catch {
            return .failure(error)
        }
    }
}
