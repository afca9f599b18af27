@testable import HybridShellCore
import Testing

@Suite("Agent snapshots, refs and logs (pure)")
struct AgentSnapshotTests {
    @Test func outlinesElementsWithRefsInOrder() throws {
        let answer: JSONValue = [
            "url": "app://shop/cart.html", "title": "Cart",
            "elements": [
                ["role": "heading", "name": "Your  cart", "level": 1],
                ["role": "textbox", "name": "Coupon", "value": "SPRING", "states": ["focused", "required"]],
                ["role": "button", "name": "Apply", "states": ["disabled"]],
            ],
        ]
        let snapshot = try AgentSnapshot(parsing: answer)
        #expect(snapshot.outline == """
            Page "Cart" — app://shop/cart.html
            e1 heading "Your cart" level=1
            e2 textbox "Coupon" value="SPRING" focused required
            e3 button "Apply" disabled

            """)
    }

    @Test func cutsLongNamesAndCapsTheOutline() {
        let long = String(repeating: "x", count: 500)
        #expect(AgentSnapshot.line(.init(role: "link", name: long), ref: "e9").count < 100)
        let many = (0..<2000).map { AgentSnapshot.Element(role: "button", name: "Button number \($0) of the long list") }
        let outline = AgentSnapshot(url: "http://x/", title: "t", elements: many).outline
        #expect(outline.utf8.count <= AgentSnapshot.maximumText)
        #expect(outline.contains("more elements not listed"))
        #expect(AgentSnapshot(url: "u", title: "", elements: []).outline.contains("(no visible interactive elements)"))
    }

    @Test func refusesAMalformedAnswer() {
        #expect(throws: AgentToolError.self) { try AgentSnapshot(parsing: "nope") }
        #expect(throws: AgentToolError.self) { try AgentSnapshot(parsing: ["elements": [["name": "x"]]]) }
    }

    @Test func refsHoldUntilTheNextSnapshotOrNavigation() {
        var refs = AgentRefs()
        #expect(refs.problem(with: "e1")?.message.hasPrefix("no snapshot has been taken") == true)
        refs.snapshotTaken(count: 3)
        #expect(refs.problem(with: "e1") == nil)
        #expect(refs.problem(with: "e3") == nil)
        #expect(refs.problem(with: "e4")?.message == "unknown ref e4: the last snapshot does not have it (it has e1 to e3); call snapshot again or use a selector")
        refs.expire("the page navigated to http://x/b")
        refs.expire("the web process ended (crashed)")
        #expect(refs.problem(with: "e1")?.message == "ref e1 is stale: the page navigated to http://x/b since the last snapshot; call snapshot again and use its refs")
        refs.snapshotTaken(count: 1)
        #expect(refs.problem(with: "e1") == nil)
        #expect(refs.problem(with: "e2")?.message.contains("it has e1 only") == true)
        #expect(AgentRefs.isWellFormed("e12"))
        #expect(!AgentRefs.isWellFormed("e012") && !AgentRefs.isWellFormed("e") && !AgentRefs.isWellFormed("x1"))
    }

    @Test func logsAreReadWithCursors() {
        var log = AgentLog<String>(capacity: 3)
        #expect(log.since(0).entries.isEmpty && log.since(0).nextCursor == 0)
        log.append("a")
        log.append("b")
        let first = log.since(0)
        #expect(first.entries.map(\.entry) == ["a", "b"] && first.nextCursor == 2 && first.missed == 0)
        #expect(log.since(2).entries.isEmpty && log.since(2).nextCursor == 2)
        for name in ["c", "d", "e", "f"] { log.append(name) }
        let late = log.since(2)
        #expect(late.entries.map(\.entry) == ["d", "e", "f"] && late.nextCursor == 6 && late.missed == 1)
        #expect(log.since(0).missed == 3)
        #expect(log.since(99).entries.isEmpty && log.since(99).nextCursor == 6)
        for index in 0..<10 { log.append("\(index)") }
        #expect(log.since(0).entries.map(\.entry) == ["7", "8", "9"])
    }

    @Test func resultsCarryNotesAndErrors() {
        let result = AgentToolResult.json(["a": 1]).noting("Note: crashed")
        #expect(result.content == [.text("Note: crashed"), .text(#"{"a":1}"#)] && !result.isError)
        #expect(AgentToolResult.error(AgentToolError("bad")).isError)
        let call = BridgeCallRecord(handler: "pay", origin: "app://shop", data: RawJSON(unchecked: #"{"sum":3}"#),
                                    result: .failure(BridgeError(.handlerError, "declined")), latency: .milliseconds(2))
        #expect(call.jsonObject["args"] == ["sum": 3])
        #expect(call.jsonObject["error"] == ["code": "HANDLER_ERROR", "message": "declined"])
    }
}
