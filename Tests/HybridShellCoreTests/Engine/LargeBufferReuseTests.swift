@testable import HybridShellCore
import Glibc
import Testing

/// `LargeBufferReuse`: a large block freed and allocated again comes back without fresh pages
/// (glibc's default maps fresh ones every time: 2 560 page faults per 10 MiB), and a user's own
/// malloc tuning wins.
@Suite("Large buffers reused instead of fresh pages")
struct LargeBufferReuseTests {
    @Test func aFreedLargeBufferIsReusedWithoutPageFaults() throws {
        #expect(LargeBufferReuse.apply(environment: [:]))
        let size = 10 << 20
        // Counted for this thread only (RUSAGE_THREAD, which Swift's Glibc does not export): other
        // tests fault pages in parallel.
        let rusageThread = __rusage_who_t(1)
        func faultsOfOneLargeBuffer() throws -> Int {
            var before = rusage(), after = rusage()
            getrusage(rusageThread, &before)
            let buffer = try #require(malloc(size))
            memset(buffer, 1, size)
            free(buffer)
            getrusage(rusageThread, &after)
            return after.ru_minflt - before.ru_minflt
        }
        _ = try faultsOfOneLargeBuffer()  // the heap grows once
        let again = try faultsOfOneLargeBuffer()
        #expect(again < 256, "\(again) page faults for a 10 MiB buffer allocated a second time")
    }

    @Test(arguments: ["MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_ARENA_MAX", "GLIBC_TUNABLES"])
    func aUsersOwnTuningIsLeftAlone(variable: String) {
        #expect(!LargeBufferReuse.apply(environment: [variable: "1"]))
    }
}
