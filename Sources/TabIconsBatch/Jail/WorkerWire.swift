import Foundation

/// The framing of every message between the batch and a worker (SPEC §2): `TIJW`, a version
/// byte, a kind byte, the lengths of the fields and of the body (UInt32 little-endian), the
/// fields, the body. Fields: integers little-endian, doubles as bit patterns, strings and byte
/// runs as a UInt32 length then the bytes. The body is a request's input bytes, raw; a reply has
/// none.
///
/// Both sides read what the other wrote as untrusted: every length is checked against what is
/// left before anything is allocated, so a worker that answers garbage is a failed input.
enum WorkerWire {
    static let magic: [UInt8] = Array("TIJW".utf8)
    /// Bumped on any change to a message's layout; a mismatch is refused, never guessed at.
    static let version: UInt8 = 6
    static let headerSize = 14
    /// The largest fields or body either side accepts: an input at the default limit (256 MiB).
    static let maxPayload = (256 << 20) + (1 << 20)

    struct Malformed: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The header and the fields; a body of `bodyLength` bytes follows them on the wire.
    static func frame(kind: UInt8, fields: [UInt8], bodyLength: Int = 0) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(headerSize + fields.count)
        bytes.append(version)
        bytes.append(kind)
        withUnsafeBytes(of: UInt32(fields.count).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(bodyLength).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: fields)
        return bytes
    }

    struct Header {
        let kind: UInt8
        let fieldsLength: Int
        let bodyLength: Int
    }

    /// What a header announces, checked.
    static func header(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> Header {
        guard bytes.count >= headerSize, Array(bytes.prefix(4)) == magic else { throw Malformed("not a worker message") }
        let start = bytes.startIndex
        guard bytes[start + 4] == version else { throw Malformed("message version \(bytes[start + 4]), expected \(version)") }
        var fields = 0, body = 0
        for offset in 0..<4 {
            fields |= Int(bytes[start + 6 + offset]) << (8 * offset)
            body |= Int(bytes[start + 10 + offset]) << (8 * offset)
        }
        guard fields <= maxPayload, body <= maxPayload else { throw Malformed("a message of \(fields) + \(body) bytes") }
        return Header(kind: bytes[start + 5], fieldsLength: fields, bodyLength: body)
    }

    /// Writes a payload's fields.
    struct Writer {
        var bytes: [UInt8] = []

        mutating func int(_ value: Int) { withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func double(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
        mutating func data<C: Collection>(_ value: C) where C.Element == UInt8 {
            withUnsafeBytes(of: UInt32(value.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: value)
        }
        mutating func string(_ value: String) { data(Array(value.utf8)) }
        mutating func optionalString(_ value: String?) {
            bool(value != nil)
            if let value { string(value) }
        }
    }

    /// Reads a payload's fields; each read checks what is left.
    struct Reader {
        private let bytes: [UInt8]
        private var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        private mutating func take(_ count: Int) throws(Malformed) -> ArraySlice<UInt8> {
            guard count >= 0, count <= bytes.count - position else { throw Malformed("a field runs past the message's end") }
            defer { position += count }
            return bytes[position..<position + count]
        }

        private mutating func unsigned(_ size: Int) throws(Malformed) -> UInt64 {
            var value: UInt64 = 0
            for (offset, byte) in try take(size).enumerated() { value |= UInt64(byte) << (8 * UInt64(offset)) }
            return value
        }

        mutating func int() throws(Malformed) -> Int { Int(Int64(bitPattern: try unsigned(8))) }
        mutating func double() throws(Malformed) -> Double { Double(bitPattern: try unsigned(8)) }
        mutating func bool() throws(Malformed) -> Bool {
            switch try unsigned(1) {
            case 0: return false
            case 1: return true
            default: throw Malformed("a flag that is neither 0 nor 1")
            }
        }
        mutating func data() throws(Malformed) -> ArraySlice<UInt8> { try take(Int(try unsigned(4))) }
        mutating func string() throws(Malformed) -> String {
            guard let text = String(validating: try data(), as: UTF8.self) else { throw Malformed("a string that is not UTF-8") }
            return text
        }
        /// One of `T`'s names, which the batch must know: anything else is refused.
        mutating func named<T: RawRepresentable>(_ what: String) throws(Malformed) -> T where T.RawValue == String {
            guard let value = T(rawValue: try string()) else { throw Malformed("an unknown \(what)") }
            return value
        }
        /// A count of items each at least `minimumSize` bytes long, so a count cannot promise more than is left.
        mutating func count(minimumSize: Int) throws(Malformed) -> Int {
            let count = try int()
            guard count >= 0, count <= (bytes.count - position) / max(minimumSize, 1) else {
                throw Malformed("a count of \(count)")
            }
            return count
        }
        mutating func end() throws(Malformed) {
            guard isAtEnd else { throw Malformed("\(bytes.count - position) bytes past the message's end") }
        }
    }
}
