import HybridShellCore

/// How a ``WebView`` is set up. Everything has a default that suits a headless shell.
public struct WebViewConfiguration: Sendable {
    public enum Window: Sendable, Equatable {
        /// No toplevel window at all. Pages load, run and can be snapshotted; nothing is mapped on
        /// the display, which makes start-up cheaper under Xvfb.
        case none
        /// Rendered, never on screen: on X11 an override-redirect popup mapped outside every
        /// monitor (so the page is visible and in a window, and `<video>`/`<audio>` load, which
        /// they never do in a `GtkOffscreenWindow`), elsewhere a `GtkOffscreenWindow`.
        case offscreen
        /// A real window on the display.
        case visible(fullscreen: Bool = false, decorated: Bool = true, title: String = "HybridShell")

        public var isVisible: Bool {
            if case .visible = self { return true }
            return false
        }

        public var isOffscreen: Bool {
            if case .offscreen = self { return true }
            return false
        }
    }

    public var window: Window = .none
    public var width = 1280
    public var height = 800
    public var userAgent: UserAgent = .engineDefault
    public var dialogPolicy: DialogPolicy = .automatic()
    public var newWindowPolicy: NewWindowPolicy = .sameView
    /// Lets the Web Inspector attach (`enable-developer-extras`).
    public var developerExtras = false
    /// Lets `file:` documents read other local files with `fetch`/XHR
    /// (`webkit_settings_set_allow_file_access_from_file_urls`). Off by default: with it, any
    /// `file:` page can read any file the user can (`/etc/passwd`, directory listings).
    public var allowsFileAccessFromFileURLs = false
    /// Capture `console.*` and uncaught errors from every frame as ``PageEvent/console(_:)``.
    public var capturesConsole = true
    /// Shares the web process of another view (`related-view`): cheaper, but one crash takes both.
    public var sharesProcessWith: WebView?
    /// Made for a WebDriver session (`is-controlled-by-automation`); see ``AutomationHost``.
    public var controlledByAutomation = false

    public init() {}
}
