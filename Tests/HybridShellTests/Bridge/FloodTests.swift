import Foundation
import HybridShell
import Testing

/// Issue 11, item 11: a large post is dispatched in slices, and a per-page in-flight cap answers
/// `RATE_LIMITED` instead of queueing without bound.
@Suite("Bridge flooding, in real WebKit")
@EngineActor
struct FloodTests {
    func readyFixture(_ configure: (inout BridgeConfiguration) -> Void) async throws -> BridgeFixture {
        let fixture = try BridgeFixture(policy: OriginPolicy(patterns: [try OriginPattern(parsing: "http://localhost")]), configure: configure)
        let ready = Handoff<Bool>()
        fixture.bridge.observe { if case .ready = $0 { ready.fulfill(true) } }
        try await loadHTML(fixture.view, "<p>flood</p>")
        _ = try await ready.value()
        return fixture
    }

    @Test func oneHugePostIsAnsweredInFullAcrossManySlices() async throws {
        // A tiny slice forces many main-loop turns; every answer must still arrive, in order.
        let fixture = try await readyFixture {
            $0.dispatchSlice = .microseconds(200)
            $0.maxInFlight = 50_000  // calls waiting for their slice count as in flight
        }
        defer { fixture.close() }
        let result = try await fixture.view.callAsyncJavaScript("""
            const calls = [];
            for (let i = 0; i < 20000; i++) calls.push(hybrid.call('echo', i));
            const values = await Promise.all(calls);
            return values.every((v, i) => v === i) ? values.length : -1;
            """)
        #expect(result == 20000)
    }

    @Test func callsBeyondTheInFlightCapFailWithRateLimited() async throws {
        let fixture = try await readyFixture { $0.maxInFlight = 100 }
        defer { fixture.close() }
        fixture.bridge.handlers.register("fixture.hold") { (_: JSONValue) async throws -> Bool in
            try await Task.sleep(for: .seconds(3))
            return true
        }
        let result = try await fixture.view.callAsyncJavaScript("""
            const calls = [];
            for (let i = 0; i < 300; i++) calls.push(hybrid.call('fixture.hold', i));
            const outcomes = await Promise.allSettled(calls);
            const codes = {};
            for (const o of outcomes) {
              const key = o.status === 'fulfilled' ? 'ok' : o.reason.code;
              codes[key] = (codes[key] || 0) + 1;
            }
            const limited = outcomes.find(o => o.status === 'rejected');
            return { codes, message: limited ? limited.reason.message : '' };
            """)
        #expect(result["codes"]?["ok"] == 100)
        #expect(result["codes"]?["RATE_LIMITED"] == 200)
        #expect(result["message"]?.stringValue?.contains("more than 100 calls in flight") == true)
        // Once they are done, calls run again.
        #expect(try await fixture.view.callAsyncJavaScript("return await hybrid.call('echo', 'again')") == "again")
    }
}
