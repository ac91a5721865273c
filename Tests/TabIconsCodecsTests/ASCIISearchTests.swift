import Testing
@testable import TabIconsCodecs

/// `containsASCII`, screening's substring test on UTF-8 bytes, against the standard library's
/// element-by-element answer.
@Suite("ASCII search")
struct ASCIISearchTests {
    @Test("finds what the characters hold, at the start, the end, overlapping, after non-ASCII text")
    func search() {
        let cases: [(String, Bool)] = [
            ("url(#a)", true), ("fill:url(#g)", true), ("ur(l(", false), ("uurl(", true), ("url", false),
            ("", false), ("é😀url(", true), ("URL(#a)", false), ("M0 0h24v24H0z", false)
        ]
        for (text, expected) in cases {
            #expect(text.containsASCII("url(") == expected, "\(text)")
            #expect(Substring(text).containsASCII("url(") == expected, "\(text) as a substring")
        }
        #expect("anything".containsASCII(""))
        // A long path's data, as screening meets it, with the needle at its very end.
        let path = String(repeating: "l1.5 2.25 ", count: 10_000)
        #expect(!path.containsASCII("url("))
        #expect((path + "url(").containsASCII("url("))
    }

    @Test("the index just past the first occurrence at or after a position, as the markup scanner asks")
    func endOfFirst() {
        Array("<a>--><b>-->".utf8).withUnsafeBufferPointer { bytes in
            #expect(bytes.end(ofFirst: "-->") == 6)
            #expect(bytes.end(ofFirst: "-->", from: 3) == 6)
            #expect(bytes.end(ofFirst: "-->", from: 4) == 12)
            #expect(bytes.end(ofFirst: "-->", from: 10) == nil)
            #expect(bytes.end(ofFirst: "?>") == nil)
            #expect(bytes.end(ofFirst: "", from: 3) == 3)
        }
    }
}
