import Foundation
import Testing
@testable import HybridShellCore

/// The bridge's own logic — sessions, queueing before ready, resets, every dialect's decoding and
/// every limit — driven through ``FakeBridgeEngine``: no WebKit, no display, no waiting on pages.
@Suite(.timeLimit(.minutes(1)))
@EngineActor
struct BridgeLogicTests {
    // Session ids are 32 lowercase hex digits, as the relay makes them.
    static let a1 = "a1" + String(repeating: "0", count: 30)
    static let e1 = "e1" + String(repeating: "0", count: 30)
    static let unknown = String(repeating: "f", count: 32)
    let engine = FakeBridgeEngine()
    let bridge: Bridge
    /// Names of handlers that ran, in order.
    let ran = Recorder()

    init() throws {
        var configuration = BridgeConfiguration(originPolicy: OriginPolicy(patterns: [try OriginPattern(parsing: "https://app.example")]))
        configuration.maxPayload = 4_096
        configuration.maxDepth = 8
        configuration.defaultTimeout = .seconds(10)
        bridge = Bridge(engine: engine, configuration: configuration)
        let ran = self.ran
        bridge.handlers.register("sum") { (input: [Int]) -> Int in
            Task { @EngineActor in ran.add("sum") }
            return input.reduce(0, +)
        }
        bridge.handlers.registerRaw("dialect", sync: { _, call in
            Task { @EngineActor in ran.add("dialect") }
            return RawJSON(unchecked: JSONValue.quoted(call.dialect.rawValue))
        })
    }

    private func frames(_ answer: ScriptMessageReply.Answer) throws -> [JSONValue] {
        guard case .value(let text) = answer else { throw ShellError.invalidArgument("the post was rejected: \(answer)") }
        return try #require(try JSONValue(parsing: text).arrayValue)
    }

    private func ready(_ session: String = Self.a1) async throws {
        let reply = try frames(await engine.hello(session: session, url: "https://app.example/index.html", origin: "https://app.example"))
        #expect(reply.first?["t"] == "ready")
    }

    // MARK: Sessions

    @Test func helloFromTheAllowedOriginGetsReadyWithTheConfiguredLimits() async throws {
        let reply = try frames(await engine.hello(session: Self.a1, url: "https://app.example/", origin: "https://app.example"))
        #expect(reply.count == 1)
        #expect(reply[0]["t"] == "ready")
        #expect(reply[0]["session"] == .string(Self.a1))
        #expect(reply[0]["limits"]?["maxPayload"] == .number(4_096))
        #expect(bridge.currentSession?.allowed == true)
        #expect(bridge.currentSession?.origin == "https://app.example")
    }

