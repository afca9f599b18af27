import HybridShellCore
import HybridShellWebKit

/// How ``AutomationHost`` sets up the views a WebDriver session asks for.
public struct AutomationOptions: Sendable {
    /// The `browserName` reported to WebKitWebDriver (`webkit_application_info_set_name`). A
    /// client that asks for another `browserName` gets "session not created".
    public var browserName = "HybridShell"
    /// The `browserName` reported while refusing a session (see ``refusal``): one no client asks for.
    public var refusedBrowserName: String { browserName + "-refused-bad-arguments" }

    public var storage: WebContext.Storage = .ephemeral
    /// A real toplevel window (under Xvfb in CI), as WebDriver's window commands need: an offscreen
    /// window reports a 0×0 rect and cannot be resized.
    public var window: WebViewConfiguration.Window = .visible(title: "HybridShell")
    public var width = 1280
    public var height = 800
    public var userAgent: UserAgent = .engineDefault
    public var developerExtras = false
    /// Stub native handlers (`--handlers`).
    public var mockHandlers: MockHandlers?
    /// Documents that get a working bridge. Nil: every non-opaque origin, since the client decides
    /// which pages are loaded.
    public var allowedOrigins: [OriginPattern]?
    /// How long to wait for the client to start the session before giving up.
    public var sessionStartTimeout: Duration = .seconds(30)
    public var bridgeLog: String?
    /// Set when the browser's own arguments are wrong. WebKitWebDriver 2.50.6 never notices a
    /// browser that exits before its inspector server is up: the client's new-session request
    /// waits forever. With a refusal the host still lets the client connect, then refuses the
    /// session (a `browserName` that matches no request, and no view), so the client gets
    /// "session not created" at once; ``AutomationHost/run()`` then returns a usage error.
    public var refusal: String?

    public init() {}

    /// Where WebKit listens for the automation client (`WEBKIT_INSPECTOR_SERVER`, set by
    /// WebKitWebDriver for the browser it launches); nil when this process was not started by one.
    public static var inspectorServerAddress: String? { WebContext.automationServerAddress }
}
