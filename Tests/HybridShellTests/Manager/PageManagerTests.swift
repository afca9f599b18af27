import Foundation
import HybridShell
import Synchronization
import Testing

/// Records lifecycle events as Swift sees them and as the page reports them (each page hook calls
/// the native handler `seen`).
@EngineActor
final class LifecycleLog {
    var swift: [String] = []
    /// What the page reported through the `seen` handler, appended as the call runs (a later
    /// task would let a test read the log before the page's last reports land: flaky on a loaded machine).
    let pageEntries = Mutex<[String]>([])
    var page: [String] { pageEntries.withLock { $0 } }
    let pageSaw = Handoff<Bool>()

    func attach(_ page: Page, label: String) {
        page.observeLifecycle { [weak self] event in self?.swift.append("\(label):\(event.rawValue)") }
    }
}

/// Records a page's lifecycle from the moment it is attached and waits for the n-th occurrence of
/// an event, so an event that fires before the test starts waiting is not missed.
@EngineActor
final class LifecycleRecorder {
    private(set) var events: [PageLifecycleEvent] = []
    private var waiters: [(event: PageLifecycleEvent, occurrence: Int, handoff: Handoff<Bool>)] = []

    init(_ page: Page) {
        page.observeLifecycle { [weak self] event in self?.record(event) }
    }

    private func record(_ event: PageLifecycleEvent) {
        events.append(event)
        for waiter in waiters where count(waiter.event) >= waiter.occurrence { waiter.handoff.fulfill(true) }
    }

    private func count(_ event: PageLifecycleEvent) -> Int { events.filter { $0 == event }.count }

    func wait(_ event: PageLifecycleEvent, occurrence: Int = 1, timeout: Duration = .seconds(30)) async throws {
        if count(event) >= occurrence { return }
        let handoff = Handoff<Bool>()
        waiters.append((event, occurrence, handoff))
        _ = try await handoff.value(timeout: timeout, "\(event) #\(occurrence) (seen: \(events.map(\.rawValue)))")
    }
}

@Suite("Page manager: pool, stack, lifecycle, routes, delegates")
@EngineActor
struct PageManagerTests {
    static let lifecyclePage = Fixtures.pageURL("manager/lifecycle.html")

    func manager(pool: Int = 1, _ configure: (inout ShellConfiguration) -> Void = { _ in }) throws -> (PageManager, LifecycleLog) {
        var configuration = ShellConfiguration()
        configuration.poolSize = pool
        configure(&configuration)
        let manager = try PageManager(configuration: configuration)
        let log = LifecycleLog()
        manager.handlers.register("seen") { (entry: String) -> Bool in
            log.pageEntries.withLock { $0.append(entry) }
            return true
        }
        return (manager, log)
    }

    func opened(_ manager: PageManager, _ route: WebRoute) throws -> (Page, LifecycleRecorder) {
        let page = try manager.open(route)
        return (page, LifecycleRecorder(page))
    }

