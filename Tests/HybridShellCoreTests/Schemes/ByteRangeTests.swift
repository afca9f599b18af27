@testable import HybridShellCore
import Testing

@Suite("ByteRange: Range headers (pure)")
struct ByteRangeTests {
    @Test(arguments: [
        ("bytes=0-99", ByteRange.Outcome.partial(ByteRange(offset: 0, length: 100))),
        ("bytes=100-", .partial(ByteRange(offset: 100, length: 900))),
        ("bytes=-100", .partial(ByteRange(offset: 900, length: 100))),
        ("bytes=-5000", .partial(ByteRange(offset: 0, length: 1000))),
        ("bytes=990-5000", .partial(ByteRange(offset: 990, length: 10))),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        ("bytes=5-1", .whole),
        ("bytes=0-1,5-6", .whole),
        ("items=0-1", .whole),
        ("bytes=a-b", .whole),
        ("", .whole),
    ])
    func resolvesAgainstTheSize(header: String, expected: ByteRange.Outcome) {
        #expect(ByteRange.resolve(header, size: 1000) == expected)
    }

    @Test func noHeaderIsTheWholeBody() {
        #expect(ByteRange.resolve(nil, size: 10) == .whole)
        #expect(ByteRange(offset: 10, length: 5).contentRange(size: 100) == "bytes 10-14/100")
    }
}
