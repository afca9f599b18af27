import HybridShell
import Synchronization
import Testing

/// Per-document sessions: queueing before ready, BRIDGE_RESET on navigation, reload and a web
/// process that goes away, deadlines, and nothing delivered into the next document.
@Suite("Bridge sessions and deadlines")
@EngineActor
struct BridgeSessionTests {
    static let local = OriginPolicy(patterns: [try! OriginPattern(parsing: "http://localhost")])

    func fixture(timeout: Duration = .seconds(30)) throws -> BridgeFixture {
        try BridgeFixture(policy: Self.local, timeout: timeout)
    }

    func readyExpectation(_ fixture: BridgeFixture) -> Handoff<String> {
        let ready = Handoff<String>()
        fixture.bridge.observe { if case .ready(let session, _, _) = $0 { ready.fulfill(session) } }
        return ready
    }

    @Test func nativeCallMadeBeforeTheDocumentExistsIsQueuedUntilReady() async throws {
        let fixture = try fixture()
        defer { fixture.close() }
        let answer = Task { @EngineActor in try await fixture.bridge.call("page.greet", with: "early", as: String.self) }
        fixture.view.load(html: "<script>hybrid.register('page.greet', name => 'hello ' + name)</script>", baseURL: "http://localhost/")
        #expect(try await answer.value == "hello early")
    }

    @Test func pageCallsMadeBeforeReadyArriveInOrder() async throws {
        let fixture = try fixture()
        defer { fixture.close() }
        let seen = Mutex<[Int]>([])
        fixture.bridge.handlers.register("record") { (value: Int) -> Int in
            seen.withLock { $0.append(value) }
            return value
        }
        let done = Handoff<Bool>()
        fixture.bridge.handlers.register("finished") { (_: JSONValue) -> Bool in
            Task { @EngineActor in done.fulfill(true) }
            return true
        }
        // These run before the handshake completes: they must queue, not drop.
        fixture.view.load(html: "<script>for (let i = 0; i < 50; i++) hybrid.call('record', i); hybrid.call('finished')</script>",
                          baseURL: "http://localhost/")
        _ = try await done.value()
        #expect(seen.withLock { $0 } == Array(0..<50))
    }

    @Test func thousandCallsInOneTickKeepTheirOrderAndAllSettle() async throws {
        let fixture = try fixture()
        defer { fixture.close() }
        let seen = Mutex<[Int]>([])
        fixture.bridge.handlers.register("record") { (value: Int) -> Int in
            seen.withLock { $0.append(value) }
            return value * 2
        }
        let ready = readyExpectation(fixture)
        try await loadHTML(fixture.view, "<p>x</p>")
        _ = try await ready.value()
        let results = try await fixture.view.callAsyncJavaScript("""
            const calls = [];
            for (let i = 0; i < 1000; i++) calls.push(hybrid.call('record', i));
            return await Promise.all(calls);
            """)
        #expect(results == .array((0..<1000).map { .number(Double($0 * 2)) }))
        #expect(seen.withLock { $0 } == Array(0..<1000))
    }

    @Test func navigationSettlesPendingCallsBothWaysWithBridgeReset() async throws {
        let fixture = try fixture()
        defer { fixture.close() }
        let handlerStarted = Handoff<Bool>()
        let handlerCancelled = Handoff<Bool>()
        fixture.bridge.handlers.register("forever") { (_: JSONValue) async throws -> String in
            Task { @EngineActor in handlerStarted.fulfill(true) }
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                Task { @EngineActor in handlerCancelled.fulfill(true) }
                throw error
            }
            return "too late"
        }
        let ready = readyExpectation(fixture)
        try await loadHTML(fixture.view, "<script>hybrid.register('page.never', () => new Promise(() => {})); hybrid.call('forever')</script>")
        let firstSession = try await ready.value()
        let nativeCall = Task { @EngineActor in
            try await fixture.bridge.callRaw("page.never")
        }
        _ = try await handlerStarted.value()
        let next = Handoff<String>()
        fixture.bridge.observe { if case .ready(let session, _, _) = $0, session != firstSession { next.fulfill(session) } }
        fixture.view.load(html: "<title>next</title><script>window.stray = []; hybrid.on('event', d => window.stray.push(d))</script>",
                          baseURL: "http://localhost/")
        await #expect(throws: BridgeError.self) { _ = try await nativeCall.value }
        do { _ = try await nativeCall.value } catch let error as BridgeError { #expect(error.code == .bridgeReset) }
        #expect(try await handlerCancelled.value())
        _ = try await next.value()
        // The next document has its own session and got nothing of the old one.
        #expect(fixture.bridge.currentSession?.id != firstSession)
        #expect(try await fixture.view.evaluateJavaScript("window.stray.length") == 0)
    }

