import HybridShellCore
import HybridShellWebKit

/// One page of a ``PageManager``'s stack (what a `WKWebView` controller is to an iOS hybrid app): its route, view and
/// bridge, its state, its lifecycle (pushed to the page as `show`/`hide`/`unload` and reported to
/// Swift), its delegate, and recovery when its web process dies.
@EngineActor
public final class Page {
    public enum State: Sendable, Equatable {
        case loading
        case loaded
        case failed(String)
        case closed
    }

    public let id: Int
    public let route: WebRoute
    public let url: String
    public let view: WebView
    public let bridge: Bridge
    public let settings: PageSettings
    /// Whether the view came pre-warmed from the pool.
    public let wasWarm: Bool
    public private(set) var state: State = .loading
    /// A page's own delegate, asked before the manager's.
    public weak var delegate: PageDelegate?
    weak var manager: PageManager?

    private var lifecycle = PageLifecycle(onTop: true)
    private var lifecycleObservers: [Int: (PageLifecycleEvent) -> Void] = [:]
    private var nextObserverID = 0
    private var lastDecision: (url: String, transition: LifecycleTransition)?
    private var crashes: [ContinuousClock.Instant] = []
    private var recoveryTimer: LoopTimer?
    private var tokens: [ObservationToken] = []

    public var title: String? { view.title }
    public var progress: Double { view.estimatedProgress }
    public var isOnTop: Bool { manager?.top === self }

    init(id: Int, route: WebRoute, url: String, view: WebView, bridge: Bridge, settings: PageSettings, wasWarm: Bool) {
        self.id = id
        self.route = route
        self.url = url
        self.view = view
        self.bridge = bridge
        self.settings = settings
        self.wasWarm = wasWarm
        tokens.append(view.observe { [weak self] event in self?.pageEvent(event) })
        tokens.append(bridge.observe { [weak self] event in self?.bridgeEvent(event) })
        view.addNavigationDecider { [weak self] action in self?.decide(action) }
    }

    // MARK: Lifecycle

    /// Calls `observer` with each lifecycle event from now on, in order.
    @discardableResult
    public func observeLifecycle(_ observer: @escaping (PageLifecycleEvent) -> Void) -> ObservationToken {
        let id = nextObserverID
        nextObserverID += 1
        lifecycleObservers[id] = observer
        return ObservationToken { [weak self] in self?.lifecycleObservers[id] = nil }
    }

    /// The lifecycle events from now on as an async sequence.
    public func lifecycleEvents() -> AsyncStream<PageLifecycleEvent> {
        let (stream, continuation) = AsyncStream<PageLifecycleEvent>.makeStream()
        let token = observeLifecycle { event in
            continuation.yield(event)
            if event == .unload, self.state == .closed { continuation.finish() }
        }
        continuation.onTermination = { _ in Task { @EngineActor in token.cancel() } }
        return stream
    }

    func signal(_ signal: PageLifecycle.Signal) {
        for event in lifecycle.handle(signal) {
            // ready is the page's own (its handshake); the others are pushed to the document they
            // were decided for, never queued for the next one.
            if event != .ready { bridge.emitToCurrentDocument(event.rawValue) }
            delegate?.page(self, lifecycle: event)
            manager?.delegate?.page(self, lifecycle: event)
            for id in lifecycleObservers.keys.sorted() { lifecycleObservers[id]?(event) }
        }
    }

    private func bridgeEvent(_ event: BridgeEvent) {
        switch event {
        case .ready, .denied: signal(.bridgeReady)
        case .ended: break
        }
    }

    private func pageEvent(_ event: PageEvent) {
        switch event {
        case .loadStarted(let url):
            // A new document unloads the old one before it goes; a reload does not.
            if let decision = lastDecision, decision.url == url, decision.transition == .unload {
                signal(.documentEnding)
            }
            lastDecision = nil
            state = .loading
            delegate?.pageDidStartLoad(self)
            manager?.delegate?.pageDidStartLoad(self)
        case .loadCommitted:
            signal(.documentStarted)
        case .loadFinished(_, let succeeded):
            guard succeeded else { return }
            state = .loaded
            signal(.loadFinished)
            delegate?.pageDidFinishLoad(self)
            manager?.delegate?.pageDidFinishLoad(self)
            manager?.pageLoaded(self)
        case .loadFailed(let error):
            guard error.kind != .cancelled else { return }
            state = .failed(error.message)
            delegate?.page(self, didFailLoad: error)
            manager?.delegate?.page(self, didFailLoad: error)
        case .webProcessTerminated(let reason):
            signal(.documentEnding)
            delegate?.page(self, didTerminate: reason)
            manager?.delegate?.page(self, didTerminate: reason)
            recover(from: reason)
        case .titleChanged(let title):
            delegate?.page(self, titleChanged: title)
            manager?.delegate?.page(self, titleChanged: title)
        case .progressChanged(let progress):
            delegate?.page(self, progressChanged: progress)
            manager?.delegate?.page(self, progressChanged: progress)
        default:
            break
        }
    }

    private func decide(_ action: NavigationAction) -> NavigationDecision? {
        let answer = delegate?.page(self, shouldStartLoad: action) ?? manager?.delegate?.page(self, shouldStartLoad: action)
        if answer != .cancel, !action.opensNewWindow {
            lastDecision = (action.url, LifecycleTransition.decide(action, currentURL: view.url, opensNewPage: false))
        }
        return answer
    }

    // MARK: Crash recovery

    private func recover(from reason: WebProcessTerminationReason) {
        guard state != .closed, reason != .terminatedByAPI || manager?.recoversFromAPITermination == true else { return }
        let policy = manager?.configuration.crashRecovery ?? CrashRecoveryPolicy()
        let now = ContinuousClock.now
        switch policy.decide(earlierCrashes: crashes, now: now) {
        case .reload(let delay):
            crashes.append(now)
            recoveryTimer = LoopTimer(after: delay) { [weak self] in
                guard let self, self.state != .closed else { return }
                if let url = self.manager?.recoveryURL?(self) { self.view.load(url) } else { self.view.reload() }
            }
        case .giveUp(let count):
            crashes.append(now)
            state = .failed(count == 1 ? "the web process crashed"
                : "the web process crashed \(count) times within \(policy.window.secondsText); gave up reloading")
            manager?.pageGaveUp(self)
        }
    }

    // MARK: Closing

    /// Sends `unload`, gives the page's handlers up to `grace` to run, then destroys the view.
    func close(grace: Duration) async {
        guard state != .closed else { return }
        if bridge.currentSession?.allowed == true, !lifecycle.isUnloaded {
            lifecycleUnloadWithoutPush()
            await bridge.emitAndWait("unload", timeout: grace)
        } else {
            signal(.documentEnding)
        }
        state = .closed
        recoveryTimer?.cancel()
        bridge.endSession(BridgeError(.bridgeReset, "the page was closed"))
        for token in tokens { token.cancel() }
        view.close()
    }

    /// Runs the Swift side of `unload` (the push happens with emitAndWait).
    private func lifecycleUnloadWithoutPush() {
        for event in lifecycle.handle(.documentEnding) {
            delegate?.page(self, lifecycle: event)
            manager?.delegate?.page(self, lifecycle: event)
            for id in lifecycleObservers.keys.sorted() { lifecycleObservers[id]?(event) }
        }
    }
}
