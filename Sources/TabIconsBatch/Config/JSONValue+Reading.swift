import Foundation

/// A JSON value read with Foundation's `JSONDecoder` (`--config`'s settings, whose values each
/// option's own parser reads). An object's keys come sorted (the decoder keeps no order, and a
/// key given twice is one key: the decoder's choice), so what is said of them is the same on
/// every run.
extension JSONValue: Decodable {
    /// Any object key, by its text (also what `SetLints.Thresholds` encodes its keys with).
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            self = .object(
                try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                    ($0.stringValue, try object.decode(JSONValue.self, forKey: $0))
                })
        } else if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
            self = .array(values)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let int = try? value.decode(Int.self) {
                self = .int(int)
            } else if let double = try? value.decode(Double.self) {
                self = .double(double)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }
}

extension JSONValue {
    /// The value under `key` of an object (nil for a missing key or a non-object).
    package subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    package var stringValue: String? { if case .string(let s) = self { s } else { nil } }
}
