extension UnsafeBufferPointer<UInt8> {
    /// The index just past the first occurrence of the ASCII `needle` at or after `from`, or nil:
    /// the one byte search of the SVG readers (the markup scanner's terminators, screening's words).
    func end(ofFirst needle: StaticString, from: Int = 0) -> Int? {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return from }
        var start = from
        while start + pattern.count <= count {
            if self[start] == first {
                var k = 1
                while k < pattern.count && self[start + k] == pattern[k] { k += 1 }
                if k == pattern.count { return start + pattern.count }
            }
            start += 1
        }
        return nil
    }
}

extension StringProtocol {
    /// Whether the ASCII `needle` occurs in the string, looked for in its UTF-8 bytes. Foundation's
    /// `contains(_:)`, which overload resolution picks wherever Foundation is imported, copies the
    /// whole string to UTF-16 first: screening asks of every attribute, long path data included.
    func containsASCII(_ needle: StaticString) -> Bool {
        func search(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { bytes.end(ofFirst: needle) != nil }
        return utf8.withContiguousStorageIfAvailable(search) ?? Array(utf8).withUnsafeBufferPointer(search)
    }
}
