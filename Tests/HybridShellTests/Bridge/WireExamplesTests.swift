import Foundation
import HybridShell
import Testing

/// The wire examples that need a real page (bridge-js/wire-examples.json): dsbridge's `prompt()`
/// gate and WebViewJavascriptBridge's queue exchange. The valid and invalid messages are checked
/// against the bridge without WebKit, in `HybridShellCoreTests/Bridge/WireExamplesLogicTests`.
@Suite("Wire examples against the real native bridge", .serialized)
@EngineActor
struct WireExamplesTests {
    static let examples: JSONValue = {
        let url = Fixtures.repository.appendingPathComponent("bridge-js/wire-examples.json")
        return try! JSONParser().parse(String(contentsOf: url, encoding: .utf8))
    }()

    /// A view whose current session is the examples' (its hello posted by hand).
    func fixture() async throws -> BridgeFixture {
        let origin = try OriginPattern(parsing: "https://app.example")
        // The examples are written for their own limits (maxDepth 64), not the defaults.
        let fixture = try BridgeFixture(policy: OriginPolicy(patterns: [origin, try OriginPattern(parsing: "http://localhost")])) {
            $0.maxDepth = Self.examples["limits"]?["maxDepth"]?.intValue ?? 64
        }
        try await loadHTML(fixture.view, "<title>wire</title>")
        let hello = try #require(Self.examples["valid"]?.arrayValue?.first { $0["name"] == "hello" })
        _ = try await post(hello["text"]!.stringValue!, to: fixture)
        return fixture
    }

    func post(_ text: String, to fixture: BridgeFixture) async throws -> JSONValue {
        let answer = try await fixture.view.callAsyncJavaScript(
            "return await webkit.messageHandlers.hybridshell.postMessage(text)", arguments: ["text": .string(text)],
            in: .isolated("hybridshell"))
        return try JSONParser().parse(try #require(answer.stringValue))
    }

    @Test func dsbridgePromptGateAnswersExactly() async throws {
        let fixture = try await fixture()
        defer { fixture.close() }
        let prompts = try #require(Self.examples["dsbridgePrompts"]?.arrayValue)
        #expect(!prompts.isEmpty)
        for example in prompts {
            let name = example["name"]?.stringValue ?? "?"
            let answer = try await fixture.view.callAsyncJavaScript(
                "return prompt(message, defaultText)",
                arguments: ["message": example["message"]!, "defaultText": example["defaultText"] ?? .null])
            if let expected = example["answer"] {
                #expect(answer == expected, "\(name)")
            } else {
                // Backslashes travel as U+0001 on this gate: the error's JSON reads once they are back.
                let parsed = try JSONParser().parse(try #require(answer.stringValue, "\(name)").replacingOccurrences(of: "\u{1}", with: "\\"))
                #expect(parsed["code"] == -1, "\(name)")
                #expect(parsed["data"] == .null, "\(name)")
                #expect(parsed["errorCode"] == example["errorCode"], "\(name): \(parsed.jsonText)")
            }
        }
    }

    @Test func wvjbQueueExchange() async throws {
        let fixture = try await fixture()
        defer { fixture.close() }
        let legacy = try #require(Self.examples["wvjbLegacy"])
        let expected = try #require(legacy["responses"]?.arrayValue)
        #expect(!expected.isEmpty)
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
            """, arguments: ["fetchQueue": legacy["fetchQueue"]!])
        var received: JSONValue = []
        let deadline = ContinuousClock.now + .seconds(10)
        while received.arrayValue?.count != expected.count, ContinuousClock.now < deadline {
            received = try await fixture.view.callAsyncJavaScript(
                "await new Promise(r => setTimeout(r, 10)); return window.received")  // a JS-side wait, bounded above
        }
        #expect(received.arrayValue?.count == expected.count)
        for (got, want) in zip(received.arrayValue ?? [], expected) {
            #expect(try JSONParser().parse(got.stringValue ?? "") == (try JSONParser().parse(want.stringValue ?? "")))
        }
    }
}
