import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// The direct delivery (bridge-js/PROTOCOL.md, "The direct delivery"): native's down-frames go
/// straight into the page world, so the function WebKit runs must hand them to nobody but the
/// session's own document, whatever document the view shows when the call arrives.
@Suite("Direct delivery into the page world", .timeLimit(.minutes(2)))
@EngineActor
struct DirectDeliveryTests {
    static let secret = "fedcba9876543210fedcba9876543210"
    static let frames = #"[{"t":"call","id":1,"h":"page.echo","d":"private data"}]"#

    /// A document of another origin without HybridShell's page script (as after a navigation the
    /// delivery raced) sets a trap at `__hybridshellPage` and tries to make `location` lie.
    static let trap = """
        <script>
        window.seen = [];
        window.onerror = function (message) { window.seen.push('error: ' + message); };
        Object.defineProperty(window, '__hybridshellPage', { value: { deliver: function (m) { window.seen.push('stolen ' + m); return 'stolen'; } } });
        try { Object.defineProperty(window, 'location', { value: { origin: 'https://app.example' } }); } catch (e) { window.seen.push('window.location is fixed'); }
        try { Object.defineProperty(location, 'origin', { value: 'https://app.example' }); } catch (e) { window.seen.push('location.origin is fixed'); }
        </script>
        <script>let location = { origin: 'https://app.example' };</script>
        <script>window.seen.push('location is ' + location.origin);</script>
        """

    @Test func aDocumentOfAnotherOriginGetsNeitherTheFramesNorTheSecret() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, Self.trap, baseURL: "https://evil.example/")
        let answer = try await view.callFunctionReturningString(
            DirectDelivery.body, strings: DirectDelivery.arguments(origin: "https://app.example", secret: Self.secret, frames: Self.frames),
            in: .page)
        #expect(answer == nil, "the body answers false before it looks up anything the page defines")
        let seen = try await view.evaluateJavaScript("window.seen")
        #expect(seen.arrayValue?.contains(.string("window.location is fixed")) == true)
        #expect(seen.arrayValue?.contains(.string("location.origin is fixed")) == true)
        // A global `let location` is a SyntaxError (WebKit mutes its message for this document).
        #expect(seen.arrayValue?.contains { $0.stringValue?.hasPrefix("error:") == true } == true, "\(seen)")
        #expect(seen.arrayValue?.contains(.string("location is https://evil.example")) == true, "\(seen)")
        #expect(seen.arrayValue?.contains { $0.stringValue?.hasPrefix("stolen") == true } == false)
        // The control: for its own origin the same body does call whatever the document holds
        // there, which is why only documents where HybridShell's page script fixed it first offer
        // the delivery in their hello.
        let own = try await view.callFunctionReturningString(
            DirectDelivery.body, strings: DirectDelivery.arguments(origin: "https://evil.example", secret: Self.secret, frames: Self.frames),
            in: .page)
        #expect(own == "stolen")
    }

    @Test func opaqueOriginsKeepTheRelay() {
        #expect(!DirectDelivery.serves(origin: "null"))
        #expect(!DirectDelivery.serves(origin: ""))
        #expect(DirectDelivery.serves(origin: "https://app.example"))
        #expect(DirectDelivery.serves(origin: "file://"))
    }

    /// A real page: its hello offers the delivery, native uses it, and native → page calls and
    /// events arrive byte-exact, whatever the page did to `globalThis`; a delivery with another
    /// document's secret runs nothing.
    @Test func aPageWithTheBridgeTakesDeliveriesWithItsOwnSecretOnly() async throws {
        let fixture = try BridgeFixture(policy: OriginPolicy(patterns: [try OriginPattern(parsing: "https://app.example")]))
        defer { fixture.close() }
        let ready = Handoff<Void>()
        fixture.bridge.observe { event in if case .ready = event { ready.fulfill(()) } }
        try await loadHTML(fixture.view, """
            <script>
            window.seen = [];
            hybrid.register('page.echo', function (value) { window.seen.push('echo'); return value; });
            // globalThis is the page's to replace; the delivery goes through window, which is not.
            Object.defineProperty(window, 'globalThis', { value: { __hybridshellPage: { deliver: function () { window.seen.push('hijacked'); return ''; } } } });
            window.noted = new Promise(function (resolve) {
              hybrid.on('note', function (value) { window.seen.push('note ' + value); resolve(); });
            });
            </script>
            """, baseURL: "https://app.example/")
        try await ready.value(timeout: .seconds(30), "the bridge's ready")
        let session = try #require(fixture.bridge.session)
        #expect(session.directDelivery)
        let nasty = "quote \" \u{2028} 🦊 </script>"
        let reply = try await fixture.bridge.callRaw("page.echo", with: try RawJSON(encoding: nasty))
        #expect(reply.text == (try RawJSON(encoding: nasty)).text)
        let wrong = try await fixture.view.callFunctionReturningString(
            DirectDelivery.body,
            strings: DirectDelivery.arguments(origin: "https://app.example", secret: String(session.secret.reversed()),
                                              frames: #"[{"t":"event","n":"note","d":"forged"}]"#),
            in: .page)
        #expect(wrong == nil)
        try fixture.bridge.emit("note", data: "real")
        let seen = try await fixture.view.callAsyncJavaScript("await window.noted; return window.seen")
        #expect(seen == ["echo", "note real"])
    }
}