    @Test func stackDrivesShowHideAndUnloadInPageAndSwift() async throws {
        let (manager, log) = try manager(pool: 0)
        let (first, firstEvents) = try opened(manager, WebRoute(Self.lifecyclePage + "?name=first"))
        log.attach(first, label: "first")
        try await firstEvents.wait(.show)
        let (second, secondEvents) = try opened(manager, WebRoute(Self.lifecyclePage + "?name=second"))
        log.attach(second, label: "second")
        try await secondEvents.wait(.show)
        await manager.close()  // second: hide, unload; first: show
        try await firstEvents.wait(.show, occurrence: 2)
        await manager.closeAll()
        #expect(log.swift == ["first:ready", "first:show", "first:hide", "second:ready", "second:show",
                              "second:unload", "first:show", "first:unload"])
        // The page saw the same, through hybrid.on, the hybrid:* DOM events and wx hooks (each reports).
        for name in ["first", "second"] {
            let mine = log.page.filter { $0.hasPrefix(name + ":") }
            let seen = mine.map { String($0.dropFirst(name.count + 1)) }
            let expected = name == "first" ? ["ready", "show", "hide", "show", "unload"] : ["ready", "show", "unload"]
            for channel in ["on", "dom", "wx"] {
                #expect(seen.filter { $0.hasPrefix(channel + ".") }.map { String($0.dropFirst(channel.count + 1)) } == expected,
                        "\(name) via \(channel): \(seen)")
            }
        }
        #expect(manager.stack.isEmpty)
    }

    @Test func unloadHandlersReachSwiftBeforeTheDocumentIsGone() async throws {
        let (manager, log) = try manager(pool: 0)
        // The close ends as soon as the page's handlers are done; the default 1-s grace is too short
        // for a 2-core CI machine running every suite at once (seen once on a fresh root).
        manager.unloadGrace = .seconds(10)
        let (page, events) = try opened(manager, WebRoute(Self.lifecyclePage + "?name=closing"))
        try await events.wait(.show)
        let started = ContinuousClock.now
        await manager.close(page)
        let grace = ContinuousClock.now - started
        #expect(log.page.contains("closing:on.unload"))
        #expect(log.page.contains("closing:goodbye"))  // a call made in the unload handler itself
        #expect(grace < .seconds(12), "close hung: \(grace)")
        #expect(page.state == .closed)
    }

    @Test func navigationToAnotherDocumentUnloadsAndStartsOver() async throws {
        let (manager, log) = try manager(pool: 0)
        let (page, events) = try opened(manager, WebRoute(Self.lifecyclePage + "?name=nav1"))
        log.attach(page, label: "p")
        try await events.wait(.show)
        _ = try await page.view.evaluateJavaScript("location.href = location.href.replace('nav1', 'nav2'); 0")
        try await events.wait(.show, occurrence: 2)
        #expect(log.swift == ["p:ready", "p:show", "p:unload", "p:ready", "p:show"])
        #expect(log.page.contains("nav1:on.unload"))
        page.view.reload()
        try await events.wait(.show, occurrence: 3)
        #expect(log.swift.suffix(3) == ["p:unload", "p:ready", "p:show"])
        await manager.closeAll()
    }

    @Test func openTakesAWarmViewAndThePoolRefillsAfterLoad() async throws {
        let (manager, _) = try manager(pool: 1)
        try await manager.waitForWarmView()
        let (page, events) = try opened(manager, WebRoute(Self.lifecyclePage + "?name=warm"))
        #expect(page.wasWarm)
        #expect(manager.pooledViews == 0)
        try await events.wait(.show)
        try await manager.waitForWarmView()  // refilled once the page had loaded
        let (second, secondEvents) = try opened(manager, WebRoute(Self.lifecyclePage + "?name=warm2"))
        #expect(second.wasWarm)
        try await secondEvents.wait(.ready)
        await manager.closeAll()
        #expect(manager.pooledViews == 0)
    }

    @Test func openingBeyondTheLimitFailsClearly() async throws {
        let (manager, _) = try manager(pool: 0) { $0.maxPages = 2 }
        _ = try manager.open(WebRoute(Self.lifecyclePage))
        _ = try manager.open(WebRoute(Self.lifecyclePage))
        #expect(throws: ShellError.invalidArgument("cannot open more than 2 pages (max_pages); close one first")) {
            _ = try manager.open(WebRoute(Self.lifecyclePage))
        }
        await manager.closeAll()
    }

    @Test func badRoutesFailBeforeAnythingLoads() throws {
        let (manager, _) = try manager(pool: 0)
        #expect(throws: ShellError.self) { _ = try manager.open(WebRoute("https://x/{missing}")) }
        #expect(throws: ShellError.self) { _ = try manager.open(WebRoute("https://x/", headers: [.init(name: "X", value: "a\nb")])) }
        #expect(manager.stack.isEmpty)
    }

    @Test func routeHeadersAndParametersReachTheServer() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let (manager, _) = try manager(pool: 0) { $0.defaults.headers = [WebRoute.Header(name: "X-Global", value: "g")] }
        let (_, events) = try opened(manager, WebRoute(server.origin + "/fixtures/manager/{file}?q={q}",
                                                      parameters: ["file": "lifecycle.html", "q": "a b&c"],
                                                      headers: [WebRoute.Header(name: "X-Token", value: "t1")]))
        try await events.wait(.show)
        let request = try #require(server.requests.first { $0.path == "/fixtures/manager/lifecycle.html" })
        #expect(request.query == "q=a%20b%26c")
        #expect(request.headers["x-token"] == "t1")
        #expect(request.headers["x-global"] == "g")
        await manager.closeAll()
    }

    @Test func cookiesAreSharedBetweenPages() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let (manager, _) = try manager(pool: 0)
        let (first, firstEvents) = try opened(manager, WebRoute(server.url("fixtures/manager/lifecycle.html?name=c1")))
        try await firstEvents.wait(.show)
        _ = try await first.view.evaluateJavaScript("document.cookie = 'shared=yes; path=/'; 0")
        let (second, secondEvents) = try opened(manager, WebRoute(server.url("fixtures/manager/lifecycle.html?name=c2")))
        try await secondEvents.wait(.show)
        #expect(try await second.view.evaluateJavaScript("document.cookie") == "shared=yes")
        await manager.closeAll()
    }

    final class Delegate: PageDelegate {
        var calls: [String] = []
        let label: String
        let cancelling: String?
        init(_ label: String, cancelling: String? = nil) { self.label = label; self.cancelling = cancelling }
        func page(_ page: Page, shouldStartLoad action: NavigationAction) -> NavigationDecision? {
            calls.append("\(label).shouldStart")
            return cancelling.map { action.url.contains($0) } == true ? .cancel : nil
        }
        func pageDidFinishLoad(_ page: Page) { calls.append("\(label).didFinish") }
        func page(_ page: Page, titleChanged title: String) { calls.append("\(label).title:\(title)") }
    }

    @Test func pageDelegateIsAskedBeforeTheGlobalOne() async throws {
        let (manager, _) = try manager(pool: 0)
        let global = Delegate("global", cancelling: "blocked-by-global")
        manager.delegate = global
        let (page, events) = try opened(manager, WebRoute(Self.lifecyclePage + "?name=d"))
        let own = Delegate("page", cancelling: "blocked-by-page")
        page.delegate = own
        try await events.wait(.show)
        #expect(own.calls.contains("page.didFinish"))
        #expect(global.calls.contains("global.didFinish"))
        let cancelled = PageEventExpectation(page.view) { if case .navigationCancelled(let url) = $0 { return url } else { return nil } }
        _ = try await page.view.evaluateJavaScript("location.href = location.href + '&blocked-by-global'; 0")
        #expect(try await cancelled.value(timeout: .seconds(30)).hasSuffix("blocked-by-global"))
        #expect(own.calls.last == "page.shouldStart")
        await manager.closeAll()
    }

    @Test func windowOpenWithTheNewPagePolicyPushesAPage() async throws {
        let (manager, log) = try manager(pool: 0) { $0.defaults.newWindows = .newPage }
        let (opener, openerEvents) = try opened(manager, WebRoute(Self.lifecyclePage + "?name=opener"))
        log.attach(opener, label: "opener")
        try await openerEvents.wait(.show)
        let openerSession = opener.bridge.currentSession?.id
        let pushed = PageEventExpectation(opener.view) { event -> String? in
            if case .newWindowRequested(_, let decision) = event { return decision.rawValue }
            return nil
        }
        _ = try await opener.view.evaluateJavaScript("window.open(location.href.replace('opener', 'popup')); 0")
        #expect(try await pushed.value(timeout: .seconds(30), "the pushed page") == "newPage")
        #expect(manager.stack.count == 2)
        let popup = try #require(manager.top)
        try await LifecycleRecorder(popup).wait(.show)
        #expect(popup.url.contains("popup"))
        #expect(log.swift.contains("opener:hide"))
        // The opener keeps its own session: the new page's bridge is its own.
        #expect(opener.bridge.currentSession?.id == openerSession)
        #expect(popup.bridge.currentSession?.id != openerSession)
        await manager.closeAll()
    }
}

