import TabIcons

/// A hash as a manifest records it (a file's `hash`, an icon's `contentHash`): `ContentHash`'s
/// text held as its 16 bytes, any other text (a hand edit, another version's spelling) as written,
/// so a manifest read back is written again byte for byte. Thousands of entries each hold a few:
/// as a `String`, 41 characters are a heap object of 80 bytes (past Swift's 15-byte small strings).
package enum RecordedHash: Sendable, Hashable {
    case content(ContentHash)
    case text(String)

    package init(_ text: String) {
        self = ContentHash(description: text).map(Self.content) ?? .text(text)
    }

    package init(_ hash: ContentHash) { self = .content(hash) }

    /// `init(_:)` of the string these UTF-8 bytes spell.
    package init(spelling bytes: ArraySlice<UInt8>) {
        self = ContentHash(spelling: bytes).map(Self.content) ?? .text(String(decoding: bytes, as: UTF8.self))
    }

    /// What the manifest spells.
    package var text: String {
        switch self {
        case .content(let hash): hash.description
        case .text(let text): text
        }
    }

    /// Whether this records `hash` (a text that is not `ContentHash`'s spelling records none).
    package func records(_ hash: ContentHash) -> Bool { self == .content(hash) }
}
