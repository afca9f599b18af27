import Foundation
import HybridShell
import Testing

/// Issue 11, items 3, 6 and 8: every dialect applies the same limits and records every call;
/// one bad message in a WebViewJavascriptBridge queue never takes its neighbours down.
@Suite("Bridge limits in every dialect, in real WebKit", .serialized)
@EngineActor
struct LegacyLimitsTests {
    @Test func dataNests512LevelsInEveryDialectAndDeeperIsRefusedNamingTheLimit() async throws {
        let fixture = try BridgeFixture()
        defer { fixture.close() }
        let report = try await fixture.run("depth.html")
        #expect(report["error"] == nil, "page error: \(report["error"]?.jsonText ?? "")")
        #expect(failedChecks(report) == [])
        #expect((report["checks"]?.objectValue?.count ?? 0) >= 14)
    }

    @Test func eachMalformedQueueMessageGetsItsOwnErrorAndValidNeighboursRun() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("wvjb-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let fixture = try BridgeFixture { $0.maxPayload = 1000 }
        defer { fixture.close() }
        fixture.bridge.transcript = try BridgeTranscript(path: log)
        let ready = Handoff<Bool>()
        fixture.bridge.observe { event in if case .ready = event { ready.fulfill(true) } }
        fixture.view.load(Fixtures.pageURL("bridge/hybrid.html"))
        _ = try await ready.value()
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let messages = [
            #"{"handlerName":"echo","data":"first","callbackId":"cb1"}"#,
            #"{"handlerName":"echo","data":1,"data":2,"callbackId":"cb2"}"#,
            #"{"handlerName":"echo","data":{"__proto__":{"x":1}},"callbackId":"cb3"}"#,
            #"{"handlerName":"echo","data":"# + deep + #","callbackId":"cb4"}"#,
            #"{"handlerName":"echo","data":""# + String(repeating: "x", count: 2000) + #"","callbackId":"cb5"}"#,
            #"{"handlerName":"echo","data":"no callback"}"#,
            #"{"handlerName":"echo","data":[1,],"callbackId":"cb7"}"#,
            #"{"handlerName":"echo","data":"last","callbackId":"cb8"}"#,
        ]
        let received = try await exchangeQueue("[" + messages.joined(separator: ",") + "]", on: fixture, expecting: 7)
        let responses = try received.map { try JSONParser().parse($0) }
        func response(_ id: String) -> JSONValue? { responses.first { $0["responseId"] == .string(id) }?["responseData"] }
        #expect(response("cb1") == "first")
        #expect(response("cb8") == "last")
        #expect(response("cb2")?["error"]?["code"] == "INVALID_MESSAGE")
        #expect(response("cb3")?["error"]?["code"] == "INVALID_MESSAGE")
        #expect(response("cb4")?["error"]?["code"] == "INVALID_MESSAGE")
        #expect(response("cb4")?["error"]?["message"]?.stringValue?.hasPrefix("data nests deeper than 512 levels") == true)
        #expect(response("cb5")?["error"]?["code"] == "PAYLOAD_TOO_LARGE")
        #expect(response("cb5")?["error"]?["message"]?.stringValue?.contains("the limit is 1000") == true)
        #expect(response("cb7")?["error"]?["code"] == "INVALID_MESSAGE")
        #expect(responses.count == 7)
        let entries = try transcript(log).filter { $0["kind"] == "wvjb-queue" }
        #expect(entries.count == messages.count, "every message is recorded, the one without a callback too")
        #expect(entries.filter { $0["outcome"] == "ok" }.count == 3)
    }

    @Test func deniedCallsAndRefusedDsbridgeCallsAreRecorded() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("denied-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let fixture = try BridgeFixture(policy: OriginPolicy(patterns: [try OriginPattern(parsing: "https://allowed.example")]))
        defer { fixture.close() }
        fixture.bridge.transcript = try BridgeTranscript(path: log)
        let denied = Handoff<Bool>()
        fixture.bridge.observe { event in if case .denied = event { denied.fulfill(true) } }
        try await loadHTML(fixture.view, "<title>denied</title>")
        _ = try await denied.value()
        let session = try #require(fixture.bridge.currentSession?.id)
        // A forged call from the isolated world (page.js itself never posts once denied).
        let call = #"{"v":1,"s":"\#(session)","m":[{"t":"call","id":7,"h":"echo","d":1}]}"#
        _ = try await fixture.view.callAsyncJavaScript(
            "return await webkit.messageHandlers.hybridshell.postMessage(text)", arguments: ["text": .string(call)],
            in: .isolated("hybridshell"))
        // dsbridge's bare prompt from a frame (page.js is only in the top frame), and one with a
        // wrong secret.
        _ = try await fixture.view.callAsyncJavaScript(#"""
            const frame = document.body.appendChild(document.createElement('iframe'));
            frame.contentWindow.prompt('_dsbridge=echo', '{"data":1}');
            prompt('_hybridshell_ds=00000000000000000000000000000000:echo', '{"data":2}');
            return true;
            """#)
        let entries = try transcript(log)
        #expect(entries.contains { $0["kind"] == "call" && $0["handler"] == "echo" && $0["id"] == 7 && $0["outcome"] == "denied" })
        #expect(entries.filter { $0["kind"] == "dsbridge-sync" && $0["handler"] == "echo" && $0["outcome"] == "denied" }.count == 2)
    }

    /// Lets the page's own WebViewJavascriptBridge hand native `queue` through the URL ping and
    /// returns the responses native sent back.
    private func exchangeQueue(_ queue: String, on fixture: BridgeFixture, expecting count: Int) async throws -> [String] {
        _ = try await fixture.view.callAsyncJavaScript("""
            window.received = [];
            window.WebViewJavascriptBridge = {
              _fetchQueue() { const text = queue; queue = '[]'; return text; },
              _handleMessageFromObjC(message) { window.received.push(message); }
            };
            var queue = fetchQueue;
            const ping = document.createElement('iframe');
            ping.src = 'https://__wvjb_queue_message__';
            document.body.appendChild(ping);
            """, arguments: ["fetchQueue": .string(queue)])
        var received: [String] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while received.count < count, ContinuousClock.now < deadline {
            let value = try await fixture.view.callAsyncJavaScript(
                "await new Promise(r => setTimeout(r, 10)); return window.received")  // a JS-side wait, bounded above
            received = value.arrayValue?.compactMap(\.stringValue) ?? []
        }
        // Anything that would come late (a response to the message without a callback) has had time.
        let settled = try await fixture.view.callAsyncJavaScript(
            "await new Promise(r => setTimeout(r, 200)); return window.received")
        return settled.arrayValue?.compactMap(\.stringValue) ?? []
    }

    private func transcript(_ path: String) throws -> [JSONValue] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }
}
