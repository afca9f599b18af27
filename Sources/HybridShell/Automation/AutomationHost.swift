import Foundation

/// One WebDriver session: hands WebKitWebDriver the views it asks for, each with the native bridge
/// attached, and closes every view (and so every web process) when the session ends.
///
/// Corresponds to a `WebKitWebContext` with `webkit_web_context_set_automation_allowed`, its
/// `automation-started` signal and the `WebKitAutomationSession`'s `create-web-view`. Views are
/// made with `is-controlled-by-automation`; their JavaScript dialogs are left to the client
/// (WebDriver's user-prompt commands), never answered here.
@EngineActor
public final class AutomationHost {
    public let options: AutomationOptions
    /// The native handlers every view's bridge calls (mocks from ``AutomationOptions/mockHandlers``
    /// are registered here); built-ins (`echo`, `system.info`, `log`) come after them.
    public let handlers = BridgeHandlers()
    /// Every event, synchronously, in order.
    public var onEvent: (AutomationEvent) -> Void = { _ in }

    private var context: WebContext?
    private var automation: WebKitAutomation?
    private var views: [(view: WebView, bridge: Bridge)] = []
    private var transcript: BridgeTranscript?
    private var outcome: RunOutcome?
    private var finish: CheckedContinuation<RunOutcome, Never>?
    private var sessionStarted = false

    public init(options: AutomationOptions) {
        self.options = options
        options.mockHandlers?.register(in: handlers)
    }

    /// The views open now, in creation order.
    public var openViews: [WebView] { views.map(\.view) }

    /// Waits for the client to start the session, serves it, and returns once it ended (success),
    /// on SIGINT/SIGTERM (success), or with an error: no `WEBKIT_INSPECTOR_SERVER` (usage: this
    /// process was not started by a WebDriver), no display, or no session within
    /// ``AutomationOptions/sessionStartTimeout`` (timeout).
    public func run() async -> RunOutcome {
        guard WebKitAutomation.inspectorServerAddress != nil else {
            if let refusal = options.refusal { return RunOutcome(.usage, refusal) }
            return RunOutcome(.usage, "--automation is for WebKitWebDriver, which starts the browser with WEBKIT_INSPECTOR_SERVER set; "
                + "give hybrid-run as the webkitgtk:browserOptions binary instead of starting it yourself")
        }
        if let problem = MainLoop.displayError { return RunOutcome(.failure, problem) }
        do {
            // The headless tuning (no DMA-BUF renderer) also makes WebDriver's element screenshots
            // show the page; with the DMA-BUF renderer they are black under Xvfb, as MiniBrowser's are.
            let context = try WebContext(storage: options.storage, headless: true)
            self.context = context
            if let path = options.bridgeLog { transcript = try BridgeTranscript(path: path) }
            let refusal = options.refusal
            var info = Self.applicationInfo
            if refusal != nil { info.name = AutomationOptions.refusedBrowserName }
            let automation = WebKitAutomation(context: context.native, info: info)
            automation.onSessionStarted = { [weak self] in self?.started() }
            automation.onSessionEnded = { [weak self] in self?.settle(refusal.map { RunOutcome(.usage, $0) } ?? .success) }
            automation.makeView = { [weak self] in refusal == nil ? (try? self?.openView())?.native : nil }
            self.automation = automation
        } catch {
            return RunOutcome(.usage, "\(error)")
        }
        TerminationSignals.install { [weak self] _ in self?.settle(.success) }
        let deadline = options.sessionStartTimeout
        Task { @EngineActor [weak self] in
            try? await Task.sleep(for: deadline)
            guard let self else { return }
            if let refusal = self.options.refusal { self.settle(RunOutcome(.usage, refusal)); return }
            guard !self.sessionStarted else { return }
            self.settle(RunOutcome(.timeout, "no WebDriver session started within \(deadline.secondsText)"))
        }
        let result = await withCheckedContinuation { continuation in
            if let outcome { continuation.resume(returning: outcome) } else { finish = continuation }
        }
        closeAll()
        return result
    }

    /// Makes a view the way the session's views are made, with its bridge, and keeps it until it
    /// asks to close or the session ends.
    @discardableResult
    public func openView() throws(ShellError) -> WebView {
        guard let context else { throw .invalidArgument("the automation host is not running") }
        var configuration = WebViewConfiguration()
        configuration.window = options.window
        configuration.width = options.width
        configuration.height = options.height
        configuration.userAgent = options.userAgent
        configuration.developerExtras = options.developerExtras
        configuration.controlledByAutomation = true
        // WebKit keeps a dialog of an automated view open for WebDriver's user-prompt commands.
        configuration.dialogPolicy = .native
        configuration.newWindowPolicy = .delegate
        let view = try WebView(configuration: configuration, context: context)
        view.native.addPresentationTicker()
        let builtins = BridgeHandlers()
        builtins.registerBuiltins(userAgent: view.userAgent, appName: AutomationOptions.browserName, appVersion: HybridShellVersion.current)
        let origins = options.allowedOrigins.map { OriginPolicy(patterns: $0) } ?? .anyOrigin
        let bridge = Bridge(view: view, configuration: BridgeConfiguration(originPolicy: origins),
                            handlers: BridgeHandlers(fallbacks: [handlers, builtins]))
        bridge.transcript = transcript
        // window.open and target=_blank get a window of their own, which the client sees as a new
        // handle (the opener gets null, as with noopener).
        view.onNewWindow = { [weak self] action in
            guard let self, !action.url.isEmpty, let opened = try? self.openView() else { return .denied }
            opened.load(action.url)
            return .openedElsewhere
        }
        view.observe { [weak self, weak view] event in
            guard let self, let view else { return }
            self.viewEvent(event, view)
        }
        views.append((view, bridge))
        onEvent(.viewCreated(count: views.count))
        return view
    }

    private func viewEvent(_ event: PageEvent, _ view: WebView) {
        switch event {
        case .closeRequested:
            close(view)
        case .webProcessTerminated(let reason):
            onEvent(.webProcessTerminated(url: view.url ?? "", reason: reason))
        default:
            break
        }
    }

    private func close(_ view: WebView) {
        guard let index = views.firstIndex(where: { $0.view === view }) else { return }
        let entry = views.remove(at: index)
        entry.bridge.endSession()
        entry.view.close()
    }

    private func closeAll() {
        while let entry = views.popLast() {
            entry.bridge.endSession()
            entry.view.close()
        }
    }

    private func started() {
        sessionStarted = true
        onEvent(.sessionStarted)
    }

    private func settle(_ result: RunOutcome) {
        guard outcome == nil else { return }
        if sessionStarted, result == .success { onEvent(.sessionEnded) }
        outcome = result
        finish?.resume(returning: result)
        finish = nil
    }

    /// `hybrid-run` and HybridShell's version, as WebKitWebDriver reports them (`browserName`,
    /// `browserVersion`).
    static var applicationInfo: WebKitAutomation.ApplicationInfo {
        let parts = HybridShellVersion.current.split(separator: ".").map { UInt($0) ?? 0 } + [0, 0, 0]
        return .init(name: AutomationOptions.browserName, major: parts[0], minor: parts[1], micro: parts[2])
    }
}
