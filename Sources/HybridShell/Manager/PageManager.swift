import HybridShellCore
import HybridShellWebKit

/// Pages on a stack, views from a pool of pre-warmed ones, one shared web context (cookies,
/// storage, cache): a stack of pages over a pool of warm views, and the home of the lifecycle guarantees.
///
///     let manager = try PageManager(configuration: ShellConfiguration())
///     let page = try await manager.open(WebRoute("https://app.example/{lang}", parameters: ["lang": "en"]))
///     page.observeLifecycle { print($0) }        // ready, show, hide, unload
///     await manager.close()                      // unload, then the view is destroyed
@EngineActor
public final class PageManager {
    public let configuration: ShellConfiguration
    public let context: WebContext
    /// Native handlers every page can call; a page's own bridge registry falls back to these.
    public let handlers: BridgeHandlers
    /// The manager-level delegate, asked after a page's own.
    public weak var delegate: PageDelegate?
    /// Called when a page gives up after repeated crashes (`hybrid-run` exits with code 2).
    public var onGiveUp: (Page) -> Void = { _ in }
    /// Called with every page that opens from now on, before it loads (the app's own and those
    /// pages open with `window.open` under the `new-page` policy), so its events can be watched.
    public var onPageOpened: (Page) -> Void = { _ in }
    /// Whether ``WebView/terminateWebProcess()`` counts as a crash to recover from (tests, and the
    /// kiosk's hang watchdog, which replaces a hung web process that way).
    public var recoversFromAPITermination = false
    /// Where a page goes after its web process died: nil reloads the page; the kiosk goes home.
    public var recoveryURL: ((Page) -> String?)?
    /// Whether a page that gave up shows the built-in error page (the kiosk shows its own).
    public var showsErrorPageOnGiveUp = true
    /// Time a closing page's `unload` handlers get before the view is destroyed.
    public var unloadGrace: Duration = .seconds(1)
    /// Reported by the built-in `system.info` handler.
    public var appName = "HybridShell"
    public var appVersion = HybridShellVersion.current
    /// Writes every page's bridge traffic here when set (`--bridge-log`).
    public var transcript: BridgeTranscript?
    /// Page-world scripts added to every view made from now on, after the bridge's (module facades).
    public var userScripts: [UserScript] = []

    public private(set) var stack: [Page] = []
    private var nextPageID = 1
    private var pool: ViewPool!
    private var firstView: WebView?
    private let namedWindows = NamedWindows()

    public var top: Page? { stack.last }
    /// The `hybrid-file://` shares of this manager's pages (``ShellConfiguration/fileShares``).
    public var fileShares: FileShares? { configuration.fileShares }
    /// Views warming or ready in the pool.
    public var pooledViews: Int { pool.count }

    public init(configuration: ShellConfiguration, context: WebContext? = nil, handlers: BridgeHandlers = BridgeHandlers()) throws(ShellError) {
        self.configuration = configuration
        if let context {
            self.context = context
        } else {
            self.context = try WebContext(configuration: configuration.contextConfiguration())
        }
        self.handlers = handlers
        configuration.byteStreams?.install(in: handlers)
        pool = ViewPool(size: configuration.poolSize) { [unowned self] () throws(ShellError) in
            try self.makeView(injection: .documentStart)
        }
    }

    /// Starts warming the pool (the first `open` does not wait for it).
    public func prewarm() {
        pool.refill()
    }

    /// Waits until the pool holds a warm view, with a deadline.
    public func waitForWarmView(timeout: Duration = .seconds(30)) async throws(ShellError) {
        guard pool.size > 0 else { throw .invalidArgument("the pool is empty by configuration (pool = 0)") }
        pool.refill()
        let warm = Handoff<Void>()
        Task { @EngineActor [weak warm, pool] in
            await pool?.waitForReadyView()
            warm?.fulfill(())
        }
        do {
            try await warm.value(timeout: timeout, "warm view")
        } catch {
            throw .timedOut("no warm view within \(timeout.secondsText)")
        }
    }

    /// Opens a route on top of the stack. Everything about the route is checked before anything
    /// loads; a warm view is used when one is ready.
    @discardableResult
    public func open(_ route: WebRoute, settings overrides: PageSettings = PageSettings()) throws(ShellError) -> Page {
        try open(route, settings: overrides, originPolicy: nil)
    }

    /// ``open(_:settings:)``; a page opened by another page's `window.open` gets its opener's
    /// `originPolicy`, never one made from its own URL (which any frame could choose).
    func open(_ route: WebRoute, settings overrides: PageSettings, originPolicy: OriginPolicy?) throws(ShellError) -> Page {
        guard stack.count < configuration.maxPages else {
            throw .invalidArgument("cannot open more than \(configuration.maxPages) pages (max_pages); close one first")
        }
        var route = route
        // The schemes this shell serves are URLs a route may name (an embedder need not list them).
        for scheme in configuration.customSchemes where !route.customSchemes.contains(scheme) { route.customSchemes.append(scheme) }
        let (resolvedURL, _) = try route.request()
        let settings = configuration.settings(for: resolvedURL, overrides: overrides)
        route.headers = (settings.headers ?? []) + route.headers
        if let timeout = settings.timeout, route.timeout == .seconds(30) { route.timeout = timeout }
        if let cachePolicy = settings.cachePolicy, route.cachePolicy == .useProtocol { route.cachePolicy = cachePolicy }
        let (url, headers) = try route.request()

        let injection = settings.injection ?? .documentStart
        let warm: ViewPool.Entry? = injection == .documentStart ? pool.takeWarmView() : nil
        let entry: ViewPool.Entry
        if let warm { entry = warm } else { entry = try makeView(injection: injection) }
        try configure(entry, settings: settings, url: url, originPolicy: originPolicy)
        let page = Page(id: nextPageID, route: route, url: url, view: entry.view, bridge: entry.bridge,
                        settings: settings, wasWarm: warm != nil)
        nextPageID += 1
        page.manager = self
        stack.last?.signal(.coveredOrHidden)
        stack.last?.view.setVisible(false)
        stack.append(page)
        onPageOpened(page)
        entry.view.load(url, headers: headers.map { ($0.name, $0.value) })
        return page
    }

