import Foundation

/// Reads a file front to back a 64 KiB block at a time, handing out the byte ranges asked for in
/// order: what a run reads of a previous manifest's entries and index records, thousands of
/// them, in a few hundred reads rather than one each. A range before the block held, or past
/// what the file holds, answers nil.
struct ForwardReader {
    private let fd: Int32
    private var block: [UInt8] = []
    /// Where `block` starts in the file.
    private var blockStart = 0
    private let blockSize: Int

    /// Reads `fd` (which the caller keeps open).
    init(fd: Int32, blockSize: Int = 1 << 16) {
        self.fd = fd
        self.blockSize = blockSize
    }

    /// The `count` bytes at `offset`.
    mutating func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, count >= 0 else { return nil }
        if offset < blockStart || offset + count > blockStart + block.count {
            guard refill(at: offset, atLeast: count) else { return nil }
        }
        let from = offset - blockStart
        return block[from..<(from + count)]
    }

    /// The block from `offset`: `blockSize` bytes, or `count` when more, or what the file holds.
    private mutating func refill(at offset: Int, atLeast count: Int) -> Bool {
        let size = max(count, blockSize)
        if block.count != size { block = [UInt8](repeating: 0, count: size) }
        var filled = 0
        while filled < size {
            let n = block.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, size - filled, off_t(offset + filled)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        block.removeLast(size - filled)
        blockStart = offset
        return filled >= count
    }
}
