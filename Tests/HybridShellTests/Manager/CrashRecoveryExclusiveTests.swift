import Foundation
import HybridShell
import Testing

/// Kills the page's web process by pid, so it runs in the serial pass (see TerminationTests).
@Suite("Crash recovery", .serialized)
@EngineActor
struct CrashRecoveryExclusiveTests {
    func manager(maxReloads: Int) throws -> PageManager {
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.crashRecovery = CrashRecoveryPolicy(maxReloads: maxReloads, window: .seconds(60), backoff: [.zero])
        return try PageManager(configuration: configuration)
    }

    func next(_ page: Page, _ event: PageLifecycleEvent) -> Handoff<ContinuousClock.Instant> {
        let seen = Handoff<ContinuousClock.Instant>()
        page.observeLifecycle { if $0 == event { seen.fulfill(.now) } }
        return seen
    }

    @Test func killedWebProcessReloadsAndPendingCallsReset() async throws {
        let manager = try manager(maxReloads: 3)
        let page = try manager.open(WebRoute(Fixtures.pageURL("manager/lifecycle.html") + "?name=victim"))
        let shown = next(page, .show)
        _ = try await shown.value(timeout: .seconds(15))
        _ = try await page.view.evaluateJavaScript("hybrid.register('never', () => new Promise(() => {})); 0")
        let pending = Task { @EngineActor in try await page.bridge.callRaw("never") }
        let unloaded = next(page, .unload), readyAgain = next(page, .ready), shownAgain = next(page, .show)
        let pid = try #require(WebProcesses.newestWebProcess())
        let killed = ContinuousClock.now
        kill(pid, SIGKILL)
        _ = try await unloaded.value(timeout: .seconds(30), "unload after the crash")
        do { _ = try await pending.value; Issue.record("expected BRIDGE_RESET") } catch let error as BridgeError {
            #expect(error.code == .bridgeReset)
        }
        let ready = try await readyAgain.value(timeout: .seconds(30), "ready after the reload")
        _ = try await shownAgain.value(timeout: .seconds(30), "show after the reload")
        #expect(ready - killed < .seconds(1), "kill -9 → ready took \(ready - killed)")
        #expect(page.state == .loaded)
        await manager.closeAll()
    }

    @Test func crashLoopIsCappedWithAnErrorPage() async throws {
        let manager = try manager(maxReloads: 1)
        let gaveUp = Handoff<Page>()
        manager.onGiveUp = { gaveUp.fulfill($0) }
        let page = try manager.open(WebRoute(Fixtures.pageURL("manager/lifecycle.html") + "?name=loop"))
        for round in 1...2 {
            let shown = next(page, .show)
            _ = try await shown.value(timeout: .seconds(15), "show before crash \(round)")
            let pid = try #require(WebProcesses.newestWebProcess())
            kill(pid, SIGKILL)
        }
        #expect(try await gaveUp.value(timeout: .seconds(30)) === page)
        #expect(page.state == .failed("the web process crashed 2 times within 60 s; gave up reloading"))
        let errorPage = PageEventExpectation(page.view) { if case .titleChanged(let title) = $0 { return title } else { return nil } }
        #expect(try await errorPage.value(timeout: .seconds(30)) == "This page stopped working")
        await manager.closeAll()
    }
}
