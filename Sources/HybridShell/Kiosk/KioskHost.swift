import Foundation

/// One full-screen app, locked down and kept alive: the engine side of `hybrid-run kiosk`.
///
/// A ``PageManager`` holds the single page. The host adds what an unattended screen needs: the
/// allow-list, input and permission policies, a hidden cursor, idle reset, a screen that stays on,
/// and recovery from crashes (home again, capped, then an error page that retries), hangs (a
/// heartbeat with a deadline; the hung web process is replaced) and failed loads (an error page
/// that retries with back-off).
@EngineActor
public final class KioskHost: PageDelegate {
    public let profile: KioskProfile
    public let manager: PageManager
    public let homeURL: String
    public let allowList: KioskAllowList
    public private(set) var page: Page?
    /// Every event, in order (the command logs them; tests watch them).
    public var onEvent: (KioskEvent) -> Void = { _ in }

    let inputPolicy: KioskInputPolicy
    let permissions: KioskPermissions
    let started = ContinuousClock.now
    private(set) var webProcessEnds = 0
    /// When the web process ended within the crash-recovery window (what the cap counts).
    private var recentEnds: [ContinuousClock.Instant] = []
    private(set) var hangs = 0
    private(set) var lastHeartbeat: ContinuousClock.Instant?
    private(set) var lastHeartbeatMilliseconds: Double?
    private(set) var showingErrorPage: String?

    private var heartbeat: HeartbeatState = .idle
    private var heartbeatGeneration = 0
    private var heartbeatTimer: LoopTimer?
    private var heartbeatDeadline: LoopTimer?
    private var endedAt: ContinuousClock.Instant?
    private var lastInput = ContinuousClock.now
    private var lastMotion = ContinuousClock.now
    private var idleTimer: LoopTimer?
    private var idleResetDone = false
    private var cursorTimer: LoopTimer?
    private var cursorHidden = false
    private var retryTimer: LoopTimer?
    private var loadRetries = 0
    private var screenSaverTimer: LoopTimer?
    private var tokens: [ObservationToken] = []

    private enum HeartbeatState {
        /// No document to ask (starting, or the web process is being replaced).
        case idle
        case waiting
        case pending(since: ContinuousClock.Instant)
    }

    /// - Parameter appName: what the built-in `system.info` handler reports as the application.
    public init(profile: KioskProfile, appName: String = "HybridShell kiosk") throws(ShellError) {
        self.profile = profile
        homeURL = try WebRoute(profile.home).request().url
        allowList = KioskAllowList(home: homeURL, patterns: profile.allow)
        inputPolicy = KioskInputPolicy(zoom: profile.zoom, allowedShortcuts: profile.allowedShortcuts)
        permissions = KioskPermissions(grants: profile.permissions)
        var shell = profile.shell
        shell.window = profile.window
        shell.defaults.newWindows = profile.windowOpen ? .sameView : .deny
        var contextConfiguration = try shell.contextConfiguration()
        contextConfiguration.headless = false
        contextConfiguration.memoryLimitMiB = profile.memoryLimitMiB
        let context = try WebContext(configuration: contextConfiguration)
        manager = try PageManager(configuration: shell, context: context)
        manager.appName = appName
        manager.recoversFromAPITermination = true
        manager.showsErrorPageOnGiveUp = false
        manager.recoveryURL = { [weak self] _ in self?.homeURL }
        manager.onGiveUp = { [weak self] _ in self?.gaveUp() }
        manager.delegate = self
    }

    /// Opens the home page and starts the watchdogs.
    public func start() throws(ShellError) {
        onEvent(.started(home: homeURL))
        let page = try manager.open(WebRoute(profile.home))
        self.page = page
        let view = page.view
        view.setBackground(red: profile.background.red, green: profile.background.green, blue: profile.background.blue)
        view.lockDown(inputFilter: { [weak self] input in self?.input(input) },
                      contextMenu: profile.contextMenu, zoom: profile.zoom,
                      permission: { [weak self] request in self?.permissions.allows(request) ?? false })
        view.focus()
        // window.open never gets a view of its own: refused, or (when allowed) loaded here.
        view.newWindowPolicy = .delegate
        view.onNewWindow = { [weak self] action in
            guard let self else { return .denied }
            guard self.profile.windowOpen else {
                self.onEvent(.windowOpenBlocked(url: action.url))
                return .denied
            }
            guard self.allowList.allows(action.url) else {
                self.onEvent(.navigationBlocked(url: action.url))
                return .denied
            }
            self.load(action.url)
            return .openedElsewhere
        }
        tokens.append(view.observe { [weak self] event in self?.pageEvent(event) })
        tokens.append(page.observeLifecycle { [weak self] event in self?.lifecycle(event) })
        setCursorHidden(profile.cursor == .hidden)
        scheduleCursorHiding()
        scheduleIdleReset()
        keepScreenOn()
        scheduleHeartbeat()
    }