    /// Closes `page` (the top page by default): `unload`, then its view is destroyed. The page
    /// below becomes the top and is shown again.
    public func close(_ page: Page? = nil) async {
        guard let page = page ?? top, let index = stack.firstIndex(where: { $0 === page }) else { return }
        let wasTop = index == stack.count - 1
        stack.remove(at: index)
        await page.close(grace: unloadGrace)
        if wasTop, let newTop = top {
            newTop.view.setVisible(true)
            newTop.signal(.becameTop)
        }
    }

    public func closeAll() async {
        while let page = top { await close(page) }
        pool.drain()
    }

    /// Stops the pool for good: nothing refills it, and its views close once none is still
    /// starting (at most `limit`). For a process about to exit: closing a view only asks its web
    /// process to quit, so one still starting carries on into `gtk_init`, and under `xvfb-run` the
    /// display goes as soon as this process exits ("cannot open display" after everything else;
    /// `webkit_web_view_terminate_web_process` does not stop a process WebKit is still launching).
    /// Open pages are left as they are.
    public func stopWarming(within limit: Duration = .seconds(2)) async {
        refillTimer?.cancel()
        refillTimer = nil
        warmingStopped = true
        await pool.waitUntilSettled(within: limit)
        pool.drain()
    }

    // MARK: Views

    func makeView(injection: BridgeConfiguration.Injection) throws(ShellError) -> ViewPool.Entry {
        var configuration = WebViewConfiguration()
        configuration.window = self.configuration.window
        configuration.width = self.configuration.width
        configuration.height = self.configuration.height
        configuration.developerExtras = self.configuration.developerExtras
        configuration.allowsFileAccessFromFileURLs = self.configuration.allowFileAccess
        // Extra views may share the first one's web process (related views) to save memory.
        configuration.sharesProcessWith = self.configuration.sharedProcess ? firstView : nil
        var bridgeConfiguration = BridgeConfiguration(originPolicy: OriginPolicy(patterns: []))
        bridgeConfiguration.injection = injection
        let entry = try ViewPool.Entry.make(view: configuration, context: context, bridge: bridgeConfiguration, handlers: [handlers])
        if firstView == nil { firstView = entry.view }
        for script in userScripts { entry.view.addUserScript(script) }
        // A document's shared files die with its bridge session.
        if let shares = self.configuration.fileShares {
            entry.bridge.observe { event in
                if case .ended(let session, _) = event { shares.endSession(session) }
            }
        }
        // So do its streams (both sides see BRIDGE_RESET).
        if let streams = self.configuration.byteStreams {
            entry.bridge.observe { event in
                if case .ended(let session, _) = event { streams.endSession(session) }
            }
        }
        return entry
    }

    private func configure(_ entry: ViewPool.Entry, settings: PageSettings, url: String, originPolicy: OriginPolicy?) throws(ShellError) {
        try entry.view.setUserAgent(settings.userAgent ?? .engineDefault)
        entry.builtins.registerBuiltins(userAgent: entry.view.userAgent, appName: appName, appVersion: appVersion)
        entry.view.dialogPolicy = (settings.dialogs ?? .accept).policy
        entry.bridge.originPolicy = originPolicy ?? .opening(url, additional: settings.allowedOrigins ?? [])
        entry.bridge.transcript = transcript
        switch settings.newWindows ?? .sameView {
        case .sameView: entry.view.newWindowPolicy = .sameView
        case .deny: entry.view.newWindowPolicy = .deny
        case .newPage:
            // A separate page of its own, not WebKit's popup view (which would share the opener's
            // script message handlers); window.open returns null in the opener.
            entry.view.newWindowPolicy = .delegate
            let opener = entry.bridge
            entry.view.onNewWindow = { [weak self, weak opener] action in
                guard let self, let opener, !action.url.isEmpty else { return .denied }
                // A window a target=NAME link named is reused while it is open (see NamedWindows).
                let name = NamedWindows.name(of: action)
                if let name, self.namedWindows.load(action.url, inWindowNamed: name) { return .openedElsewhere }
                guard let page = try? self.open(WebRoute(action.url), settings: PageSettings(), originPolicy: opener.originPolicy)
                else { return .denied }
                if let name { self.namedWindows.adopt(page.view, name: name) }
                return .openedElsewhere
            }
        }
    }

    // MARK: From pages

    /// The pool refills only after a page has loaded, and only when the loop is otherwise idle,
    /// so warming a view never delays the page that was just opened.
    func pageLoaded(_ page: Page) {
        guard !warmingStopped, pool.count < pool.size, refillTimer == nil else { return }
        refillTimer = LoopTimer(whenIdle: { [weak self] in
            self?.refillTimer = nil
            self?.pool.refill()
        })
    }

    private var refillTimer: LoopTimer?
    private var warmingStopped = false

    func pageGaveUp(_ page: Page) {
        if showsErrorPageOnGiveUp {
            page.view.load(html: ErrorPage.html(title: "This page stopped working",
                                            message: "Its web process crashed repeatedly, so HybridShell stopped reloading it."),
                           baseURL: nil)
        }
        onGiveUp(page)
    }
}
