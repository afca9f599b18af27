import HybridShell
import Testing

@Suite("Bridge handler registry and native → page calls")
@EngineActor
struct BridgeHandlerTests {
    struct Point: Codable, Equatable, Sendable { var x: Double; var y: Double }

    func readyFixture(_ configure: (inout BridgeConfiguration) -> Void = { _ in }) async throws -> BridgeFixture {
        let fixture = try BridgeFixture(policy: OriginPolicy(patterns: [try OriginPattern(parsing: "http://localhost")]), configure: configure)
        let ready = Handoff<Bool>()
        fixture.bridge.observe { if case .ready = $0 { ready.fulfill(true) } }
        try await loadHTML(fixture.view, "<p>x</p>")
        _ = try await ready.value()
        return fixture
    }

    func pageCall(_ fixture: BridgeFixture, _ expression: String) async throws -> JSONValue {
        try await fixture.view.callAsyncJavaScript(
            "return await (\(expression)).then(v => ({ok: v}), e => ({code: e.code, message: e.message}))")
    }

    @Test func typedSyncAndAsyncHandlers() async throws {
        let fixture = try await readyFixture()
        defer { fixture.close() }
        let handlers = fixture.bridge.handlers
        handlers.register("point.mirror") { (point: Point) in Point(x: -point.x, y: -point.y) }
        handlers.register("point.length") { (point: Point) async throws -> Double in
            try await Task.sleep(for: .milliseconds(1))
            return (point.x * point.x + point.y * point.y).squareRoot()
        }
        #expect(try await pageCall(fixture, "hybrid.call('point.mirror', {x: 1, y: -2})") == ["ok": ["x": -1, "y": 2]])
        #expect(try await pageCall(fixture, "hybrid.call('point.length', {x: 3, y: 4})") == ["ok": 5])
        let mismatch = try await pageCall(fixture, "hybrid.call('point.mirror', 'not a point')")
        #expect(mismatch["code"] == "INVALID_MESSAGE")
        #expect(handlers.hasHandler("point.mirror"))
        handlers.unregister("point.mirror")
        #expect(!handlers.hasHandler("point.mirror"))
        let gone = try await pageCall(fixture, "hybrid.call('point.mirror', {x: 1, y: 2})")
        #expect(gone["code"] == "NOT_FOUND")
        #expect(gone["message"]?.stringValue?.contains("point.mirror") == true)
    }

    @Test func throwingHandlerIsAHandlerErrorWithItsMessage() async throws {
        struct Refusal: Error, CustomStringConvertible { var description: String { "the printer is on fire" } }
        let fixture = try await readyFixture()
        defer { fixture.close() }
        fixture.bridge.handlers.register("print") { (_: String) throws -> Bool in throw Refusal() }
        fixture.bridge.handlers.register("deny") { (_: String) throws -> Bool in
            throw BridgeError(.denied, "not for you", details: ["reason": "policy"])
        }
        #expect(try await pageCall(fixture, "hybrid.call('print', 'x')") == ["code": "HANDLER_ERROR", "message": "the printer is on fire"])
        let denied = try await fixture.view.callAsyncJavaScript(
            "return await hybrid.call('deny', 'x').then(() => null, e => ({code: e.code, details: e.details, isError: e instanceof hybrid.HybridError}))")
        #expect(denied == ["code": "DENIED", "details": ["reason": "policy"], "isError": true])
    }

    @Test func streamingHandlerSendsProgressBeforeItsResult() async throws {
        let fixture = try await readyFixture()
        defer { fixture.close() }
        let result = try await fixture.view.callAsyncJavaScript("""
            const steps = [];
            const value = await hybrid.call('fixture.slow', null, {onProgress: p => steps.push(p.step)});
            return {steps, value};
            """)
        #expect(result == ["steps": [1, 2], "value": "done"])
    }

    @Test func nativeCallsPageHandlersAndEmitsEvents() async throws {
        let fixture = try await readyFixture()
        defer { fixture.close() }
        _ = try await fixture.view.evaluateJavaScript("""
            hybrid.register('page.add', ({a, b}) => a + b);
            hybrid.register('page.fail', () => { throw new Error('page says no') });
            hybrid.register('page.later', async (x) => { await null; return x + '!' });
            window.events = []; hybrid.on('weather', d => window.events.push(d)); 0
            """)
        #expect(try await fixture.bridge.call("page.add", with: ["a": 2, "b": 40] as JSONValue, as: Int.self) == 42)
        #expect(try await fixture.bridge.call("page.later", with: "soon", as: String.self) == "soon!")
        do {
            _ = try await fixture.bridge.callRaw("page.fail")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .handlerError)
            #expect(error.message.contains("page says no"))
        }
        do {
            _ = try await fixture.bridge.callRaw("page.missing")
            Issue.record("expected NOT_FOUND")
        } catch {
            #expect(error.code == .notFound)
        }
        try fixture.bridge.emit("weather", data: ["sky": "clear"] as JSONValue)
        try fixture.bridge.emit("weather", data: "rain" as JSONValue)
        _ = try await fixture.bridge.call("page.add", with: ["a": 0, "b": 0] as JSONValue, as: Int.self)  // after the pushes
        #expect(try await fixture.view.evaluateJavaScript("window.events") == [["sky": "clear"], "rain"])
    }

    @Test func payloadLimitsApplyOnBothSides() async throws {
        let fixture = try await readyFixture { $0.maxPayload = 1000 }
        defer { fixture.close() }
        fixture.bridge.handlers.register("big") { (size: Int) in String(repeating: "y", count: size) }
        #expect(try await pageCall(fixture, "hybrid.call('echo', 'x'.repeat(2000))")["code"] == "PAYLOAD_TOO_LARGE")
        #expect(try await pageCall(fixture, "hybrid.call('big', 2000)")["code"] == "PAYLOAD_TOO_LARGE")
        #expect(try await pageCall(fixture, "hybrid.call('big', 10)") == ["ok": "yyyyyyyyyy"])
        let deep = try await pageCall(fixture, "hybrid.call('echo', JSON.parse('['.repeat(513) + ']'.repeat(513)))")
        #expect(deep["code"] == "INVALID_MESSAGE")
        #expect(deep["message"] == "data nests deeper than 512 levels")
        let proto = try await pageCall(fixture, #"hybrid.call('echo', JSON.parse('{"__proto__": {"polluted": true}}'))"#)
        #expect(proto["code"] == "INVALID_MESSAGE")
    }

    @Test func builtinsAnswer() async throws {
        let fixture = try await readyFixture()
        defer { fixture.close() }
        let info = try await pageCall(fixture, "hybrid.call('system.info')")
        #expect(info["ok"]?["engine"] == "WebKitGTK")
        #expect(info["ok"]?["engineVersion"]?.stringValue == WebContext.engineVersion)
        #expect(info["ok"]?["userAgent"]?.stringValue == fixture.view.userAgent)
        #expect(info["ok"]?["os"] == "Linux")
        #expect(try await pageCall(fixture, "hybrid.call('log', {level: 'info', message: 'hello log'})") == ["ok": nil])
        #expect(try await pageCall(fixture, "hybrid.call('echo', {nested: [1, 'two', null]})") == ["ok": ["nested": [1, "two", nil]]])
    }
}
