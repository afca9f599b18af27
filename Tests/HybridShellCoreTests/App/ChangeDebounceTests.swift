import Testing
@testable import HybridShellCore

@Suite struct ChangeDebounceTests {
    @Test func aBurstIsReportedAfterQuietButNeverPastTheLimit() {
        var debounce = ChangeDebounce(quiet: .milliseconds(60), limit: .milliseconds(200))
        let start = ContinuousClock.now
        #expect(debounce.record(at: start) == start + .milliseconds(60))
        #expect(debounce.record(at: start + .milliseconds(50)) == start + .milliseconds(110))
        // Changes keep coming: the burst's first change caps the wait.
        #expect(debounce.record(at: start + .milliseconds(180)) == start + .milliseconds(200))
        debounce.fired()
        let later = start + .seconds(1)
        #expect(debounce.record(at: later) == later + .milliseconds(60))
    }
}
