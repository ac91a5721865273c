import Foundation

/// How the table decides that two icon buffers hold the same content: the same memory passes
/// without reading a byte, anything else is compared byte for byte. Never by hash.
///
/// ## Why the shortcut is sound
///
/// Both buffers are opened at the same time (nested `withUnsafeBytes`). If their base addresses and
/// counts are equal at that moment, they are the *same memory*, so every byte is equal — there is
/// nothing to trust but the pointer comparison itself. What makes this safe where a table keyed
/// by buffer identity is not:
///
/// - **Reused addresses.** A table that remembers only an address can meet that address again
///   after the first buffer was freed and the allocator handed the memory to different bytes.
///   Here the remembered side is a `Data` value the table holds (the entry's canonical buffer), so
///   its storage cannot be freed, hence not reused, while it is compared. No address is stored.
/// - **Mutation.** `Data` is a copy-on-write value: an app that mutates its copy of a buffer the
///   table also references gets fresh storage first (the storage is not uniquely referenced), so
///   the table's bytes stay the bytes that were published. The one way around this is
///   `Data(bytesNoCopy:count:deallocator: .none)` over memory the caller then writes to; that
///   breaks `Data`'s own contract, and it would fool a full byte comparison just the same (the
///   table's copy would change along with it).
/// - **Small inline `Data`.** Up to 14 bytes (6 on 32-bit) a `Data` stores its bytes inside the
///   value, and `withUnsafeBytes` exposes a temporary copy. Two temporaries alive at once never
///   share an address, so the shortcut just never fires and the bytes (a handful) are compared.
///
/// The comparison itself is `memcmp`, which is what the fresh-copies flavour of the benchmark
/// pays: one comparison per icon, nothing more.
enum ContentEquality {
    /// True when `a` and `b` hold the same bytes.
    @inline(__always)
    static func same(_ a: Data, _ b: Data) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        if count == 0 { return true }
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                guard let baseA = pa.baseAddress, let baseB = pb.baseAddress else {
                    return pa.count == pb.count
                }
                return baseA == baseB || memcmp(baseA, baseB, count) == 0
            }
        }
    }

    /// True when `a` and `b` are both absent, or both present with the same bytes.
    @inline(__always)
    static func same(_ a: Data?, _ b: Data?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): same(a, b)
        default: false
        }
    }
}
