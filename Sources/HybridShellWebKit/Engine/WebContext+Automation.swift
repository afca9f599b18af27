import HybridShellCore

/// A WebDriver session's hold on a ``WebContext``; keep it for as long as the session may run.
@EngineActor
public final class AutomationAllowance {
    let session: WebKitAutomation

    init(_ session: WebKitAutomation) { self.session = session }
}

extension WebContext {
    /// Where WebKit listens for a WebDriver client (`WEBKIT_INSPECTOR_SERVER`, which WebKitWebDriver
    /// sets for the browser it launches); nil when this process was not started by one.
    public nonisolated static var automationServerAddress: String? { WebKitAutomation.inspectorServerAddress }

    /// Lets a WebDriver drive this context (`webkit_web_context_set_automation_allowed`): the
    /// session reports `name` and `version` as its browser (`automation-started`,
    /// `webkit_automation_session_set_application_info`), gets its views from `makeView`
    /// (`create-web-view`; they must be made with ``WebViewConfiguration/controlledByAutomation``),
    /// and `ended` runs once the session object is gone (the client ended it or disconnected).
    public func allowAutomation(name: String, version: String, makeView: @escaping @EngineActor () -> WebView?,
                                started: @escaping @EngineActor () -> Void, ended: @escaping @EngineActor () -> Void) -> AutomationAllowance {
        let parts = version.split(separator: ".").map { UInt($0) ?? 0 } + [0, 0, 0]
        let session = WebKitAutomation(context: native, info: .init(name: name, major: parts[0], minor: parts[1], micro: parts[2]))
        session.onSessionStarted = started
        session.onSessionEnded = ended
        session.makeView = { makeView()?.native }
        return AutomationAllowance(session)
    }
}
