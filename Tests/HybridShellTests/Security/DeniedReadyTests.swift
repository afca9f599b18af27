import HybridShell
import Testing

/// Issue 31, item 17: a top document whose origin the policy denies sees `hybrid.ready` reject
/// with `DENIED`, over http and on the `app:` scheme alike; an allowed one sees it resolve.
@Suite("hybrid.ready on a denied origin")
@EngineActor
struct DeniedReadyTests {
    /// Loads `url` in `view` under a bridge allowing only `allowed`; returns the page's console
    /// line about `hybrid.ready` and whether the bridge reported the document denied.
    private func readyLine(_ view: WebView, _ url: String, allowed: String) async throws -> (line: String, denied: Bool) {
        let bridge = Bridge(view: view, configuration: BridgeConfiguration(originPolicy: OriginPolicy(patterns: [try OriginPattern(parsing: allowed)])))
        let denied = Handoff<Bool>()
        bridge.observe { if case .denied = $0 { denied.fulfill(true) } }
        let line = PageEventExpectation(view) { event -> String? in
            if case .console(let message) = event, message.text.hasPrefix("READY ") { return message.text }
            return nil
        }
        view.load(url)
        let text = try await line.value(timeout: .seconds(30), "hybrid.ready's outcome on \(url)")
        _ = bridge
        return (text, denied.isSettled)
    }

    @Test func anHTTPPageThePolicyDeniesSeesReadyRejectWithDenied() async throws {
        let page = try await FixtureServer.start(), allowed = try await FixtureServer.start()
        defer { page.stop(); allowed.stop() }
        let view = try makeView()
        defer { view.close() }
        let denied = try await readyLine(view, page.url("fixtures/schemes/ready.html"), allowed: allowed.origin)
        #expect(denied.line == "READY DENIED on \(page.origin)")
        #expect(denied.denied)
        let other = try makeView()
        defer { other.close() }
        #expect(try await readyLine(other, page.url("fixtures/schemes/ready.html"), allowed: page.origin).line == "READY resolved on \(page.origin)")
    }

    @Test func anAppSchemePageThePolicyDeniesSeesReadyRejectWithDenied() async throws {
        let context = try SchemeFixture.shared().context
        let view = try WebView(context: context)
        defer { view.close() }
        let denied = try await readyLine(view, "app:///ready.html", allowed: "http://127.0.0.1:1")
        #expect(denied.line.hasPrefix("READY DENIED on "), "\(denied.line)")
        #expect(denied.denied)
        let other = try WebView(context: context)
        defer { other.close() }
        #expect(try await readyLine(other, "app:///ready.html", allowed: "app://").line.hasPrefix("READY resolved on "))
    }
}
