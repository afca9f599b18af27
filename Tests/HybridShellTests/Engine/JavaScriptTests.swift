import HybridShell
import Testing

@Suite("JavaScript evaluation in a real WebKit view")
@EngineActor
struct JavaScriptTests {
    @Test func evaluatesExpressionsAsJSON() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<title>Hello</title><p>x</p>")
        #expect(try await view.evaluateJavaScript("1 + 2") == .number(3))
        #expect(try await view.evaluateJavaScript("document.title") == .string("Hello"))
        #expect(try await view.evaluateJavaScript("({a: [1, 'b', null, true]})") == ["a": [1, "b", nil, true]])
        #expect(try await view.evaluateJavaScript("undefined") == .null)
    }
}
