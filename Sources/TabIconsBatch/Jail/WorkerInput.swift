import Foundation

/// The worker's side of its socket, read for `IconWorker`: one `read` usually brings a whole small
/// request, and a body up to `reusedBodyBytes` lands in one buffer kept for the worker's life, so
/// a batch of photos does not fault in fresh pages for every input (bench/README "The jail's cost").
final class WorkerInput {
    /// Bodies up to this size reuse the worker's buffer; a larger one gets its own allocation,
    /// freed after its input (the kept buffer counts toward RLIMIT_DATA).
    static let reusedBodyBytes = 8 << 20
    private static let smallBodyBytes = 1 << 20

    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var body: UnsafeMutableRawPointer?
    private var bodyCapacity = 0

    init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        body?.deallocate()
    }

    /// Whether a byte of the next request is here or can be read without waiting (true also at
    /// the end of the input, which the next read then finds).
    func hasMore() -> Bool {
        guard start == end else { return true }
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) > 0
    }

    /// Exactly `count` bytes, or nil when the input ended first.
    func bytes(_ count: Int) -> [UInt8]? {
        var taken: [UInt8] = []
        taken.reserveCapacity(count)
        while taken.count < count {
            if start == end, !refill() { return nil }
            let n = min(count - taken.count, end - start)
            taken += buffer[start..<start + n]
            start += n
        }
        return taken
    }

    /// The request's body of `count` bytes. Up to `reusedBodyBytes` it is the worker's own
    /// buffer, valid until the next call: the request is answered (its reply encoded) before the
    /// next is read, and nothing the engine returns holds its input's bytes.
    func body(_ count: Int) -> Data? {
        guard count > 0 else { return Data() }
        guard count <= Self.reusedBodyBytes else {
            var data = Data(count: count)
            let filled = data.withUnsafeMutableBytes { receive(into: $0.baseAddress!, count) }
            return filled ? data : nil
        }
        if bodyCapacity < count {
            // Small first (RLIMIT_DATA counts the whole mapping), then whole in one step.
            body?.deallocate()
            bodyCapacity = count <= Self.smallBodyBytes ? Self.smallBodyBytes : Self.reusedBodyBytes
            body = UnsafeMutableRawPointer.allocate(byteCount: bodyCapacity, alignment: 16)
        }
        guard let body, receive(into: body, count) else { return nil }
        return Data(bytesNoCopy: body, count: count, deallocator: .none)
    }

    /// Copies what is buffered, then reads the rest straight into `destination`.
    private func receive(into destination: UnsafeMutableRawPointer, _ count: Int) -> Bool {
        let buffered = min(count, end - start)
        buffer.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress! + start, byteCount: buffered) }
        start += buffered
        var filled = buffered
        while filled < count {
            let n = read(fd, destination + filled, count - filled)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            filled += n
        }
        return true
    }

    /// Refills the empty buffer; false at the end of the input.
    private func refill() -> Bool {
        start = 0
        end = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            end = n
            return true
        }
    }
}