    /// Closes the page (its `unload` handlers run) and stops every timer.
    public func stop(reason: String) async {
        onEvent(.stopping(reason: reason))
        for timer in [heartbeatTimer, heartbeatDeadline, idleTimer, cursorTimer, retryTimer, screenSaverTimer] { timer?.cancel() }
        heartbeat = .idle
        for token in tokens { token.cancel() }
        tokens.removeAll()
        await manager.closeAll()
        page = nil
    }

    // MARK: Navigation

    /// Loads an allow-listed URL (or path) in the kiosk's page.
    public func open(_ location: String) throws(ShellError) {
        let url = try WebRoute(location).request().url
        guard allowList.allows(url) else {
            throw .invalidArgument("\(url) is not on the kiosk's allow-list (\(allowList.patterns.joined(separator: ", ")))")
        }
        load(url)
    }

    public func goHome() {
        load(homeURL)
    }

    public func reload() {
        if let failed = showingErrorPage { load(failed) } else { page?.view.reload() }
    }

    private func load(_ url: String) {
        retryTimer?.cancel()
        showingErrorPage = nil
        page?.view.load(url)
    }

    public func page(_ page: Page, shouldStartLoad action: NavigationAction) -> NavigationDecision? {
        if action.opensNewWindow, !profile.windowOpen {
            onEvent(.windowOpenBlocked(url: action.url))
            return .cancel
        }
        guard allowList.allows(action.url) else {
            onEvent(.navigationBlocked(url: action.url))
            return .cancel
        }
        return nil
    }

    // MARK: Page events

    /// Before the page decides how to recover (and maybe gives up), so the log reads in order.
    public func page(_ page: Page, didTerminate reason: WebProcessTerminationReason) {
        let now = ContinuousClock.now
        webProcessEnds += 1
        let window = manager.configuration.crashRecovery.window
        recentEnds = recentEnds.filter { now - $0 < window } + [now]
        endedAt = now
        heartbeat = .idle
        heartbeatDeadline?.cancel()
        onEvent(.webProcessEnded(reason: reason.rawValue, count: recentEnds.count))
    }

    private func pageEvent(_ event: PageEvent) {
        switch event {
        case .loadCommitted:
            // A new document (possibly in a new web process) can answer heartbeats again.
            if case .idle = heartbeat { heartbeat = .waiting }
        case .loadFinished(let url, true) where showingErrorPage == nil:
            loadRetries = 0
            onEvent(.loaded(url: url))
        case .loadFailed(let error) where error.kind != .cancelled:
            loadFailed(error)
        case .inputBlocked(let input):
            onEvent(.inputBlocked(input))
        case .contextMenuSuppressed:
            onEvent(.contextMenuSuppressed)
        case .permissionDecided(let request, let granted):
            onEvent(.permission(kind: request.kind, origin: request.origin, granted: granted))
        case .responsivenessChanged(false):
            // WebKit's own watchdog agrees with a heartbeat already overdue: no need to wait more.
            if case .pending(let since) = heartbeat, ContinuousClock.now - since >= profile.heartbeatInterval { declareHung(since: since) }
        default:
            break
        }
    }

    private func lifecycle(_ event: PageLifecycleEvent) {
        onEvent(.lifecycle(event.rawValue))
        if event == .ready, showingErrorPage == nil, let endedAt {
            onEvent(.recovered(milliseconds: (ContinuousClock.now - endedAt).milliseconds))
            self.endedAt = nil
        }
    }

    private func loadFailed(_ error: LoadError) {
        let delays = profile.loadRetry.isEmpty ? [Duration.seconds(30)] : profile.loadRetry
        let delay = delays[min(loadRetries, delays.count - 1)]
        loadRetries += 1
        let url = error.url.isEmpty || !allowList.allows(error.url) ? homeURL : error.url
        onEvent(.loadFailed(url: url, message: error.message, retryAfterSeconds: delay.seconds))
        showError(title: "Cannot reach the app", message: "\(error.message). Trying again in \(Int(delay.seconds.rounded())) s.",
                  retry: url, after: delay)
    }

    private func gaveUp() {
        endedAt = nil
        let crashes = recentEnds.count
        onEvent(.gaveUp(crashes: crashes, retryAfterSeconds: profile.errorRetry.seconds))
        showError(title: "This app stopped working",
                  message: "Its web process ended repeatedly. Trying again in \(Int(profile.errorRetry.seconds.rounded())) s.",
                  retry: homeURL, after: profile.errorRetry)
    }

