internal import CXXH3Dispatch
import Foundation

/// XXH3-128 of a byte string: the key of the shared icon cache and the stable `contentHash` of
/// the manifest ("xxh3-128:" + 32 hex digits, high half first, as xxhsum prints it).
///
/// A hash only ever proposes a match: every consumer confirms a hit byte for byte, so a collision
/// costs a comparison, never a wrong icon.
public struct ContentHash: Sendable, Hashable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public init(_ bytes: UnsafeRawBufferPointer) {
        let h = tabicons_xxh3_128(bytes.baseAddress, bytes.count)
        self.init(high: h.high64, low: h.low64)
    }

    public init<Bytes: ContiguousBytes>(of bytes: Bytes) {
        self = bytes.withUnsafeBytes { ContentHash($0) }
    }

    private static let prefix = "xxh3-128:"

    /// `xxh3-128:` and 32 lowercase hex digits.
    public var description: String {
        var text: [UInt8] = []
        write(into: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// `description`'s bytes, appended (a writer of thousands of hashes makes no `String` of each).
    package func write(into bytes: inout [UInt8]) {
        bytes += Self.prefix.utf8
        HexText.append(high, to: &bytes)
        HexText.append(low, to: &bytes)
    }

    /// The hash `description` spells, exactly so (lowercase digits); nil for any other text.
    public init?(description text: String) { self.init(reading: text.utf8) }

    /// `init(description:)` on the text's UTF-8 bytes (a reader of thousands makes no `String` of each).
    package init?(spelling bytes: ArraySlice<UInt8>) { self.init(reading: bytes) }

    private init?<Bytes: Sequence<UInt8>>(reading bytes: Bytes) {
        var utf8 = bytes.makeIterator()
        for expected in Self.prefix.utf8 { guard utf8.next() == expected else { return nil } }
        func word() -> UInt64? {
            var value: UInt64 = 0
            for _ in 0..<16 {
                guard let digit = utf8.next().flatMap(HexText.value) else { return nil }
                value = value << 4 | UInt64(digit)
            }
            return value
        }
        guard let high = word(), let low = word(), utf8.next() == nil else { return nil }
        self.init(high: high, low: low)
    }

}
