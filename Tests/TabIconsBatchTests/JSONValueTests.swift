import Foundation
import Testing
@testable import TabIconsBatch

/// The one JSON writer (manifest, Contents.json, benchmark rows), and JSON values read back with
/// Foundation's `JSONDecoder` (`--config`).
@Suite("JSON writer")
struct JSONValueTests {
    @Test("a container of scalars is one line; others indent two spaces a level; compact has no spaces")
    func layout() {
        let value = JSONValue.object([
            ("version", .int(1)), ("scales", .array([.double(1), .double(1.5), .double(3)])),
            ("icons", .array([.object([("name", .string("home")), ("vector", .bool(true)), ("x", .null)])])),
            ("errors", .array([]))
        ])
        #expect(
            value.text() == """
                {
                  "version": 1,
                  "scales": [1, 1.5, 3],
                  "icons": [
                    {"name": "home", "vector": true, "x": null}
                  ],
                  "errors": []
                }
                """)
        #expect(
            value.text(indent: nil)
                == #"{"version":1,"scales":[1,1.5,3],"icons":[{"name":"home","vector":true,"x":null}],"errors":[]}"#)
        #expect(value.utf8() == Array(value.text().utf8))
    }

    @Test("numbers: integral without a fraction, others shortest, non-finite as null")
    func numbers() {
        // 1e-320 is subnormal: as a literal the compiler warns that it loses precision, so it is parsed.
        let subnormal = Double("1e-320")!
        let value = JSONValue.array([
            .double(25), .double(3.84), .double(subnormal), .double(-0.5), .double(.nan), .double(.infinity), .int(-7)
        ])
        #expect(value.text() == "[25, 3.84, 1e-320, -0.5, null, null, -7]")
        let integers = JSONValue.array([0, 9, 10, -1, 1_000_000, Int.max, Int.min].map(JSONValue.int))
        #expect(integers.text() == "[0, 9, 10, -1, 1000000, 9223372036854775807, -9223372036854775808]")
    }

    @Test("every control character, quote and backslash is escaped; other text is written as UTF-8")
    func escapes() throws {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let text = controls + "\"\\/ é 🏠 \u{7F}"
        let written = JSONValue.string(text).text()
        #expect(written.hasPrefix(#""\u0000\u0001"#))
        #expect(written.contains(#"\u001f"#) && written.contains(#"\t\n\u000b\u000c\r"#))
        #expect(written.hasSuffix("\\\"\\\\/ é 🏠 \u{7F}\""))
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(written.utf8)) == .string(text))
    }

    @Test("integers of 19 digits stay integers up to Int's bounds; one past them is a double, as Int(_:) and Double(_:) read it")
    func integerBounds() throws {
        let cases: [(String, JSONValue)] = [
            ("1733131131123456789", .int(1_733_131_131_123_456_789)),  // a time in nanoseconds
            ("9223372036854775807", .int(Int.max)), ("-9223372036854775807", .int(-Int.max)),
            ("-9223372036854775808", .int(Int.min)), ("9223372036854775808", .double(0x1p63)),
            ("-9223372036854775809", .double(-0x1p63)),
            ("99999999999999999999", .double(1e20))
        ]
        for (text, expected) in cases {
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data("[\(text)]".utf8)) == .array([expected]), "\(text)")
        }
        // Leading zeros are not JSON.
        #expect(throws: (any Error).self) { try JSONDecoder().decode(JSONValue.self, from: Data("[007]".utf8)) }
    }

    @Test("the decoder reads back what the writer wrote, keys sorted, a key given twice one key")
    func roundTrip() throws {
        let value = JSONValue.object([
            ("b", .string("path/with \"quotes\"")), ("a", .array([.int(1), .double(0.25), .bool(false), .null])),
            ("nested", .object([("k", .array([.object([("deep", .string("\n"))])]))]))
        ])
        let sorted = JSONValue.object([
            ("a", .array([.int(1), .double(0.25), .bool(false), .null])), ("b", .string("path/with \"quotes\"")),
            ("nested", .object([("k", .array([.object([("deep", .string("\n"))])]))]))
        ])
        for indent in [0, nil] as [Int?] {
            let parsed = try JSONDecoder().decode(JSONValue.self, from: Data(value.utf8(indent: indent)))
            #expect(parsed == sorted)
        }
        // Escapes as another writer may use them; a key twice is one key; numbers past Double's range refused.
        let escaped = try JSONDecoder().decode(
            JSONValue.self, from: Data(#"{"a": "\u00e9\ud83d\ude00\/\t", "n": [-1, 2.5e1], "d": 1, "d": 2}"#.utf8))
        #expect(escaped["a"]?.stringValue == "é😀/\t")
        #expect(escaped["n"] == .array([.int(-1), .double(25)]))
        #expect(escaped["d"] == .int(1) || escaped["d"] == .int(2))
        guard case .object(let pairs) = escaped else { return }
        #expect(pairs.map(\.0) == ["a", "d", "n"])
        #expect(throws: (any Error).self) { try JSONDecoder().decode(JSONValue.self, from: Data("[1e400]".utf8)) }
    }
}