    private func showError(title: String, message: String, retry url: String, after delay: Duration) {
        showingErrorPage = url
        page?.view.load(html: ErrorPage.html(title: title, message: message, background: profile.background.description), baseURL: nil)
        retryTimer = LoopTimer(after: delay) { [weak self] in
            guard let self, self.showingErrorPage != nil else { return }
            self.onEvent(.retrying(url: url))
            self.showingErrorPage = nil
            self.page?.view.load(url)
        }
    }

    // MARK: Hang watchdog

    private func scheduleHeartbeat() {
        heartbeatTimer = LoopTimer(after: profile.heartbeatInterval) { [weak self] in
            self?.sendHeartbeat()
            self?.scheduleHeartbeat()
        }
    }

    /// Asks the document for `1` in a world of its own: any answer proves its main thread runs.
    private func sendHeartbeat() {
        guard case .waiting = heartbeat, let view = page?.view else { return }
        let since = ContinuousClock.now
        heartbeat = .pending(since: since)
        heartbeatGeneration += 1
        let generation = heartbeatGeneration
        heartbeatDeadline = LoopTimer(after: profile.heartbeatTimeout) { [weak self] in
            guard let self, self.heartbeatGeneration == generation, case .pending = self.heartbeat else { return }
            self.declareHung(since: since)
        }
        Task { @EngineActor [weak self] in
            // An error (the document went away mid-call) also means the process answered.
            _ = try? await view.evaluateJavaScript("1", in: .isolated("hybridshell-heartbeat"))
            guard let self, self.heartbeatGeneration == generation, case .pending = self.heartbeat else { return }
            self.heartbeatDeadline?.cancel()
            self.heartbeat = .waiting
            self.lastHeartbeat = .now
            self.lastHeartbeatMilliseconds = (ContinuousClock.now - since).milliseconds
        }
    }

    private func declareHung(since: ContinuousClock.Instant) {
        hangs += 1
        heartbeat = .idle
        heartbeatDeadline?.cancel()
        onEvent(.hung(heartbeatMilliseconds: (ContinuousClock.now - since).milliseconds))
        // Counted and recovered like a crash: home, capped, error page (PageManager.recoveryURL).
        page?.view.terminateWebProcess()
    }

    // MARK: Input, idle, cursor, screen

    private func input(_ event: InputEvent) -> String? {
        let now = ContinuousClock.now
        lastInput = now
        idleResetDone = false
        if event == .motion {
            lastMotion = now
            if cursorHidden, case .hiddenWhenIdle = profile.cursor { setCursorHidden(false) }
        }
        if case .block(let reason) = inputPolicy.decide(event) { return reason }
        return nil
    }

    private func scheduleIdleReset() {
        guard let idle = profile.idleReset else { return }
        let elapsed = ContinuousClock.now - lastInput
        // After a reset, look again a period later; the next input restarts the count anyway.
        let due = idleResetDone || elapsed >= idle ? idle : idle - elapsed
        idleTimer = LoopTimer(after: max(.milliseconds(50), due)) { [weak self] in
            guard let self else { return }
            if !self.idleResetDone, ContinuousClock.now - self.lastInput >= idle {
                self.idleResetDone = true
                self.idleReset()
            }
            self.scheduleIdleReset()
        }
    }

    private func idleReset() {
        let clear = profile.idleClearData
        onEvent(.idleReset(clearedData: clear))
        guard clear else { goHome(); return }
        Task { @EngineActor [weak self] in
            await self?.manager.context.clearWebsiteData()
            self?.goHome()
        }
    }

    private func setCursorHidden(_ hidden: Bool) {
        cursorHidden = hidden
        page?.view.setCursorHidden(hidden)
    }

    private func scheduleCursorHiding() {
        guard case .hiddenWhenIdle(let idle) = profile.cursor else { return }
        let due = max(.milliseconds(50), idle - (ContinuousClock.now - lastMotion))
        cursorTimer = LoopTimer(after: due) { [weak self] in
            guard let self else { return }
            if !self.cursorHidden, ContinuousClock.now - self.lastMotion >= idle { self.setCursorHidden(true) }
            self.scheduleCursorHiding()
        }
    }

    /// Whether the screen is kept on (X11: the screen saver and DPMS timers are reset every 30 s).
    var keepsScreenOn: Bool { profile.inhibitScreenSaver && ScreenSaver.canBeReset }

    private func keepScreenOn() {
        guard keepsScreenOn else { return }
        ScreenSaver.reset()
        screenSaverTimer = LoopTimer(after: .seconds(30)) { [weak self] in self?.keepScreenOn() }
    }
}
