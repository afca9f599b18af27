import Foundation
import HybridShellCore
import HybridShellWebKit

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
    /// The profile's native modules (`modules = [...]`); the home's origin has every enabled one.
    public private(set) var modules: ModuleHost?
    /// Every event, in order (the command logs them; tests watch them).
    public var onEvent: (KioskEvent) -> Void = { _ in }

    let inputPolicy: KioskInputPolicy
    let permissions: KioskPermissions
    let started = ContinuousClock.now
    private(set) var webProcessEnds = 0
    /// When the web process ended within the crash-recovery window (what the cap counts).
    private var recentEnds: [ContinuousClock.Instant] = []
    internal(set) var hangs = 0
    internal(set) var lastHeartbeat: ContinuousClock.Instant?
    internal(set) var lastHeartbeatMilliseconds: Double?
    private(set) var showingErrorPage: String?

    var heartbeat: HeartbeatState = .idle
    var heartbeatGeneration = 0
    var heartbeatTimer: LoopTimer?
    var heartbeatDeadline: LoopTimer?
    private var endedAt: ContinuousClock.Instant?
    var lastInput = ContinuousClock.now
    var lastMotion = ContinuousClock.now
    var idleTimer: LoopTimer?
    var idleResetDone = false
    var cursorTimer: LoopTimer?
    var cursorHidden = false
    private var retryTimer: LoopTimer?
    private var loadRetries = 0
    var screenSaverTimer: LoopTimer?
    private var tokens: [ObservationToken] = []

    enum HeartbeatState {
        /// No document to ask (starting, or the web process is being replaced).
        case idle
        case waiting
        case pending(since: ContinuousClock.Instant)
    }

    /// - Parameter appName: what the built-in `system.info` handler reports as the application.
    public init(profile: KioskProfile, appName: String = "HybridShell kiosk") throws(ShellError) {
        self.profile = profile
        var home = WebRoute(profile.home)
        home.customSchemes = profile.shell.customSchemes
        homeURL = try home.request().url
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
        // Modules follow the window (native dialogs, the desktop clipboard), but a file is only
        // ever chosen by the profile (module_settings.file_choice): no chooser escapes the lock-down.
        modules = try ModuleHost.builtins(profile.shell.modules, manager: manager, openedURL: homeURL, dataDirectory: shell.storage.directory,
                                          options: .init(nativeFileChooser: false))
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
        recentEnds = manager.configuration.crashRecovery.recentCrashes(recentEnds, now: now) + [now]
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
        // A policy error is a navigation the kiosk refused (a redirect off the allow-list): the
        // page on screen stays, and only real load failures get the error page.
        case .loadFailed(let error) where error.kind != .cancelled && error.kind != .policy:
            loadFailed(error)
        case .inputBlocked(let input):
            onEvent(.inputBlocked(input))
        case .contextMenuSuppressed:
            onEvent(.contextMenuSuppressed)
        case .permissionDecided(let request, let granted):
            onEvent(.permission(kind: request.kind.rawValue, origin: request.origin, granted: granted))
        case .nativeDialogRefused(let request):
            onEvent(.nativeDialogRefused(request))
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
        let delay = CrashRecoveryPolicy.delay(profile.loadRetry.isEmpty ? [.seconds(30)] : profile.loadRetry, attempt: loadRetries)
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
}
