/// Runs test pages in real WebKit views: one shared ephemeral web context, a view warmed for each
/// worker up front, and a ``PageTestWorker`` per worker. Every view carries the bridge (with the mock
/// handlers and the built-ins behind the test handler) and the test adapter at document start.
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

        public init() {}
    }

    private let settings: Settings
    private let context: WebContext
    private let mocks = BridgeHandlers()
    private var pool: ViewPool!
    private var workers: [Int: PageTestWorker] = [:]

    public init(settings: Settings, workers: Int) throws(ShellError) {
        self.settings = settings
        try settings.userAgent.validate()
        var contextConfiguration = settings.context
        contextConfiguration.headless = !settings.window.isVisible
        context = try WebContext(configuration: contextConfiguration)
        settings.mockHandlers?.register(in: mocks)
        pool = ViewPool(size: max(1, workers)) { [unowned self] () throws(ShellError) in try self.makeView() }
    }

    /// Starts warming a view for each worker.
    public func prewarm() {
        pool.refill()
    }

    public func run(_ page: TestPage, worker: Int, attempt: Int) async -> PageTestResult {
        await self.worker(worker).run(page, attempt: attempt)
    }

    public func cancelAll(reason: String) {
        for worker in workers.values { worker.cancel(reason: reason) }
    }

    /// Destroys every view; their web processes exit.
    public func close() {
        for worker in workers.values { worker.close() }
        workers.removeAll()
        pool.drain()
    }

    private func worker(_ index: Int) -> PageTestWorker {
        if let worker = workers[index] { return worker }
        let worker = PageTestWorker(index: index, settings: .init(limits: settings.limits, screenshots: settings.screenshots,
                                                                  screenshotDirectory: settings.screenshotDirectory,
                                                                  additionalOrigins: settings.additionalOrigins,
                                                                  requestedFramework: settings.adapter.framework == .auto ? nil : settings.adapter.framework.rawValue,
                                                                  runnerName: settings.runnerName)) {
            [unowned self] () throws(ShellError) -> ViewPool.Entry in
            try self.takeView()
        }
        workers[index] = worker
        return worker
    }

    /// A warm view if one is ready, else a cold one. The pool is not refilled: a worker keeps its
    /// view for every page, so a spare would only idle; the rare replacement (after a crash or a
    /// hang) starts cold.
    private func takeView() throws(ShellError) -> ViewPool.Entry {
        if let warm = pool.takeWarmView() { return warm }
        return try makeView()
    }

    private func makeView() throws(ShellError) -> ViewPool.Entry {
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
                                            bridge: BridgeConfiguration(originPolicy: OriginPolicy(patterns: [])), handlers: [mocks])
        let view = entry.view
        entry.builtins.registerBuiltins(userAgent: view.userAgent, appName: settings.appName, appVersion: HybridShellVersion.current)
        entry.bridge.handlers.registerRaw(TestAdapterOptions.handlerName, inOrder: { [weak self] data, call in
            let event = try PageTestEvent(data.value)
            await self?.receive(event, sessionID: call.sessionID)
            return .null
        })
        view.addUserScript(UserScript(source: settings.adapter.script, injectionTime: .documentStart, frames: .topFrameOnly, world: .page))
        return entry
    }

    private func receive(_ event: PageTestEvent, sessionID: String) async {
        guard let worker = workers.values.first(where: { $0.sessionID == sessionID }) else { return }
        await worker.receive(event)
    }
}
