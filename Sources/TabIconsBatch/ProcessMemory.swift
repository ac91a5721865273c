#if canImport(Glibc)
    import Glibc
#endif

/// How a process running batches allocates: set once at its start by `tabicon` (batch and
/// worker alike) and by `tabicon-bench jail`'s in-process child, so the jail's cost is measured
/// against the very allocator settings the batch runs with.
public enum ProcessMemory {
    /// Large buffers (decoded images, a photo's bytes, libjpeg's coefficient arrays) go straight
    /// to mmap and back to the system when freed. glibc's default raises its mmap threshold to
    /// the size of each such buffer freed, after which the next ones come from per-thread heaps
    /// that keep their pages: a photo batch on two threads then peaked well above one decode of
    /// its largest photo (bench/README.md, peak RSS against Pillow). `mallopt` is looked up
    /// because Swift's Glibc module does not import <malloc.h>; M_MMAP_THRESHOLD is -3 there.
    /// Darwin's allocator serves large blocks from their own mappings and returns them when
    /// freed: there is no threshold to pin.
    public static func returnLargeBuffersToTheSystem() {
        #if canImport(Glibc)
            if let symbol = dlsym(nil, "mallopt") {
                let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
                _ = mallopt(-3, 128 * 1024)
            }
        #endif
    }
}
