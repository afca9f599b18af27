import Foundation
import HybridShellCore
import HybridShellWebKit

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
    private var automation: AutomationAllowance?
    private var views: [(view: WebView, bridge: Bridge)] = []
    private var transcript: BridgeTranscript?
    private let outcome = Handoff<AutomationOutcome>()
    private var startDeadline: LoopTimer?
    private var sessionStarted = false
    private let namedWindows = NamedWindows()

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
    package func run() async -> AutomationOutcome {
        guard WebContext.automationServerAddress != nil else {
            if let refusal = options.refusal { return .refused(refusal) }
            return .notStartedByWebDriver
        }
        do {
            // The headless tuning (no DMA-BUF renderer) also makes WebDriver's element screenshots
            // show the page; with the DMA-BUF renderer they are black under Xvfb, as MiniBrowser's are.
            let context = try WebContext(configuration: WebContextConfiguration(storage: options.storage, headless: true))
            self.context = context
            if let path = options.bridgeLog { transcript = try BridgeTranscript(path: path) }
            let refusal = options.refusal
            automation = context.allowAutomation(
                name: refusal == nil ? options.browserName : options.refusedBrowserName, version: HybridShellVersion.current,
                makeView: { [weak self] in refusal == nil ? try? self?.openView() : nil },
                started: { [weak self] in self?.started() },
                ended: { [weak self] in self?.settle(refusal.map { .refused($0) } ?? .ended) })
        } catch .noDisplay(let problem) {
            return .noDisplay(problem)
        } catch {
            return .failedToStart("\(error)")
        }
        let deadline = options.sessionStartTimeout
        startDeadline = LoopTimer(after: deadline) { [weak self] in
            guard let self else { return }
            if let refusal = self.options.refusal { self.settle(.refused(refusal)); return }
            guard !self.sessionStarted else { return }
            self.settle(.noSession(after: deadline))
        }
        let result = (try? await outcome.value()) ?? .ended
        startDeadline?.cancel()
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
        let origins = options.allowedOrigins.map { OriginPolicy(patterns: $0) } ?? .anyOrigin
        let entry = try ViewPool.Entry.make(view: configuration, context: context, bridge: BridgeConfiguration(originPolicy: origins),
                                            handlers: [handlers])
        let (view, bridge) = (entry.view, entry.bridge)
        entry.builtins.registerBuiltins(userAgent: view.userAgent, appName: options.browserName, appVersion: HybridShellVersion.current)
        bridge.transcript = transcript
        // window.open and target=_blank get a window of their own, which the client sees as a new
        // handle (the opener gets null, as with noopener); a named one keeps its name and is
        // reused by the next link to that name (Selenium's switch_to.window(NAME) looks for it).
        view.onNewWindow = { [weak self] action in
            guard let self, !action.url.isEmpty else { return .denied }
            let name = NamedWindows.name(of: action)
            if let name, self.namedWindows.load(action.url, inWindowNamed: name) { return .openedElsewhere }
            guard let opened = try? self.openView() else { return .denied }
            if let name { self.namedWindows.adopt(opened, name: name) }
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

    /// Ends the session from this side (the CLI calls it on SIGINT/SIGTERM): every view closes and
    /// ``run()`` returns ``AutomationOutcome/ended``.
    public func stop() { settle(.ended) }

    private func started() {
        sessionStarted = true
        onEvent(.sessionStarted)
    }

    private func settle(_ result: AutomationOutcome) {
        guard !outcome.isSettled else { return }
        if sessionStarted, result == .ended { onEvent(.sessionEnded) }
        outcome.fulfill(result)
    }
}
