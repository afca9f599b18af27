import HybridShellCore
import HybridShellWebKit

/// open, back, forward, reload, close_page: each waits for the load it starts.
extension AgentSession {
    func open(_ input: String) async throws -> AgentToolResult {
        var route = WebRoute(input)
        // The shell's own schemes (--dir-handler, app:// packages) are URLs an agent may open.
        route.customSchemes = customSchemes
        let (url, headers) = try route.request()
        // The bridge and modules belong to the origin a page was opened with: another origin gets
        // a page of its own instead of a navigation that would leave it without them.
        if let page = manager.top, page.state != .closed, WebOrigin.of(page.url) == WebOrigin.of(url), WebOrigin.of(url) != nil {
            let loaded = Self.loadOutcome(page.view)
            page.view.load(url, headers: headers.map { ($0.name, $0.value) })
            return try await finish(loaded, page: page, timeout: route.timeout, verb: "Opened")
        }
        if let page = manager.top { await manager.close(page) }
        let page = try manager.open(route)
        refs = AgentRefs()
        return try await finish(Self.loadOutcome(page.view), page: page, timeout: route.timeout, verb: "Opened")
    }

    func history(back: Bool) async throws -> AgentToolResult {
        let page = try currentPage()
        guard back ? page.view.canGoBack : page.view.canGoForward else {
            throw AgentToolError(back ? "there is no earlier page in this page's history; use open" : "there is no later page in this page's history; use open")
        }
        let loaded = Self.loadOutcome(page.view)
        back ? page.view.goBack() : page.view.goForward()
        return try await finish(loaded, page: page, timeout: .seconds(30), verb: back ? "Went back to" : "Went forward to")
    }

    func reload() async throws -> AgentToolResult {
        let page = try currentPage()
        let loaded = Self.loadOutcome(page.view)
        page.view.reload()
        return try await finish(loaded, page: page, timeout: .seconds(30), verb: "Reloaded")
    }

    func closePage() async -> AgentToolResult {
        guard let page = manager.top else { return .error(AgentToolError("no page is open; call open with a URL")) }
        await manager.close(page)
        refs.expire("the page was closed")
        guard let now = manager.top else { return .text("Closed the page. No page is open now; call open with a URL.") }
        return .text("Closed the page. Now on \(now.view.url ?? now.url) (\(JSONValue.quoted(now.title ?? ""))); call snapshot to see it.")
    }

    /// The end of the next main-frame load: its URL, or the load error (a cancelled load is not one).
    static func loadOutcome(_ view: WebView) -> PageEventExpectation<Result<String, AgentToolError>> {
        PageEventExpectation(view) { event in
            switch event {
            case .loadFinished(let url, true): .success(url)
            case .loadFailed(let error) where error.kind != .cancelled:
                .failure(AgentToolError("the page did not load: \(error.url): \(error.message); check the URL, or call open again"))
            default: nil
            }
        }
    }

    private func finish(_ loaded: PageEventExpectation<Result<String, AgentToolError>>, page: Page, timeout: Duration,
                        verb: String) async throws -> AgentToolResult {
        let url: String
        do {
            url = try await loaded.value(timeout: timeout, "page load").get()
        } catch is ShellError {
            throw AgentToolError("the page did not finish loading within \(timeout.secondsText); it may still be loading — call wait_for with event loadFinished, or snapshot")
        }
        // The view's title property can trail the load by a moment; the document has it now.
        let title = (try? await page.view.evaluateJavaScript("document.title", in: AgentScript.world))?.stringValue ?? page.title ?? ""
        var text = "\(verb) \(url) — title \(JSONValue.quoted(title))"
        if let status = page.view.httpStatus, status > 0 { text += ", HTTP \(status)" }
        return .text(text + ". Call snapshot to see its elements.")
    }
}
