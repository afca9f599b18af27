import HybridShellCore

/// A web page in a WebKitGTK view: load it, watch it, script it, decide what it may do.
///
/// Corresponds to `WebKitWebView`. Every method runs on ``EngineActor``. Observers see
/// ``PageEvent``s synchronously, in WebKit's order; ``events()`` offers the same as an
/// `AsyncStream`.
@EngineActor
public final class WebView {
    public let configuration: WebViewConfiguration
    public let context: WebContext
    let native: WebKitView
    private var observers: [Int: (PageEvent) -> Void] = [:]
    private var nextObserverID = 0
    private var navigationDeciders: [(NavigationAction) -> NavigationDecision?] = []
    private var dialogInterceptors: [(ScriptDialog, PendingDialog) -> Bool] = []

    /// Answers dialogs no interceptor took; starts as the configuration's.
    public var dialogPolicy: DialogPolicy
    /// What `window.open` / `target=_blank` do; starts as the configuration's.
    public var newWindowPolicy: NewWindowPolicy

    /// Decides navigations no ``addNavigationDecider(_:)`` decider claimed (`decide-policy`).
    public var navigationPolicy: (NavigationAction) -> NavigationDecision = { _ in .allow }
    /// With ``NewWindowPolicy/delegate``: opens the new window's URL elsewhere, or refuses.
    ///
    /// WebKit would give a view it creates for `window.open` the opener's user content manager, so
    /// the popup's script messages would reach the opener's handlers; a separate page is safer.
    public var onNewWindow: (NavigationAction) -> NewWindowResponse = { _ in .denied }

    public init(configuration: WebViewConfiguration = .init(), context given: WebContext? = nil) throws(ShellError) {
        try configuration.userAgent.validate()
        let context: WebContext
        if let given { context = given } else { context = try WebContext.shared() }
        self.configuration = configuration
        self.context = context
        dialogPolicy = configuration.dialogPolicy
        newWindowPolicy = configuration.newWindowPolicy
        native = WebKitView(context: context.native, options: .init(
            window: configuration.window, width: configuration.width, height: configuration.height,
            userAgent: configuration.userAgent, developerExtras: configuration.developerExtras,
            fileAccessFromFileURLs: configuration.allowsFileAccessFromFileURLs,
            related: configuration.sharesProcessWith?.native, controlledByAutomation: configuration.controlledByAutomation))
        // With the DMA-BUF renderer off, WebDriver's element screenshots wait for a frame that an
        // idle page never draws; an automated view keeps presenting (see addPresentationTicker).
        if configuration.controlledByAutomation { native.addPresentationTicker() }
        native.onEvent = { [weak self] event in self?.emit(event) }
        native.decideNavigation = { [weak self] action in self?.decide(action) ?? .allow }
        native.handleDialog = { [weak self] dialog, pending in self?.handle(dialog, pending) ?? false }
        native.createWindow = { [weak self] action in self?.createWindow(for: action) ?? .deny }
        native.onWindowDeleted = { [weak self] in self?.emit(.closeRequested) }
        if configuration.capturesConsole { installConsoleCapture() }
        for script in context.mediaRelay?.userScripts ?? [] { addUserScript(script) }
    }

    // MARK: Loading

    /// Loads a URL (`webkit_web_view_load_uri`), or a request with extra headers on the main
    /// document (`webkit_web_view_load_request`).
    public func load(_ url: String, headers: [(name: String, value: String)] = []) {
        native.load(uri: url, headers: headers.map { ($0.name, $0.value) })
    }

    /// Loads HTML from a string (`webkit_web_view_load_html`); relative URLs resolve against `baseURL`.
    public func load(html: String, baseURL: String? = nil) {
        native.load(html: html, baseURI: baseURL)
    }

    /// The URL of a document loaded with ``loadInternalBlank(html:)``.
    public static var internalBlankURL: String { WebKitView.internalBlankURL }

    /// Loads a blank document of the shell's own (`webkit_web_view_load_html` with the base URL
    /// ``internalBlankURL``): no user script runs in it, so the bridge does not start a session.
    public func loadInternalBlank(html: String) {
        native.load(html: html, baseURI: WebKitView.internalBlankURL)
    }

    public func reload(bypassingCache: Bool = false) { native.reload(bypassingCache: bypassingCache) }
    public func stopLoading() { native.stopLoading() }
    public func goBack() { native.goBack() }
    public func goForward() { native.goForward() }

    /// Kills the page's web process (`webkit_web_view_terminate_web_process`).
    public func terminateWebProcess() { native.terminateWebProcess() }

