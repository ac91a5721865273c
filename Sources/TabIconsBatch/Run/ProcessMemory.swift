#if canImport(Glibc)
    import Glibc
#endif

/// How a process running batches allocates, set once at its start: by `tabicon` for the batch
/// (and by `tabicon-bench jail`'s in-process child, so the jail's cost is measured against the
/// allocator settings the batch runs with), and by each jailed worker for itself (`IconWorker`).
/// `mallopt` is looked up (Swift's Glibc does not import <malloc.h>); Darwin has no thresholds
/// to set.
public enum ProcessMemory {
    /// The batch, threaded: large buffers (decoded images, a photo's bytes) go straight to mmap
    /// and back to the system when freed. glibc otherwise raises its mmap threshold to each such
    /// buffer freed, and later ones come from per-thread heaps that keep their pages
    /// (bench/README.md, peak RSS).
    public static func returnLargeBuffersToTheSystem() {
        set(mmapThreshold: 128 << 10)
    }

    /// A worker, one input after another on one thread: buffers up to 1 MiB come from its heap,
    /// which keeps up to 2 MiB free between inputs, so each input's rows, bitmaps and encoder
    /// buffers reuse pages the last one faulted in instead of mapping fresh zeroed ones. Larger
    /// thresholds saved no more CPU and raised a photo batch's peak (bench/README.md, "The third
    /// pass").
    static func reuseHeapAcrossInputs() {
        set(mmapThreshold: 1 << 20, trimThreshold: 2 << 20)
    }

    private static func set(mmapThreshold: Int32, trimThreshold: Int32? = nil) {
        #if canImport(Glibc)
            guard let symbol = dlsym(nil, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(-3, mmapThreshold)  // M_MMAP_THRESHOLD
            if let trimThreshold { _ = mallopt(-1, trimThreshold) }  // M_TRIM_THRESHOLD
        #endif
    }
}