@Suite("Page manager with a shared web process")
@EngineActor
struct SharedProcessTests {
    /// Views constructed with related-view (not through window.open) keep their own script
    /// message handlers: each page has its own bridge session and calls reach the right one.
    @Test func relatedViewsKeepSeparateBridges() async throws {
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.sharedProcess = true
        let manager = try PageManager(configuration: configuration)
        let first = try manager.open(WebRoute(Fixtures.pageURL("manager/lifecycle.html") + "?name=a"))
        let firstEvents = LifecycleRecorder(first)
        try await firstEvents.wait(.show)
        let second = try manager.open(WebRoute(Fixtures.pageURL("manager/lifecycle.html") + "?name=b"))
        try await LifecycleRecorder(second).wait(.show)
        let sessions = [first.bridge.currentSession?.id, second.bridge.currentSession?.id]
        #expect(sessions[0] != nil && sessions[1] != nil && sessions[0] != sessions[1])
        _ = try await first.view.evaluateJavaScript("hybrid.register('who', () => 'a'); 0")
        _ = try await second.view.evaluateJavaScript("hybrid.register('who', () => 'b'); 0")
        #expect(try await first.bridge.call("who", as: String.self) == "a")
        #expect(try await second.bridge.call("who", as: String.self) == "b")
        #expect(firstEvents.events == [.ready, .show, .hide])
        await manager.closeAll()
    }
}