    @Test func anotherOriginIsDeniedAndItsCallsNeverRun() async throws {
        let reply = try frames(await engine.hello(session: Self.e1, url: "https://evil.example/", origin: "https://evil.example"))
        #expect(reply.first?["t"] == "denied")
        #expect(reply.first?["code"] == "DENIED")
        let call = try frames(await engine.send(Self.e1, #"[{"t":"call","id":1,"h":"sum","d":[1,2]}]"#))
        #expect(call.first?["t"] == "error")
        #expect(call.first?["code"] == "DENIED")
        #expect(ran.names.isEmpty)
    }

    @Test func aPostForAnUnknownOrEndedSessionIsRefusedWithReset() async throws {
        let unknown = try frames(await engine.send(Self.unknown, #"[{"t":"call","id":1,"h":"sum","d":[1]}]"#))
        #expect(unknown.first?["code"] == "BRIDGE_RESET")
        try await ready()
        engine.emit(.loadCommitted(url: "https://app.example/next.html"))
        let ended = try frames(await engine.send(Self.a1, #"[{"t":"call","id":2,"h":"sum","d":[1]}]"#))
        #expect(ended.first?["code"] == "BRIDGE_RESET")
        #expect(ran.names.isEmpty)
    }

    @Test func helloIsOnlyValidAsASessionsFirstPost() async throws {
        try await ready()
        let again = try frames(await engine.hello(session: Self.a1, url: "https://app.example/", origin: "https://app.example"))
        #expect(again.first?["code"] == "INVALID_MESSAGE")
    }

    // MARK: The direct post (PostTransport)

    /// The page world's handler is reachable from every frame: only the session's secret admits a
    /// post there, the session id does not, and no hello is taken from it, whatever it claims.
    @Test func directPostsNeedTheSecretAndNeverSayHello() async throws {
        let forgedHello = #"[{"t":"hello","url":"https://app.example/","origin":"https://app.example","secret":"\#(FakeBridgeEngine.secret)","dialects":["hybrid"]}]"#
        let hello = try frames(await engine.sendDirect(Self.a1, forgedHello))
        #expect(hello.first?["code"] == "INVALID_MESSAGE")
        #expect(hello.first?["message"] == "hello is only valid from the relay")
        #expect(bridge.currentSession == nil)

        try await ready()
        let call = #"[{"t":"call","id":1,"h":"sum","d":[1,2]}]"#
        for credential in [Self.a1, Self.unknown, String(FakeBridgeEngine.secret.dropLast()) + "0"] {
            let refused = try frames(await engine.sendDirect(credential, call))
            #expect(refused.first?["code"] == "BRIDGE_RESET", "credential \(credential)")
        }
        #expect(ran.names.isEmpty)
        let replayedHello = try frames(await engine.sendDirect(FakeBridgeEngine.secret, forgedHello))
        #expect(replayedHello.first?["code"] == "INVALID_MESSAGE")
        #expect(bridge.currentSession?.id == Self.a1)

        let answered = try frames(await engine.sendDirect(FakeBridgeEngine.secret, call))
        #expect(answered.first?["t"] == "reply")
        #expect(answered.first?["d"] == 3)
        // The relay's handler does not take the secret in place of the session id either.
        let viaRelay = try frames(await engine.send(FakeBridgeEngine.secret, call))
        #expect(viaRelay.first?["code"] == "BRIDGE_RESET")
    }

    /// A denied document's secret opens nothing, and a new document ends the old secret.
    @Test func directPostsFollowTheSessionsFate() async throws {
        _ = await engine.hello(session: Self.e1, url: "https://evil.example/", origin: "https://evil.example")
        let denied = try frames(await engine.sendDirect(FakeBridgeEngine.secret, #"[{"t":"call","id":1,"h":"sum","d":[1]}]"#))
        #expect(denied.first?["code"] == "DENIED")
        _ = await engine.hello(session: Self.a1, url: "https://app.example/", origin: "https://app.example", secret: "0123456789abcdef0123456789abcdef")
        let stale = try frames(await engine.sendDirect(FakeBridgeEngine.secret, #"[{"t":"call","id":2,"h":"sum","d":[1]}]"#))
        #expect(stale.first?["code"] == "BRIDGE_RESET")
        let current = try frames(await engine.sendDirect("0123456789abcdef0123456789abcdef", #"[{"t":"call","id":3,"h":"sum","d":[4]}]"#))
        #expect(current.first?["d"] == 4)
    }

    // MARK: Native → page

    @Test func nativeCallsMadeBeforeReadyWaitAndLeaveInOrder() async throws {
        let first = Task { @EngineActor in try await bridge.callRaw("page.first", with: RawJSON(unchecked: "1")) }
        let second = Task { @EngineActor in try await bridge.callRaw("page.second", with: RawJSON(unchecked: "2")) }
        await Task.yield()
        #expect(engine.deliveries.isEmpty)
        try await ready()
        try await engine.waitUntil("the queued calls") { engine.deliveries.count >= 1 }
        let delivered = try #require(try JSONValue(parsing: engine.deliveries[0].frames).arrayValue)
        #expect(delivered.map { $0["h"] } == ["page.first", "page.second"])
        #expect(engine.deliveries[0].session == Self.a1)
        _ = await engine.send(Self.a1, #"[{"t":"reply","id":1,"ok":true,"d":"one"},{"t":"reply","id":2,"ok":true,"d":"two"}]"#)
        #expect(try await first.value.text == #""one""#)
        #expect(try await second.value.text == #""two""#)
    }

    @Test func aNavigationSettlesPendingNativeCallsWithReset() async throws {
        try await ready()
        let call = Task { @EngineActor in try await bridge.callRaw("page.slow") }
        try await engine.waitUntil("the call's delivery") { !engine.deliveries.isEmpty }
        engine.emit(.loadCommitted(url: "https://app.example/other.html"))
        do {
            _ = try await call.value
            Issue.record("the call should have failed")
        } catch let error as BridgeError {
            #expect(error.code == .bridgeReset)
        }
    }

    @Test func aCrashedWebProcessSettlesPendingNativeCallsWithReset() async throws {
        try await ready()
        let call = Task { @EngineActor in try await bridge.callRaw("page.slow") }
        try await engine.waitUntil("the call's delivery") { !engine.deliveries.isEmpty }
        engine.emit(.webProcessTerminated(.crashed))
        do {
            _ = try await call.value
            Issue.record("the call should have failed")
        } catch let error as BridgeError {
            #expect(error.code == .bridgeReset)
        }
    }

    // MARK: Dialects

    @Test func hybridCallIsAnsweredInItsPostsReply() async throws {
        try await ready()
        let reply = try frames(await engine.send(Self.a1, #"[{"t":"call","id":7,"h":"sum","d":[1,2,3],"dl":"hybrid"}]"#))
        #expect(reply == [["t": "reply", "id": 7, "ok": true, "d": 6]])
    }

    @Test func unknownHandlerRejectsWithNotFound() async throws {
        try await ready()
        let reply = try frames(await engine.send(Self.a1, #"[{"t":"call","id":1,"h":"nope","d":null}]"#))
        #expect(reply.first?["ok"] == false)
        #expect(reply.first?["e"]?["code"] == "NOT_FOUND")
    }

    @Test func wxCallsCarryTheirDialect() async throws {
        try await ready()
        let reply = try frames(await engine.send(Self.a1, #"[{"t":"call","id":1,"h":"dialect","d":null,"dl":"wx"}]"#))
        #expect(reply.first?["d"] == "wx")
    }

    @Test func dsbridgePromptWithTheSessionSecretRunsTheHandler() async throws {
        try await ready()
        let answer = await engine.dialog(ScriptDialog(kind: .prompt, message: "_hybridshell_ds=\(FakeBridgeEngine.secret):sum", defaultText: #"{"data":[4,5]}"#))
        #expect(answer == .prompt(#"{"code":0,"data":9}"#))
    }

    @Test func dsbridgePromptWithoutTheSecretIsDenied() async throws {
        try await ready()
        let forged = await engine.dialog(ScriptDialog(kind: .prompt, message: "_hybridshell_ds=guess:sum", defaultText: #"{"data":[1]}"#))
        let plain = await engine.dialog(ScriptDialog(kind: .prompt, message: "_dsbridge=sum", defaultText: #"{"data":[1]}"#))
        for answer in [forged, plain] {
            guard case .prompt(let text?)? = answer else { Issue.record("no answer: \(String(describing: answer))"); continue }
            #expect(try JSONValue(parsing: text)["errorCode"] == "DENIED")
        }
        #expect(ran.names.isEmpty)
    }

    @Test func ordinaryPromptsAreLeftToThePage() async throws {
        try await ready()
        #expect(await engine.dialog(ScriptDialog(kind: .prompt, message: "Your name?", defaultText: "")) == nil)
    }

    @Test func webViewJavascriptBridgeQueueIsReadAndEachMessageAnswered() async throws {
        try await ready()
        engine.evaluate = { script in
            script.contains("_fetchQueue") ? .string(#"[{"handlerName":"sum","data":[2,3],"callbackId":"cb_1"},{"handlerName":"dialect","callbackId":"cb_2"}]"#) : .null
        }
        #expect(engine.navigate("https://__wvjb_queue_message__/") == .cancel)
        try await engine.waitUntil("the two WVJB answers") { engine.calls.count >= 2 }
        let responses = try engine.calls.map { call -> JSONValue in
            try JSONValue(parsing: try #require(call.arguments["message"]?.stringValue))
        }
        #expect(responses.contains(["responseId": "cb_1", "responseData": 5]))
        #expect(responses.contains(["responseId": "cb_2", "responseData": "wvjb"]))
    }

    @Test func webViewJavascriptBridgeURLsNeverLoadAndOthersAreNotTheBridges() async throws {
        #expect(engine.navigate("wvjbscheme://__BRIDGE_LOADED__") == .cancel)
        #expect(engine.navigate("https://example.org/") == nil)
    }

    // MARK: Limits

    @Test func aPostLongerThanTheLimitIsRefusedWhole() async throws {
        try await ready()
        let big = String(repeating: "x", count: 8_000)
        let reply = try frames(await engine.send(Self.a1, #"[{"t":"call","id":1,"h":"sum","d":"\#(big)"}]"#))
        #expect(reply.first?["code"] == "PAYLOAD_TOO_LARGE")
        #expect(ran.names.isEmpty)
    }

    @Test(arguments: [
        (#"[{"t":"call","id":1,"h":"sum","d":[1],"d":[2]}]"#, "duplicate key"),
        (#"[{"t":"call","id":1,"h":"sum","d":{"__proto__":{"x":1}}}]"#, "__proto__"),
        (#"[{"t":"call","id":1,"h":"sum","d":[1,]}]"#, "INVALID_MESSAGE"),
        (#"[{"t":"call","id":1,"h":"sum","d":[[[[[[[[[[[[1]]]]]]]]]]]]}]"#, "INVALID_MESSAGE"),
    ])
    func malformedPostsAreRefusedAndNoHandlerRuns(frames text: String, expected: String) async throws {
        try await ready()
        let answer = await engine.send(Self.a1, text)
        guard case .value(let reply) = answer else { Issue.record("rejected: \(answer)"); return }
        #expect(reply.contains(expected) || reply.contains("INVALID_MESSAGE"), "\(reply)")
        #expect(reply.contains("\"ok\":true") == false, "\(reply)")
        #expect(ran.names.isEmpty)
    }

    @Test func aPostThatIsNotTextIsRefused() async throws {
        try await ready()
        let reply = try frames(await engine.post("{}", isString: false))
        #expect(reply.first?["code"] == "INVALID_MESSAGE")
    }

    @Test func aResultLargerThanTheLimitBecomesAnError() async throws {
        bridge.handlers.registerRaw("big", sync: { _, _ in RawJSON(unchecked: JSONValue.quoted(String(repeating: "y", count: 5_000))) })
        try await ready()
        let reply = try frames(await engine.send(Self.a1, #"[{"t":"call","id":3,"h":"big","d":null}]"#))
        #expect(reply.first?["e"]?["code"] == "PAYLOAD_TOO_LARGE")
    }
}

/// Collects names from handlers (which run on the engine actor).
@EngineActor
final class Recorder {
    private(set) var names: [String] = []
    func add(_ name: String) { names.append(name) }
}

/// A closing document's last calls reach Swift even when dispatch is sliced (issue 11's flood
/// slicing once left them in a backlog that the session's end then dropped).
@Suite(.timeLimit(.minutes(1)))
@EngineActor
struct ClosingDocumentTests {
    @Test func callsAnsweringTheUnloadDeliveryAllRunBeforeItReturns() async throws {
        let engine = FakeBridgeEngine()
        var configuration = BridgeConfiguration(originPolicy: OriginPolicy(patterns: [try OriginPattern(parsing: "https://app.example")]))
        configuration.dispatchSlice = .zero  // every turn's budget is spent at once: the backlog path
        let bridge = Bridge(engine: engine, configuration: configuration)
        let seen = Recorder()
        let all = Handoff<Void>()
        bridge.handlers.registerRaw("seen", sync: { _, _ in
            Task { @EngineActor in
                seen.add("seen")
                if seen.names.count == 200 { all.fulfill(()) }
            }
            return .null
        })
        let session = "c1" + String(repeating: "0", count: 30)
        _ = await engine.hello(session: session, url: "https://app.example/", origin: "https://app.example")
        // The page's unload handlers make 200 calls while the delivery is handled.
        let calls = (1...200).map { #"{"t":"call","id":\#($0),"h":"seen","d":null}"# }.joined(separator: ",")
        // Only the unload delivery: the replies to those calls are deliveries too, and a page that
        // answered each with 200 more calls would never let the bridge rest.
        engine.answerDelivery = { _, frames in frames.contains(#""n":"unload""#) ? "[" + calls + "]" : nil }
        await bridge.emitAndWait("unload", timeout: .seconds(10))
        bridge.endSession()
        // Handlers that ran report through tasks; those dropped never will.
        _ = try? await all.value(timeout: .seconds(5), "every call's handler")
        #expect(seen.names.count == 200)
    }
}

/// A slice whose budget is spent before its first frame still handles some (64 frames at least):
/// a slice that handled none was rescheduled with the same work, forever, and held the main loop.
@Suite(.timeLimit(.minutes(1)))
@EngineActor
struct ZeroBudgetSliceTests {
    @Test func postsStillCompleteWhenEverySliceIsOverBudgetAtOnce() async throws {
        let engine = FakeBridgeEngine()
        var configuration = BridgeConfiguration(originPolicy: OriginPolicy(patterns: [try OriginPattern(parsing: "https://app.example")]))
        configuration.dispatchSlice = .zero
        let bridge = Bridge(engine: engine, configuration: configuration)
        let seen = Recorder()
        bridge.handlers.registerRaw("seen", sync: { _, _ in
            Task { @EngineActor in seen.add("seen") }
            return .null
        })
        let session = "c2" + String(repeating: "0", count: 30)
        _ = await engine.hello(session: session, url: "https://app.example/", origin: "https://app.example")
        // Fire-and-forget calls (no id wait): 300 in one post, then 10 more in a second post.
        let first = (1...300).map { #"{"t":"call","id":\#($0),"h":"seen","d":null}"# }.joined(separator: ",")
        let second = (301...310).map { #"{"t":"call","id":\#($0),"h":"seen","d":null}"# }.joined(separator: ",")
        async let one = engine.send(session, "[" + first + "]")
        async let two = engine.send(session, "[" + second + "]")
        _ = await (one, two)
        try await engine.waitUntil("every call's handler", timeout: .seconds(20)) { seen.names.count == 310 }
        withExtendedLifetime(bridge) {}
    }
}

/// A delivery's answer (the up-frames the relay hands back) is read as strictly as a post: a
/// malformed one is refused and recorded, dispatches nothing, and the next good one still works.
@Suite(.timeLimit(.minutes(1)))
@EngineActor
struct DeliveryAnswerTests {
    @Test func malformedAnswersAreRefusedAndRecordedAndTheNextOneWorks() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("answers-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let engine = FakeBridgeEngine()
        let bridge = Bridge(engine: engine, configuration: BridgeConfiguration(
            originPolicy: OriginPolicy(patterns: [try OriginPattern(parsing: "https://app.example")])))
        bridge.transcript = try BridgeTranscript(path: log)
        let session = "c3" + String(repeating: "0", count: 30)
        _ = await engine.hello(session: session, url: "https://app.example/", origin: "https://app.example")
        let bad = [
            #"[{"t":"reply","id":1,"ok":true,"d":1}"#,            // cut short
            #"{"v":1,"s":"x","m":[]}"#,                          // an envelope, not a frames array
            #"[{"t":"reply","id":1,"ok":true,"d":1}] trailing"#, // text after the array
            String(repeating: "[", count: 100_000),              // deeper than any limit
        ]
        var answers = bad.map(Optional.some)
        engine.answerDelivery = { _, frames in
            guard let id = try? JSONValue(parsing: frames).arrayValue?.first?["id"]?.intValue else { return nil }
            let next = answers.isEmpty ? nil : answers.removeFirst()
            return next ?? #"[{"t":"reply","id":\#(id),"ok":true,"d":"fine"}]"#
        }
        for _ in bad {
            await #expect(throws: BridgeError.self) { try await bridge.callRaw("page.x", timeout: .milliseconds(300)) }
        }
        #expect(try await bridge.callRaw("page.x", timeout: .seconds(5)).text == #""fine""#)
        let refused = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .map { try JSONValue(parsing: String($0)) }
            .filter { $0["kind"]?.stringValue == "delivery-answer" }
        #expect(refused.count == bad.count)
        #expect(refused.allSatisfy { $0["outcome"]?.stringValue?.hasPrefix("refused: ") == true })
    }
}
