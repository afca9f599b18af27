import HybridShellCore
import HybridShellWebKit

/// Runs test pages in real WebKit views with a ``PageTestWorker`` per worker, each worker's view
/// warmed up front. Every view carries the bridge (with the mock handlers and the built-ins behind
/// the test handler) and the test adapter at document start.
///
/// Isolated (the default, ``PageTestIsolation/perPage``): each worker has its own ephemeral web
/// context, emptied after every page (`webkit_website_data_manager_clear`), and its view is made
/// to look new between pages (see ``PageTestWorker``). Shared (``PageTestIsolation/shared``): one
/// context for the run, so a page sees what earlier pages (of any worker) left.
@EngineActor
public final class WebKitPageTestExecutor: PageTestExecutor {
    public struct Settings: Sendable {
        public var adapter = TestAdapterOptions()
        public var limits = PageTestLimits()
        public var screenshots = ScreenshotMode.onlyOnFailure
        public var screenshotDirectory = "test-results/screenshots"
        public var width = 1280
        public var height = 800
        public var window = WebViewConfiguration.Window.none
        public var userAgent: UserAgent = .engineDefault
        public var additionalOrigins: [OriginPattern] = []
        public var mockHandlers: MockHandlers?
        /// file: test pages may read other local files (their fixtures); on for page tests.
        public var allowFileAccess = true
        /// The engine state of the run's views (ephemeral unless set); `headless` follows ``window``.
        public var context = WebContextConfiguration()
        /// Reported by the built-in `system.info` handler as the application.
        public var appName = "HybridShell page tests"
        /// Starts the runner's own notes among a page's console lines (`NAME: the web process crashed…`).
        public var runnerName = "HybridShell"
        public var isolation = PageTestIsolation.perPage
        /// Built-in native modules for the pages, deterministic (see ``PageTestModules``).
        public var modules = ModuleConfiguration()
        /// Where `storage` (and `files.save`) keep their files; nil: in memory, per page when isolated.
        public var moduleDataDirectory: String?

        public init() {}
    }

    private let settings: Settings
    private let context: WebContext
    private let mocks = BridgeHandlers()
    private var pool: ViewPool!
    private var workers: [Int: PageTestWorker] = [:]
    private let workerCount: Int
    /// Isolated mode: each worker's own context and its next view, warming.
    private var isolated: [Int: (context: WebContext, spare: ViewPool)] = [:]
    private var modules: PageTestModules?
    /// The file-share scheme, registered on every context of the run when modules are on.
    private let shareSchemes: [SchemeRegistration]

    public init(settings: Settings, workers: Int) throws(ShellError) {
        self.settings = settings
        try settings.userAgent.validate()
        var contextConfiguration = settings.context
        contextConfiguration.headless = !settings.window.isVisible
        let shares = settings.modules.enabled.isEmpty ? nil : FileShares()
        shareSchemes = try PageTestModules.registrations(for: shares)
        contextConfiguration.schemes += shareSchemes
        context = try WebContext(configuration: contextConfiguration)
        workerCount = max(1, workers)
        settings.mockHandlers?.register(in: mocks)
        modules = try PageTestModules(settings.modules, dataDirectory: settings.moduleDataDirectory, isolation: settings.isolation,
                                      shares: shares, context: context, window: settings.window, width: settings.width,
                                      height: settings.height, appName: settings.appName)
        pool = ViewPool(size: settings.isolation == .shared ? workerCount : 0) { [unowned self] () throws(ShellError) in
            try self.makeView(in: self.context)
        }
    }

    /// Starts warming a view for each worker.
    public func prewarm() {
        switch settings.isolation {
        case .shared:
            pool.refill()
        case .perPage:
            for index in 0..<workerCount { isolated(index)?.spare.refill() }
        }
    }

    public func run(_ page: TestPage, worker: Int, attempt: Int) async -> PageTestResult {
        modules?.begin(page, worker: worker)
        return await self.worker(worker).run(page, attempt: attempt)
    }

    public func cancelAll(reason: String) {
        for worker in workers.values { worker.cancel(reason: reason) }
    }

    /// Destroys every view; their web processes exit.
    public func close() {
        for worker in workers.values { worker.close() }
        workers.removeAll()
        pool.drain()
        for state in isolated.values { state.spare.drain() }
        modules?.close()
    }

