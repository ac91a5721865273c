extension StringProtocol {
    /// Whether the ASCII `needle` occurs in the string, looked for in its UTF-8 bytes. Foundation's
    /// `contains(_:)`, which overload resolution picks wherever Foundation is imported, copies the
    /// whole string to UTF-16 first: screening asks of every attribute, long path data included.
    func containsASCII(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        func search(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = pattern.first else { return true }
            guard bytes.count >= pattern.count else { return false }
            for start in 0...(bytes.count - pattern.count) where bytes[start] == first {
                var k = 1
                while k < pattern.count && bytes[start + k] == pattern[k] { k += 1 }
                if k == pattern.count { return true }
            }
            return false
        }
        return utf8.withContiguousStorageIfAvailable(search) ?? Array(utf8).withUnsafeBufferPointer(search)
    }
}
