import HybridShellCore
import HybridShellWebKit

/// snapshot, evaluate, screenshot and bridge_call, and the one way the session runs its agent
/// script: a fixed function body with JSON arguments, in its own isolated world.
extension AgentSession {
    func snapshot() async throws -> AgentToolResult {
        let answer = try await agentScript("snapshot")
        let snapshot = try AgentSnapshot(parsing: answer)
        refs.snapshotTaken(count: snapshot.elements.count)
        return .text(snapshot.outline)
    }

    func evaluate(_ script: String, async: Bool) async throws -> AgentToolResult {
        let page = try currentPage()
        let value = try await within(operationTimeout, "result of the script") {
            async ? try await page.view.callAsyncJavaScript(script) : try await page.view.evaluateJavaScript(script)
        }
        return .json(value)
    }

    func screenshot(_ target: ElementTarget?) async throws -> AgentToolResult {
        let page = try currentPage()
        var clip: (x: Double, y: Double, width: Double, height: Double)?
        var what = "the visible page"
        if let target {
            let spot = try await locate(target, hit: false)
            clip = (spot.rect.x, spot.rect.y, spot.rect.width, spot.rect.height)
            what = spot.element
        }
        let png = try await within(operationTimeout, "screenshot") { [clip] in try await page.view.snapshotPNG(clip: clip) }
        return AgentToolResult([.png(png), .text("Screenshot of \(what) (\(page.view.url ?? page.url)).")])
    }

    func bridgeCall(_ handler: String, _ data: JSONValue) async throws -> AgentToolResult {
        let page = try currentPage()
        do {
            let reply = try await page.bridge.callRaw(handler, with: RawJSON(unchecked: data.jsonText), timeout: operationTimeout)
            return .text(reply.text)
        } catch {
            throw AgentToolError("the page handler \(JSONValue.quoted(handler)) failed: \(error.code.rawValue): \(error.message)"
                                 + (error.code == .notFound ? "; the page must register it with hybrid.register first" : ""))
        }
    }

    func mock(_ handler: String, _ answer: MockHandlers.Behaviour) -> AgentToolResult {
        MockHandlers(entries: [.init(name: handler, behaviour: answer)]).register(in: manager.handlers)
        let what = switch answer {
        case .result(let value): "the result \(value.jsonText)"
        case .error(let error): "the error \(error.code.rawValue) \(JSONValue.quoted(error.message))"
        case .echo: "its own arguments"
        }
        return .text("The native handler \(JSONValue.quoted(handler)) now answers every call with \(what) for the rest of the session; native_calls lists the calls.")
    }

    /// Runs one operation of the agent script on the top page.
    func agentScript(_ op: String, _ args: [String: JSONValue] = [:], timeout: Duration? = nil) async throws -> JSONValue {
        let page = try currentPage()
        return try await within(timeout ?? operationTimeout, "answer from the page") {
            try await page.view.callAsyncJavaScript(AgentScript.body, arguments: AgentScript.arguments(op, args), in: AgentScript.world)
        }
    }

    /// `body`'s value, or ``ShellError/timedOut(_:)`` after `limit` (the body is cancelled).
    func within<T: Sendable>(_ limit: Duration, _ what: String, _ body: @escaping @EngineActor () async throws -> T) async throws -> T {
        let outcome = Handoff<T>()
        let task = Task { @EngineActor in
            do { outcome.fulfill(try await body()) } catch { outcome.fail(error) }
        }
        do {
            return try await outcome.value(timeout: limit, what)
        } catch {
            task.cancel()
            throw error
        }
    }
}
