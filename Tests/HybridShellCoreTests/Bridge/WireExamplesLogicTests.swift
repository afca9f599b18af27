import Foundation
import Testing
@testable import HybridShellCore

/// The same wire examples the JavaScript tests read (bridge-js/wire-examples.json), posted to the
/// bridge's native handler through ``FakeBridgeEngine``: every valid message gets its documented
/// answer and every invalid one its precise code, with no WebKit and no display. (What needs a
/// real page — dsbridge's `prompt()` gate, WebViewJavascriptBridge's iframe ping — stays in
/// `WireExamplesTests` under Xvfb.)
@Suite(.timeLimit(.minutes(1)))
@EngineActor
struct WireExamplesLogicTests {
    static let examples: JSONValue = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("bridge-js/wire-examples.json")
        return try! JSONParser().parse(String(contentsOf: url, encoding: .utf8))
    }()

    let engine = FakeBridgeEngine()
    let bridge: Bridge

    /// A bridge with the handlers the examples call, for the examples' origin and limits.
    init() throws {
        var configuration = BridgeConfiguration(originPolicy: OriginPolicy(patterns: [try OriginPattern(parsing: "https://app.example")]))
        configuration.maxDepth = Self.examples["limits"]?["maxDepth"]?.intValue ?? 64
        bridge = Bridge(engine: engine, configuration: configuration)
        bridge.handlers.registerRaw("echo", sync: { data, _ in data })
        bridge.handlers.register("fixture.add") { (input: [String: Double]) -> Double in (input["a"] ?? 0) + (input["b"] ?? 0) }
        bridge.handlers.registerRaw("fixture.fail", sync: { _, _ in throw BridgeError(.handlerError, "fixture failure") })
    }

    /// Posts `text` as the relay would and parses the answer.
    func post(_ text: String) async throws -> JSONValue {
        guard case .value(let answer) = await engine.post(text) else { throw ShellError.invalidArgument("the post was rejected") }
        return try JSONParser().parse(answer)
    }

    /// Makes the examples' session current (their hello, as the relay posts it).
    func ready() async throws {
        let hello = try #require(Self.examples["valid"]?.arrayValue?.first { $0["name"] == "hello" })
        let answer = try await post(hello["text"]!.stringValue!)
        #expect(answer[0]?["t"] == "ready", "\(answer.jsonText)")
    }

    @Test func validMessagesGetTheDocumentedAnswers() async throws {
        try await ready()
        // #require, not `?? []`: an empty or missing fixture list must fail, not pass vacuously.
        let valid = try #require(Self.examples["valid"]?.arrayValue).filter { $0["direction"] == "up" && $0["name"] != "hello" }
        #expect(valid.count >= 5)
        for example in valid {
            let name = example["name"]?.stringValue ?? "?"
            let answer = try await post(example["text"]!.stringValue!)
            if let expected = example["answer"] {
                #expect(matches(answer, expected), "\(name): got \(answer.jsonText), expected \(expected.jsonText)")
            }
        }
    }

    @Test func invalidMessagesAreRefusedWithPreciseCodes() async throws {
        try await ready()
        let examples = try #require(Self.examples["invalid"]?.arrayValue)
        #expect(examples.count >= 20)
        for example in examples {
            let name = example["name"]?.stringValue ?? "?"
            let text: String
            if let generate = example["generate"] {
                text = generate["prefix"]!.stringValue! + String(repeating: generate["repeat"]!.stringValue!, count: generate["count"]!.intValue!)
                    + generate["suffix"]!.stringValue!
            } else {
                text = example["text"]!.stringValue!
            }
            let answer = try await post(text)
            let code = example["code"]!
            if example["scope"] == "post" {
                #expect(answer.arrayValue?.count == 1, "\(name)")
                #expect(answer[0]?["t"] == "error", "\(name): \(answer.jsonText.prefix(300))")
                #expect(answer[0]?["code"] == code, "\(name): \(answer.jsonText.prefix(300))")
                #expect(answer[0]?["message"]?.stringValue?.isEmpty == false, "\(name)")
            } else if let id = example["id"], !id.isNull {
                let reply = answer.arrayValue?.first { $0["id"] == id }
                #expect(reply?["ok"] == false, "\(name): \(answer.jsonText.prefix(300))")
                #expect(reply?["e"]?["code"] == code, "\(name): \(answer.jsonText.prefix(300))")
            } else {
                #expect(answer == [], "\(name): \(answer.jsonText.prefix(300))")
            }
        }
        // The session still works after all of that.
        let echo = Self.examples["valid"]?.arrayValue?.first { $0["name"]?.stringValue?.contains("echo") == true || $0["name"] == "call" }
        if let echo, let expected = echo["answer"] {
            #expect(matches(try await post(echo["text"]!.stringValue!), expected))
        }
    }
}

/// Structural equality where an expected string "*" matches any value.
func matches(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
    switch (actual, expected) {
    case (_, .string("*")): return true
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
    case (.object(let a), .object(let b)): return a.keys.sorted() == b.keys.sorted() && a.allSatisfy { matches($0.value, b[$0.key]!) }
    default: return actual == expected
    }
}