    /// Writes a PNG of the visible part of the page (`webkit_web_view_get_snapshot`). Never
    /// completes while the web process is stuck in a script; give it a deadline.
    public func snapshot(toPNG path: String) async throws(ShellError) {
        try await native.snapshotPNG(to: path)
    }

    /// The current URL (`webkit_web_view_get_uri`); during a load, the requested one.
    public var url: String? { native.uri }
    public var title: String? { native.title }
    public var estimatedProgress: Double { native.estimatedProgress }
    public var isLoading: Bool { native.isLoading }
    public var isWebProcessResponsive: Bool { native.isWebProcessResponsive }
    /// The HTTP status of the current document's response (`webkit_uri_response_get_status_code`
    /// of the main resource): nil before a response, 0 for documents that did not come over HTTP.
    public var httpStatus: Int? { native.mainResourceStatus }
    /// The user agent this view sends.
    public var userAgent: String { native.userAgent }

    /// Changes the user agent for the next loads (`webkit_settings_set_user_agent`).
    public func setUserAgent(_ userAgent: UserAgent) throws(ShellError) {
        try userAgent.validate()
        native.setUserAgent(userAgent)
    }
    public var isClosed: Bool { native.isClosed }

    /// Destroys the view; its web process exits unless another view shares it. Idempotent.
    public func close() {
        native.close()
        observers.removeAll()
        for continuation in closeContinuations { continuation.finish() }
        closeContinuations.removeAll()
    }

    public func setVisible(_ visible: Bool) { native.setVisible(visible) }

    /// Whether the view's window is shown (`gtk_widget_get_visible`); true for a view with no window.
    public var isShown: Bool { native.isShown }

    // MARK: Events

    /// Calls `observer` with every event from now on, synchronously and in order, until the
    /// returned token is cancelled or the view closes.
    @discardableResult
    public func observe(_ observer: @escaping (PageEvent) -> Void) -> ObservationToken {
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = observer
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }

    /// The events from now on as an async sequence; it finishes when the view closes.
    public func events() -> AsyncStream<PageEvent> {
        let (stream, continuation) = AsyncStream<PageEvent>.makeStream()
        let token = observe { continuation.yield($0) }
        continuation.onTermination = { _ in Task { @EngineActor in token.cancel() } }
        closeContinuations.append(continuation)
        return stream
    }

    private var closeContinuations: [AsyncStream<PageEvent>.Continuation] = []

    func emit(_ event: PageEvent) {
        for id in observers.keys.sorted() {
            observers[id]?(event)
        }
    }

    // MARK: Policies

    /// Adds a decider consulted before ``navigationPolicy``; the first non-nil answer wins. This is
    /// where URL-based bridges intercept their URLs.
    public func addNavigationDecider(_ decider: @escaping (NavigationAction) -> NavigationDecision?) {
        navigationDeciders.append(decider)
    }

    private func decide(_ action: NavigationAction) -> NavigationDecision {
        for decider in navigationDeciders {
            if let decision = decider(action) { return decision }
        }
        return navigationPolicy(action)
    }

    /// Adds a dialog interceptor consulted before the ``WebViewConfiguration/dialogPolicy``. It
    /// returns true when it takes the dialog; it must then answer through the ``DialogResponder``.
    public func addDialogInterceptor(_ interceptor: @escaping (ScriptDialog, DialogResponder) -> Bool) {
        dialogInterceptors.append { dialog, pending in interceptor(dialog, DialogResponder(pending)) }
    }

    private func handle(_ dialog: ScriptDialog, _ pending: PendingDialog) -> Bool {
        for interceptor in dialogInterceptors where interceptor(dialog, pending) {
            return true
        }
        let answer = dialogPolicy.answer(dialog)
        emit(.dialog(dialog, answer: answer))
        if answer == .showNativeDialog { return false }
        pending.answer(answer)
        return true
    }

    private func createWindow(for action: NavigationAction) -> WebKitView.NewWindowResult {
        guard NewWindowTarget.allows(action.url, openedFrom: url) else { return .deny }
        switch newWindowPolicy {
        case .sameView: return .loadHere
        case .deny: return .deny
        case .delegate: return onNewWindow(action) == .openedElsewhere ? .openedElsewhere : .deny
        }
    }

    isolated deinit {
        for continuation in closeContinuations { continuation.finish() }
    }
}

extension DialogResponder {
    convenience init(_ pending: PendingDialog) { self.init { pending.answer($0) } }
}
