#if canImport(Glibc)
    import Glibc
#endif

/// How a process running batches allocates: set once at its start by `tabicon` (batch and
/// worker alike) and by `tabicon-bench jail`'s in-process child, so the jail's cost is measured
/// against the very allocator settings the batch runs with.
public enum ProcessMemory {
    /// Large buffers (decoded images, a photo's bytes) go straight to mmap and back to the system
    /// when freed: glibc otherwise raises its mmap threshold to each such buffer freed, and later
    /// ones come from per-thread heaps that keep their pages (bench/README.md, peak RSS). `mallopt`
    /// is looked up (Swift's Glibc does not import <malloc.h>); M_MMAP_THRESHOLD is -3. Darwin has
    /// no threshold to pin.
    public static func returnLargeBuffersToTheSystem() {
        #if canImport(Glibc)
            if let symbol = dlsym(nil, "mallopt") {
                let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
                _ = mallopt(-3, 128 * 1024)
            }
        #endif
    }
}
