import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import Foundation

/// How the table decides that a published icon holds the same content as the slot's entry: the
/// very same buffer passes without reading a byte, anything else is compared byte for byte with
/// the cached content. Never by hash.
///
/// ## The shortcut: the same `Data` representation
///
/// A `Data` value is 16 bytes on 64-bit platforms: either its bytes themselves (up to 14, stored
/// inline), or a reference to a heap storage object plus the range it shows. Two values with the
/// very same representation bits hold the same bytes:
///
/// - **Inline** (small `Data`): the bits *are* the bytes and the length, so equal bits are equal
///   content by definition. (Inline bytes have no stable address, which is why the shortcut
///   compares representations and not `withUnsafeBytes` addresses.)
/// - **Heap storage**: equal bits mean the same storage object and the same range, so the same
///   memory. The storage cannot have been freed and its address reused for other bytes, because
///   the entry compared against holds the `Data` (`EntryIcons.items`): while the table compares,
///   the object is alive. Nor can its bytes have changed since they were published: `Data` is
///   copy-on-write and the storage is shared (the entry holds a reference), so an app that mutates
///   its own copy gets new storage first. This is exactly what a table keyed by *addresses*
///   lacks: it holds nothing, so a freed buffer's address can come back holding other bytes.
///
/// The one way around value semantics is `Data(bytesNoCopy:count:deallocator: .none)` over memory
/// the caller later writes to or frees; that breaks `Data`'s own contract, and a byte comparison
/// against a buffer the table merely references would be fooled the same way.
///
/// Equal bits are a sufficient sign of equal content, never a necessary one: different bits
/// (fresh copies, a slice of another buffer) go on to the byte comparison. Comparing words
/// matters because reading a `Data`'s bytes costs more than their `memcmp` for icon-sized inputs:
/// every `withUnsafeBytes` on a `Data` pays dynamic exclusivity checks on its storage, which is
/// also why the byte comparison runs against the content's private array copy, opening only the
/// published `Data`.
enum ContentEquality {
    /// Whether `a` and `b` have the same representation (see above): both absent, or the same
    /// inline bytes, or the same storage and range. True implies the same content.
    @inline(__always)
    static func sameRepresentation(_ a: Data?, _ b: Data?) -> Bool {
        if MemoryLayout<Data?>.size == 16 {
            let x = unsafeBitCast(a, to: (UInt64, UInt64).self)
            let y = unsafeBitCast(b, to: (UInt64, UInt64).self)
            return x.0 == y.0 && x.1 == y.1
        }
        return withUnsafeBytes(of: a) { x in
            withUnsafeBytes(of: b) { y in x.elementsEqual(y) }
        }
    }

    /// Whether two item lists have the same representation throughout: the same count, and every
    /// icon `sameRepresentation` as its counterpart. One `memcmp` over the arrays' storage: the
    /// `Data` values are never copied out, so the check retains and releases nothing — what
    /// keeps a republish of the very same items in tens of nanoseconds. (Unused bits can only
    /// make it answer false, never true, and false just means comparing icon by icon.)
    @inline(__always)
    static func sameRepresentations(_ a: [ItemIcons], _ b: [ItemIcons]) -> Bool {
        a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                guard x.count == y.count else { return false }
                guard let baseX = x.baseAddress, let baseY = y.baseAddress else { return true }
                return memcmp(baseX, baseY, x.count) == 0
            }
        }
    }

    /// Whether `data` holds exactly `bytes` (a cached content's private copy): the byte
    /// comparison, one `memcmp`.
    @inline(__always)
    static func sameBytes(_ bytes: [UInt8], _ data: Data) -> Bool {
        bytes.withUnsafeBytes { x in
            data.withUnsafeBytes { y in
                guard x.count == y.count else { return false }
                guard let baseX = x.baseAddress, let baseY = y.baseAddress, x.count > 0 else { return true }
                return memcmp(baseX, baseY, x.count) == 0
            }
        }
    }
}
