import HybridShell
import Testing

@Suite("Navigation, new-window and dialog policies")
@EngineActor
struct PolicyTests {
    @Test func navigationPolicyCancelsAndTheDeciderSeesTheURL() async throws {
        let view = try makeView()
        defer { view.close() }
        var seen: [NavigationAction] = []
        view.navigationPolicy = { action in
            seen.append(action)
            return action.url.hasSuffix("?blocked") ? .cancel : .allow
        }
        let cancelled = PageEventExpectation(view) { event -> String? in
            if case .navigationCancelled(let url) = event { return url }
            return nil
        }
        let page = Fixtures.pageURL("engine/links.html")
        #expect(try await load(view, page))
        _ = try await view.evaluateJavaScript("document.getElementById('blocked').click()")
        let url = try await cancelled.value(timeout: .seconds(30))
        #expect(url.hasSuffix("frames-child.html?blocked"))
        #expect(view.url == page)
        #expect(seen.last?.kind == .linkClicked)
    }

    @Test func deciderClaimsURLsBeforeThePolicy() async throws {
        let view = try makeView()
        defer { view.close() }
        var intercepted: [String] = []
        view.addNavigationDecider { action in
            guard action.url.hasPrefix("https://__intercepted__") else { return nil }
            intercepted.append(action.url)
            return .cancel
        }
        view.navigationPolicy = { _ in Issue.record("the policy must not see claimed URLs"); return .allow }
        let cancelled = PageEventExpectation(view) { event -> Bool? in
            if case .navigationCancelled = event { return true }
            return nil
        }
        view.load("https://__intercepted__/ping")
        _ = try await cancelled.value(timeout: .seconds(30))
        #expect(intercepted == ["https://__intercepted__/ping"])
    }

    @Test func targetBlankOpensInTheSameViewByDefault() async throws {
        let view = try makeView()
        defer { view.close() }
        #expect(try await load(view, Fixtures.pageURL("engine/links.html")))
        let requested = PageEventExpectation(view) { event -> String? in
            if case .newWindowRequested(_, let decision) = event { return decision.rawValue }
            return nil
        }
        let loaded = PageEventExpectation(view) { event -> String? in
            if case .loadFinished(let url, true) = event, url.hasSuffix("?blank") { return url }
            return nil
        }
        _ = try await view.evaluateJavaScript("document.getElementById('blank').click()")
        #expect(try await requested.value(timeout: .seconds(30)) == "sameView")
        _ = try await loaded.value(timeout: .seconds(30))
    }

    @Test func deniedWindowOpenReturnsNull() async throws {
        let view = try makeView { $0.newWindowPolicy = .deny }
        defer { view.close() }
        try await loadHTML(view, "<p>x</p>")
        #expect(try await view.evaluateJavaScript("window.open('about:blank') === null") == true)
    }

    @Test func windowCloseIsReported() async throws {
        let view = try makeView()
        defer { view.close() }
        #expect(try await load(view, Fixtures.pageURL("engine/links.html")))
        let closed = PageEventExpectation(view) { event -> Bool? in event == .closeRequested ? true : nil }
        _ = try await view.evaluateJavaScript("window.close()")
        #expect(try await closed.value(timeout: .seconds(30)))
    }

    @Test func dialogsNeverBlockAndAreReported() async throws {
        let view = try makeView()
        defer { view.close() }
        let recorder = EventRecorder(view)
        #expect(try await load(view, Fixtures.pageURL("engine/dialogs.html")))
        #expect(try await view.evaluateJavaScript("document.title") == "dialogs done")
        #expect(try await view.evaluateJavaScript("[window.confirmed, window.prompted]") == [true, "anonymous"])
        let dialogs = recorder.events.compactMap { event -> String? in
            if case .dialog(let dialog, let answer) = event { return "\(dialog.kind.rawValue):\(dialog.message):\(answer)" }
            return nil
        }
        #expect(dialogs == ["alert:hello alert:dismiss", "confirm:proceed?:confirm(true)",
                            "prompt:your name?:prompt(Optional(\"anonymous\"))"])
    }

    @Test func dialogPolicyIsConfigurable() async throws {
        let view = try makeView { $0.dialogPolicy = .automatic(confirm: false, prompt: .cancel) }
        defer { view.close() }
        #expect(try await load(view, Fixtures.pageURL("engine/dialogs.html")))
        #expect(try await view.evaluateJavaScript("[window.confirmed, window.prompted]") == [false, nil])
    }

    @Test func interceptorCanAnswerAPromptLater() async throws {
        let view = try makeView()
        defer { view.close() }
        let responder = Handoff<DialogResponder>()
        view.addDialogInterceptor { dialog, pending in
            guard dialog.kind == .prompt, dialog.message == "ask native" else { return false }
            responder.fulfill(pending)
            return true
        }
        try await loadHTML(view, "<p>x</p>")
        let answer = Task { @EngineActor in try await view.evaluateJavaScript("prompt('ask native', 'x')") }
        try await responder.value(timeout: .seconds(30), "the prompt").answer(.prompt("from swift"))
        #expect(try await answer.value == "from swift")
    }
}
