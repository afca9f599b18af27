import HybridShell
import Testing

@Suite("Script message channels, plain and with reply")
@EngineActor
struct MessageChannelTests {
    @Test func plainMessagesArriveInOrder() async throws {
        let view = try makeView()
        defer { view.close() }
        var received: [ScriptMessage] = []
        let third = PageEventExpectation(view) { event -> Bool? in
            if case .titleChanged("sent") = event { return true }
            return nil
        }
        view.addScriptMessageHandler("notes") { received.append($0) }
        try await loadHTML(view, """
            <script>
            webkit.messageHandlers.notes.postMessage('one');
            webkit.messageHandlers.notes.postMessage({two: 2});
            webkit.messageHandlers.notes.postMessage(3);
            document.title = 'sent';
            </script>
            """)
        _ = try await third.value(timeout: .seconds(30))
        _ = try await view.evaluateJavaScript("1")  // a round trip after the posts
        #expect(received == [
            ScriptMessage(body: "one", isString: true),
            ScriptMessage(body: #"{"two":2}"#, isString: false),
            ScriptMessage(body: "3", isString: false),
        ])
    }

    @Test func replyHandlerAnswersNowOrLater() async throws {
        let view = try makeView()
        defer { view.close() }
        let held = Handoff<ScriptMessageReply>()
        view.addScriptMessageReplyHandler("ask") { message, reply in
            switch message.body {
            case "now": reply.succeed("answered now")
            case "later": held.fulfill(reply)
            case "fail": reply.fail("refused")
            default: break  // dropped: the reply's deinit rejects the page's Promise
            }
        }
        try await loadHTML(view, "<p>x</p>")
        #expect(try await view.callAsyncJavaScript("return await webkit.messageHandlers.ask.postMessage('now')") == "answered now")

        let pending = Task { @EngineActor in
            try await view.callAsyncJavaScript("return await webkit.messageHandlers.ask.postMessage('later')")
        }
        try await held.value(timeout: .seconds(30)).succeed("answered later")
        #expect(try await pending.value == "answered later")

        let failed = try await view.callAsyncJavaScript(
            "return await webkit.messageHandlers.ask.postMessage('fail').then(() => 'resolved', e => 'rejected: ' + e.message)")
        #expect(failed == "rejected: refused")
        let dropped = try await view.callAsyncJavaScript(
            "return await webkit.messageHandlers.ask.postMessage('drop').then(() => 'resolved', e => 'rejected')")
        #expect(dropped == "rejected")
    }

    @Test func isolatedWorldHandlerIsInvisibleToThePage() async throws {
        let view = try makeView()
        defer { view.close() }
        view.addScriptMessageHandler("secret", in: .isolated("probe")) { _ in }
        try await loadHTML(view, "<p>x</p>")
        // With no handler in the page world at all, WebKit does not even define `window.webkit` there.
        #expect(try await view.evaluateJavaScript("typeof window.webkit === 'undefined' ? 'undefined' : typeof webkit.messageHandlers.secret") == "undefined")
        #expect(try await view.evaluateJavaScript("typeof webkit.messageHandlers.secret", in: .isolated("probe")) == "object")
    }
}
