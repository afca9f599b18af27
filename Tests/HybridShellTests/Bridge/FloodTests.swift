import Foundation
import HybridShell
import Synchronization
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

    /// Between two slices WebKit's own events get through: a console line printed once the first
    /// slice's answers are back reaches native while the rest of the post still waits. The slices
    /// used to be re-armed at GLib's default priority, above WebKit's messages from the web
    /// process, so the line came only after the post's last call (the flood benchmark's console
    /// lines arrived 300–400 ms late). One post of 1 000 calls (the most the page sends in one),
    /// each handled in ~300 µs of work, so the rest of the post takes ~0.3 s: the web process has
    /// that long to print the line, not a race.
    @Test func aConsoleLineOvertakesTheRestOfAPost() async throws {
        let fixture = try await readyFixture {
            $0.dispatchSlice = .microseconds(200)
        }
        defer { fixture.close() }
        let dispatched = Mutex(0)
        fixture.bridge.handlers.register("fixture.work") { (value: Int) -> Int in
            let end = ContinuousClock.now + .microseconds(300)
            while ContinuousClock.now < end {}
            dispatched.withLock { $0 += 1 }
            return value
        }
        let marker = Handoff<Int>()
        fixture.view.observe { event in
            if case .console(let message) = event, message.text == "first answers are back" {
                marker.fulfill(dispatched.withLock { $0 })
            }
        }
        let result = try await fixture.view.callAsyncJavaScript("""
            const calls = [];
            for (let i = 0; i < 1000; i++) calls.push(hybrid.call('fixture.work', i));
            calls[0].then(() => console.log('first answers are back'));
            const values = await Promise.all(calls);
            return values.length;
            """)
        #expect(result == 1000)
        let dispatchedAtMarker = try await marker.value(timeout: .seconds(30), "the console line")
        #expect(dispatchedAtMarker < 1000, "the console line arrived after all \(dispatchedAtMarker) calls had run")
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
