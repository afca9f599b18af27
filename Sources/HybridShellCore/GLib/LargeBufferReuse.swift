import Foundation

/// Makes glibc keep freed large buffers for reuse instead of handing them back to the kernel at
/// once (`mallopt(M_MMAP_THRESHOLD)`, `mallopt(M_TRIM_THRESHOLD)`), in this process only (web
/// processes are WebKit's, and they do not inherit it).
///
/// Why: a bridge message of megabytes passes through a few buffers of its size here (the text
/// WebKit hands over, its Swift copy, the reply frame). By default glibc serves every block over
/// 128 KiB from fresh `mmap` pages and unmaps it when freed (it raises that limit only to the size
/// last freed, so the next message of the same size gets fresh pages again), and the kernel's
/// faulting and zeroing of those pages costs more than the copies: a 10 MB echo spent about a
/// third of the main thread in page faults, and with this it went from 1.18× the C baseline's
/// time to 1.01× (bench/README.md, "fifth session"). Blocks up to 32 MiB (as far as glibc's own
/// sliding threshold would go; the bridge's largest message is 16 Mi characters) now come from the
/// heap and are reused, and up to 64 MiB of free heap is kept rather than trimmed: a bound on what
/// the process holds on to after a large message, not a leak. Small blocks are not affected.
///
/// Left alone when the user tuned malloc already (`MALLOC_*_` variables or `GLIBC_TUNABLES`).
enum LargeBufferReuse {
    static let mmapThreshold: Int32 = 32 << 20
    static let trimThreshold: Int32 = 64 << 20

    /// Whether both settings were made (false when left alone, or when glibc refused a value).
    @discardableResult
    static func apply(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard !environment.keys.contains(where: { $0.hasPrefix("MALLOC_") || $0 == "GLIBC_TUNABLES" }) else { return false }
        return mallopt(mallocMmapThreshold, mmapThreshold) == 1 && mallopt(mallocTrimThreshold, trimThreshold) == 1
    }

    // <malloc.h> is not part of Swift's Glibc module; these are its values.
    private static let mallocTrimThreshold: Int32 = -1
    private static let mallocMmapThreshold: Int32 = -3
}

@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
