/// A string's bytes read in place: what the hot loops over paths (`RelativePath.isPlain`, the
/// run index's question, a walked file's C path) take instead of iterating the view byte by byte.
extension Substring.UTF8View {
    /// `body` given the bytes in one buffer: the string's own storage where it has one (a native
    /// string's always), else a copy.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = withContiguousStorageIfAvailable(body) { return result }
        return Array(self).withUnsafeBufferPointer(body)
    }
}