    @Test func reloadAndTerminatedProcessResetTheSession() async throws {
        // A real URL: WebKit does not reload a document that came from load(html:).
        let fixture = try BridgeFixture()
        defer { fixture.close() }
        let endings = Mutex<[String]>([])
        fixture.bridge.observe { if case .ended(_, let reason) = $0 { endings.withLock { $0.append(reason) } } }
        let firstReady = readyExpectation(fixture)
        #expect(try await load(fixture.view, Fixtures.pageURL("engine/frames.html")))
        _ = try await firstReady.value()
        _ = try await fixture.view.evaluateJavaScript("hybrid.register('page.never', () => new Promise(() => {})); 0")
        let pending = Task { @EngineActor in try await fixture.bridge.callRaw("page.never") }
        let ready = readyExpectation(fixture)
        fixture.view.reload()
        do { _ = try await pending.value; Issue.record("expected BRIDGE_RESET") } catch let error as BridgeError { #expect(error.code == .bridgeReset) }
        _ = try await ready.value()
        _ = try await fixture.view.evaluateJavaScript(
            "hybrid.register('page.never', () => { console.log('page.never called'); return new Promise(() => {}) }); 0")
        let received = PageEventExpectation(fixture.view) { event -> Bool? in
            if case .console(let message) = event, message.text == "page.never called" { return true }
            return nil
        }
        let afterReload = Task { @EngineActor in try await fixture.bridge.callRaw("page.never") }
        _ = try await received.value(timeout: .seconds(30), "the call in the page")
        let terminated = PageEventExpectation(fixture.view) { if case .webProcessTerminated = $0 { return true } else { return nil } }
        fixture.view.terminateWebProcess()
        _ = try await terminated.value(timeout: .seconds(30))
        do { _ = try await afterReload.value; Issue.record("expected BRIDGE_RESET") } catch let error as BridgeError {
            #expect(error.code == .bridgeReset)
            #expect(error.message.contains("web process"))
        }
        #expect(endings.withLock { $0 }.contains { $0.contains("navigated") })
    }

    @Test func deadlinesOnBothSides() async throws {
        let fixture = try fixture(timeout: .seconds(30))
        defer { fixture.close() }
        let cancelled = Handoff<Bool>()
        fixture.bridge.handlers.register("slowNative") { (_: JSONValue) async throws -> String in
            do { try await Task.sleep(for: .seconds(30)) } catch {
                Task { @EngineActor in cancelled.fulfill(true) }
                throw error
            }
            return "late"
        }
        let ready = readyExpectation(fixture)
        try await loadHTML(fixture.view, "<script>hybrid.register('page.slow', () => new Promise(() => {}))</script>")
        _ = try await ready.value()
        let pageSide = try await fixture.view.callAsyncJavaScript(
            "return await hybrid.call('slowNative', null, {timeout: 100}).then(() => 'ok', e => e.code)")
        #expect(pageSide == "TIMEOUT")
        #expect(try await cancelled.value(timeout: .seconds(30), "the cancelled native handler"))
        do {
            _ = try await fixture.bridge.callRaw("page.slow", timeout: .milliseconds(100))
            Issue.record("expected TIMEOUT")
        } catch {
            #expect(error.code == .timeout)
        }
    }
}
