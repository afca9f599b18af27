import HybridShellCore
import HybridShellWebKit

/// One agent's hold on a shell (`hybrid-run mcp`, docs/mcp.md): it carries out ``AgentToolCall``s
/// on the top page of a ``PageManager`` and keeps what the agent reads back with cursors — console
/// lines, page events, the page's native calls — and the refs of the last snapshot. Every failure
/// is an ``AgentToolResult`` error that says what to do next; nothing here ends the session.
@EngineActor
package final class AgentSession {
    package let manager: PageManager
    /// How long one page operation (a script, a screenshot, a bridge call) may take.
    package var operationTimeout: Duration = .seconds(30)
    /// The schemes `open` accepts besides the web's: the shell's own (`--dir-handler`, and `app:`
    /// when offline packages are served).
    package var customSchemes: [String]
    var refs = AgentRefs()
    var console = AgentLog<ConsoleMessage>()
    var events = AgentLog<JSONValue>()
    var calls = AgentLog<BridgeCallRecord>()
    /// Crashes and recoveries the agent has not been told of yet; they lead the next answer.
    var notes: [String] = []
    var eventWaiters: [(name: String, handoff: Handoff<JSONValue>)] = []
    private let describe: (PageEvent) -> [String: JSONValue]
    private var tokens: [ObservationToken] = []

    /// Watches every page `manager` opens from now on. `describe` turns a page event into the JSON
    /// object `events` lists (the CLI's `--print-events` form).
    package init(manager: PageManager, describe: @escaping (PageEvent) -> [String: JSONValue]) {
        self.manager = manager
        self.describe = describe
        customSchemes = manager.configuration.customSchemes
        let opened = manager.onPageOpened
        manager.onPageOpened = { [weak self] page in
            opened(page)
            // A page pushed on top (window.open under --new-windows new-page) is the one tools act on now.
            self?.refs.expire("another page opened on top (\(page.url))")
            self?.watch(page)
        }
        let gaveUp = manager.onGiveUp
        manager.onGiveUp = { [weak self] page in
            gaveUp(page)
            self?.notes.append("The page gave up after repeated web-process crashes; call open to start again.")
        }
        for page in manager.stack { watch(page) }
    }

    /// Reads and carries out one call of the tool `name`.
    package func call(tool name: String, arguments: [String: JSONValue]?) async -> AgentToolResult {
        let call: AgentToolCall
        do {
            call = try AgentToolCall(tool: name, arguments: arguments)
        } catch {
            return .error(error)
        }
        return await perform(call)
    }

    package func perform(_ call: AgentToolCall) async -> AgentToolResult {
        let result: AgentToolResult
        do {
            if call.readsPage { await settleLoad() }
            result = try await run(call)
        } catch let error as AgentToolError {
            result = .error(error)
        } catch {
            result = .error(Self.explain(error))
        }
        let note = notes.isEmpty ? nil : notes.joined(separator: "\n")
        notes = []
        return result.noting(note)
    }

    private func run(_ call: AgentToolCall) async throws -> AgentToolResult {
        switch call {
        case .open(let url): return try await open(url)
        case .back: return try await history(back: true)
        case .forward: return try await history(back: false)
        case .reload: return try await reload()
        case .closePage: return await closePage()
        case .snapshot: return try await snapshot()
        case .click(let target): return try await click(target)
        case .type(let target, let text, let submit): return try await type(into: target, text, submit: submit)
        case .press(let chord): return try await press(chord)
        case .select(let target, let values): return try await select(target, values)
        case .hover(let target): return try await hover(target)
        case .evaluate(let script, let async): return try await evaluate(script, async: async)
        case .screenshot(let target): return try await screenshot(target)
        case .console(let since): return consoleLines(since: since)
        case .events(let since): return eventList(since: since)
        case .nativeCalls(let since): return callList(since: since)
        case .waitFor(let condition, let timeout): return try await waitFor(condition, timeout: timeout)
        case .bridgeCall(let handler, let data): return try await bridgeCall(handler, data)
        case .nativeMock(let handler, let answer): return mock(handler, answer)
        }
    }

    /// Waits (a while at most) for a load in progress on the top page to end, so a call made right
    /// after a click on a link, or at start, sees the new document rather than the old or a blank one.
    package func settleLoad(within limit: Duration = .seconds(10)) async {
        guard let page = manager.top, page.view.isLoading else { return }
        _ = try? await Self.loadOutcome(page.view).value(timeout: limit, "page load")
    }

    /// The top page, or the error an agent gets without one.
    func currentPage() throws(AgentToolError) -> Page {
        guard let page = manager.top else { throw AgentToolError("no page is open; call open with a URL first") }
        if case .failed(let reason) = page.state { throw AgentToolError("the page failed (\(reason)); call open to start again") }
        return page
    }

    /// A library error in words an agent can act on.
    static func explain(_ error: any Error) -> AgentToolError {
        switch error {
        case ShellError.javaScriptException(let message): AgentToolError("JavaScript exception: \(message)")
        case ShellError.timedOut(let what): AgentToolError("timed out: \(what); the page may be busy — try wait_for, or reload")
        case ShellError.viewClosed: AgentToolError("the page was closed; call open")
        case let error as BridgeError: AgentToolError("the bridge answered \(error.code.rawValue): \(error.message)")
        default: AgentToolError("\(error)")
        }
    }

    // MARK: Watching pages

    private func watch(_ page: Page) {
        tokens.append(page.view.observe { [weak self, weak page] event in
            guard let self, let page else { return }
            self.pageEvent(event, on: page)
        })
        tokens.append(page.observeLifecycle { [weak self, weak page] event in
            guard let page else { return }
            self?.record(["event": "lifecycle", "name": .string(event.rawValue)], page: page)
        })
        page.bridge.onCall = { [weak self, weak page] call in
            guard let self, let page else { return }
            self.calls.append(call)
            var object: [String: JSONValue] = ["event": "nativeCall", "handler": .string(call.handler)]
            if case .failure(let error) = call.result { object["outcome"] = .string(error.code.rawValue) } else { object["outcome"] = "ok" }
            self.record(object, page: page)
        }
    }

    private func pageEvent(_ event: PageEvent, on page: Page) {
        switch event {
        case .console(let message):
            console.append(message)
            resolveWaiters("console", ["event": "console", "text": .string(message.text)])
            return
        case .progressChanged:
            return
        case .loadCommitted(let url) where page === manager.top:
            refs.expire("the page navigated to \(url)")
        case .webProcessTerminated(let reason):
            refs.expire("the web process ended (\(reason.rawValue))")
            notes.append("Note: the page's web process ended (\(reason.rawValue)); HybridShell reloads the page. Refs are void: call snapshot again.")
        default:
            break
        }
        record(describe(event), page: page)
    }

    func record(_ object: [String: JSONValue], page: Page) {
        var object = object
        object["page"] = .number(Double(page.id))
        let entry = JSONValue.object(object)
        events.append(entry)
        if let name = object["event"]?.stringValue { resolveWaiters(name, entry) }
    }

    private func resolveWaiters(_ name: String, _ entry: JSONValue) {
        let matching = eventWaiters.filter { $0.name == name }
        guard !matching.isEmpty else { return }
        eventWaiters.removeAll { $0.name == name }
        for waiter in matching { waiter.handoff.fulfill(entry) }
    }
}
