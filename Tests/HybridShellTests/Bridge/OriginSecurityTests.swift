import HybridShell
import Synchronization
import Testing

/// "Who may call": two local origins on two ports. Only the allowed top document reaches native.
@Suite("Bridge origin checks with two local origins")
@EngineActor
struct OriginSecurityTests {
    /// Counts how often the secret handler ran and with what.
    final class Calls: Sendable {
        let seen = Mutex<[String]>([])
        var values: [String] { seen.withLock { $0 } }
    }

    func fixture(allowing server: FixtureServer, calls: Calls) throws -> BridgeFixture {
        let fixture = try BridgeFixture(policy: OriginPolicy(patterns: [try OriginPattern(parsing: server.origin)]))
        fixture.bridge.handlers.register("fixture.secret") { (input: String) -> String in
            calls.seen.withLock { $0.append(input) }
            return "secret for \(input)"
        }
        return fixture
    }

    @Test func crossOriginAndSandboxedFramesCannotReachNative() async throws {
        let allowed = try await FixtureServer.start(), other = try await FixtureServer.start()
        defer { allowed.stop(); other.stop() }
        let calls = Calls()
        let fixture = try fixture(allowing: allowed, calls: calls)
        defer { fixture.close() }
        fixture.view.load(allowed.url("fixtures/security/top.html?frame=\(other.url("fixtures/security/frame.html"))"))
        let report = try await fixture.report.value(timeout: .seconds(20))
        _ = try await fixture.view.evaluateJavaScript("1")  // anything the frames caused has arrived by now

        #expect(report["frames"]?["top"] == "secret for from top")
        for frame in ["cross-origin", "sandboxed"] {
            let attempts = try #require(report["frames"]?[frame], "no report from the \(frame) frame")
            #expect(attempts["hasHybrid"] == "undefined")
            #expect(attempts["hasRelayHandler"] == "undefined")
            #expect(attempts["parentHybrid"]?.stringValue?.hasPrefix("blocked") == true)
            #expect(attempts["parentEvent"]?.stringValue?.hasPrefix("blocked") == true)
            // The direct handler is there in every frame; without the top's secret it refuses,
            // and a hello there (claiming the top's origin) is never taken.
            #expect(attempts["hasDirectHandler"] == "object")
            #expect(attempts["directHello"]?.stringValue?.contains(#""code":"INVALID_MESSAGE","message":"hello is only valid from the relay""#) == true)
            #expect(attempts["directGuess"]?.stringValue?.contains(#""code":"BRIDGE_RESET""#) == true)
            if frame == "sandboxed" {
                // Without allow-modals the prompt never leaves the frame.
                #expect(attempts["barePrompt"] == .null)
                #expect(attempts["guessedSecret"] == .null)
            } else {
                #expect(attempts["barePrompt"]?.stringValue?.contains(#""errorCode":"DENIED""#) == true)
                #expect(attempts["guessedSecret"]?.stringValue?.contains(#""errorCode":"DENIED""#) == true)
            }
        }
        #expect(calls.values == ["from top"])
    }

    @Test func topDocumentOnAnotherOriginIsDeniedInEveryDialect() async throws {
        let allowed = try await FixtureServer.start(), other = try await FixtureServer.start()
        defer { allowed.stop(); other.stop() }
        let calls = Calls()
        let fixture = try fixture(allowing: allowed, calls: calls)
        defer { fixture.close() }
        let denied = Handoff<Bool>()
        fixture.bridge.observe { if case .denied = $0 { denied.fulfill(true) } }
        let results = PageEventExpectation(fixture.view) { event -> String? in
            if case .console(let message) = event, message.text.hasPrefix("DENIED-RESULTS ") { return String(message.text.dropFirst(15)) }
            return nil
        }
        fixture.view.load(other.url("fixtures/security/denied.html"))
        #expect(try await denied.value())
        let report = try JSONValue(parsing: try await results.value(timeout: .seconds(20)))
        _ = try await fixture.view.evaluateJavaScript("1")
        #expect(report["ready"] == "DENIED")
        #expect(report["call"] == "DENIED")
        #expect(report["dsbridgeSync"]?.stringValue?.contains(#""errorCode":"DENIED""#) == true)
        #expect(report["wvjb"] == "DENIED")
        #expect(report["wx"] == "DENIED")
        #expect(report["attempts"]?["ownBridge"] == "DENIED")
        #expect(report["attempts"]?["directHello"]?.stringValue?.contains(#""code":"INVALID_MESSAGE""#) == true)
        #expect(report["attempts"]?["directGuess"]?.stringValue?.contains(#""code":"BRIDGE_RESET""#) == true)
        #expect(calls.values.isEmpty)
    }

    @Test func topNavigatingToAnotherOriginLosesTheBridge() async throws {
        let allowed = try await FixtureServer.start(), other = try await FixtureServer.start()
        defer { allowed.stop(); other.stop() }
        let calls = Calls()
        let fixture = try fixture(allowing: allowed, calls: calls)
        defer { fixture.close() }
        let events = Mutex<[String]>([])
        let denied = Handoff<Bool>()
        fixture.bridge.observe { event in
            switch event {
            case .ready(_, let origin, _): events.withLock { $0.append("ready \(origin)") }
            case .denied(_, let origin, _): events.withLock { $0.append("denied \(origin)") }; denied.fulfill(true)
            case .ended: events.withLock { $0.append("ended") }
            }
        }
        #expect(try await load(fixture.view, allowed.url("fixtures/engine/frames.html")))
        #expect(try await fixture.view.callAsyncJavaScript("return await hybrid.call('fixture.secret', 'first')") == "secret for first")
        _ = try await fixture.view.evaluateJavaScript("location.href = \(JSONValue.quoted(other.url("fixtures/engine/frames.html")))")
        #expect(try await denied.value())
        let outcome = try await fixture.view.callAsyncJavaScript(
            "return await hybrid.call('fixture.secret', 'second').then(() => 'ran', e => e.code)")
        #expect(outcome == "DENIED")
        #expect(calls.values == ["first"])
        #expect(events.withLock { $0 } == ["ready \(allowed.origin)", "ended", "denied \(other.origin)"])
    }
}
