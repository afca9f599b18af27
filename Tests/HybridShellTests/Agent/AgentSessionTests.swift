import Foundation
@testable import HybridShell
@testable import hybrid_run
import Testing

/// `hybrid-run mcp`'s session in real WebKit, for what the MCP client test cannot provoke: a web
/// process that dies under the agent, and a script that never finishes.
@Suite("Agent session, in real WebKit")
@EngineActor
struct AgentSessionTests {
    private func session() throws -> (PageManager, AgentSession) {
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.crashRecovery = CrashRecoveryPolicy(maxReloads: 3, window: .seconds(60), backoff: [.zero])
        let manager = try PageManager(configuration: configuration)
        manager.recoversFromAPITermination = true
        return (manager, AgentSession(manager: manager, describe: { $0.jsonObject }))
    }

    private func text(_ result: AgentToolResult) -> String {
        result.content.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined(separator: "\n")
    }

    @Test func aCrashedWebProcessIsReloadedReportedAndVoidsTheRefs() async throws {
        let (manager, session) = try session()
        let opened = await session.perform(.open(url: Fixtures.pageURL("mcp/index.html")))
        #expect(!opened.isError, "\(text(opened))")
        let outline = await session.perform(.snapshot)
        #expect(text(outline).contains("e1 heading \"Greeter\" level=1"), "\(text(outline))")

        manager.top?.view.terminateWebProcess()
        let reloaded = await session.perform(.waitFor(.event("loadFinished"), timeout: .seconds(20)))
        #expect(!reloaded.isError, "\(text(reloaded))")
        #expect(text(reloaded).hasPrefix("Note: the page's web process ended"), "\(text(reloaded))")

        let stale = await session.perform(.click(.ref("e1")))
        #expect(stale.isError && text(stale).contains("is stale: the web process ended"), "\(text(stale))")
        let again = await session.perform(.snapshot)
        #expect(!again.isError && text(again).contains("Greeter"), "\(text(again))")
        let events = text(await session.perform(.events(since: 0)))
        #expect(events.contains("\"webProcessTerminated\""), "\(events)")
        await manager.closeAll()
    }

    @Test func nativeCallsListEveryDialectsCallsWithArgumentsAndOutcome() async throws {
        let (manager, session) = try session()
        // A page with dsbridge's own client script, whose synchronous calls take the prompt path.
        _ = await session.perform(.open(url: Fixtures.pageURL("mcp/dsbridge.html")))
        _ = await session.perform(.nativeMock(handler: "shop.price", answer: .result(["price": 3])))
        _ = await session.perform(.nativeMock(handler: "shop.pay", answer: .error(BridgeError(.handlerError, "declined"))))
        let sync = await session.perform(.evaluate(script: "dsBridge.call('shop.price', {sku: 'a'})", async: false))
        #expect(sync == .text(#"{"price":3}"#), "\(text(sync))")
        let failed = await session.perform(.evaluate(script: "return await hybrid.call('shop.pay', 5).catch(e => e.code)", async: true))
        #expect(failed == .text(#""HANDLER_ERROR""#), "\(text(failed))")
        let calls = try JSONValue(parsing: text(await session.perform(.nativeCalls(since: 0))))
        #expect(calls["calls"]?[0]?["handler"] == "shop.price" && calls["calls"]?[0]?["args"] == ["sku": "a"], "\(calls.jsonText)")
        #expect(calls["calls"]?[1]?["error"] == ["code": "HANDLER_ERROR", "message": "declined"], "\(calls.jsonText)")
        #expect(calls["next_cursor"] == 2, "\(calls.jsonText)")
        await manager.closeAll()
    }

    @Test func aScriptThatNeverFinishesTimesOutAndTheSessionGoesOn() async throws {
        let (manager, session) = try session()
        session.operationTimeout = .milliseconds(300)
        _ = await session.perform(.open(url: Fixtures.pageURL("mcp/index.html")))
        let stuck = await session.perform(.evaluate(script: "return await new Promise(() => {})", async: true))
        #expect(stuck.isError && text(stuck).hasPrefix("timed out"), "\(text(stuck))")
        // The short limit was for the stuck script; the rest must not race a loaded machine.
        session.operationTimeout = .seconds(10)
        let next = await session.perform(.evaluate(script: "document.title", async: false))
        #expect(next == .text("\"MCP fixture\""), "\(text(next))")
        let missing = await session.perform(.hover(.selector("#nothing")))
        #expect(missing.isError && text(missing).contains("no element matches the selector \"#nothing\""), "\(text(missing))")
        let hidden = await session.perform(.click(.selector("#hidden")))
        #expect(hidden.isError && text(hidden).contains("is not visible"), "\(text(hidden))")
        let badSelector = await session.perform(.click(.selector("##")))
        #expect(badSelector.isError && text(badSelector).contains("is not valid CSS"), "\(text(badSelector))")
        await manager.closeAll()
    }
}