    private func worker(_ index: Int) -> PageTestWorker {
        if let worker = workers[index] { return worker }
        let worker = PageTestWorker(index: index, settings: .init(limits: settings.limits, screenshots: settings.screenshots,
                                                                  screenshotDirectory: settings.screenshotDirectory,
                                                                  additionalOrigins: settings.additionalOrigins,
                                                                  requestedFramework: settings.adapter.framework == .auto ? nil : settings.adapter.framework.rawValue,
                                                                  runnerName: settings.runnerName,
                                                                  hideWhileBlank: settings.isolation == .perPage && settings.window.isOffscreen)) {
            [unowned self] () async throws(ShellError) -> ViewPool.Entry in
            try await self.takeView(worker: index)
        }
        if settings.isolation == .perPage {
            worker.resetState = { [unowned self] keepMemoryCache in
                await self.isolated(index)?.context.clearWebsiteData(keepingMemoryCache: keepMemoryCache)
            }
        }
        workers[index] = worker
        return worker
    }

    /// A worker's own context and its view warming up front (isolated mode), made on first use.
    /// Nil when the context cannot be made; the worker then reports that its page got no view.
    /// The first worker takes the run's context (made the same way, and otherwise unused when
    /// isolated): a context of its own would only start one more network process.
    private func isolated(_ index: Int) -> (context: WebContext, spare: ViewPool)? {
        if let state = isolated[index] { return state }
        var configuration = settings.context
        configuration.headless = !settings.window.isVisible
        configuration.schemes += shareSchemes
        guard let context = index == 0 ? self.context : try? WebContext(configuration: configuration) else { return nil }
        let spare = ViewPool(size: 1) { [unowned self] () throws(ShellError) in try self.makeView(in: context) }
        isolated[index] = (context, spare)
        return (context, spare)
    }

    /// The warm view (waiting for it if it is still warming), else a cold one. The pool is not
    /// refilled: a worker keeps its view for every page, so a spare would only idle; the rare
    /// replacement (after a crash or a hang) starts cold.
    private func takeView(worker index: Int) async throws(ShellError) -> ViewPool.Entry {
        let entry = try await takeAnyView(worker: index)
        modules?.attach(entry, worker: index)
        return entry
    }

    private func takeAnyView(worker index: Int) async throws(ShellError) -> ViewPool.Entry {
        switch settings.isolation {
        case .shared:
            if let warm = await pool.takeWarmViewWaiting() { return warm }
            return try makeView(in: context)
        case .perPage:
            guard let state = isolated(index) else { throw .invalidArgument("cannot create a web context for worker \(index + 1)") }
            if let warm = await state.spare.takeWarmViewWaiting() { return warm }
            return try makeView(in: state.context)
        }
    }

    private func makeView(in context: WebContext) throws(ShellError) -> ViewPool.Entry {
        var configuration = WebViewConfiguration()
        configuration.window = settings.window
        configuration.width = settings.width
        configuration.height = settings.height
        configuration.userAgent = settings.userAgent
        // A test page that opens a window must not navigate itself away from its tests.
        configuration.newWindowPolicy = .deny
        // Test suites load their own fixtures (JSON, HTML) with fetch/XHR from file: pages.
        configuration.allowsFileAccessFromFileURLs = settings.allowFileAccess
        let entry = try ViewPool.Entry.make(view: configuration, context: context,
                                            bridge: BridgeConfiguration(originPolicy: OriginPolicy(patterns: [])),
                                            handlers: [mocks] + (modules.map { [$0.handlers] } ?? []))
        let view = entry.view
        for script in modules?.userScripts ?? [] { view.addUserScript(script) }
        entry.builtins.registerBuiltins(userAgent: view.userAgent, appName: settings.appName, appVersion: HybridShellVersion.current)
        entry.bridge.handlers.registerRaw(TestAdapterOptions.handlerName, inOrder: { [weak self] data, call in
            let event = try PageTestEvent(data.value)
            await self?.receive(event, sessionID: call.sessionID)
            return .null
        })
        var adapter = settings.adapter
        adapter.silenceUnloadAfterRun = settings.isolation == .perPage
        view.addUserScript(UserScript(source: adapter.script, injectionTime: .documentStart, frames: .topFrameOnly, world: .page))
        return entry
    }

    private func receive(_ event: PageTestEvent, sessionID: String) async {
        guard let worker = workers.values.first(where: { $0.sessionID == sessionID }) else { return }
        await worker.receive(event)
    }
}
