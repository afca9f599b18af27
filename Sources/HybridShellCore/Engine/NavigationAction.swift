/// A navigation about to happen (`WebKitNavigationAction` of a `decide-policy` decision).
public struct NavigationAction: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case linkClicked, formSubmitted, backForward, reload, formResubmitted, other
    }

    public let url: String
    public let kind: Kind
    public let httpMethod: String
    public let isUserGesture: Bool
    public let isRedirect: Bool
    /// True for `window.open` / `target=_blank` (a `NEW_WINDOW_ACTION` decision).
    public let opensNewWindow: Bool
    /// The window name it targets (`target=NAME` of a new-window decision;
    /// `webkit_navigation_action_get_frame_name`), `_blank` included; nil when none.
    public let targetName: String?

    public init(url: String, kind: Kind = .other, httpMethod: String = "GET", isUserGesture: Bool = false,
                isRedirect: Bool = false, opensNewWindow: Bool = false, targetName: String? = nil) {
        self.targetName = targetName
        self.url = url
        self.kind = kind
        self.httpMethod = httpMethod
        self.isUserGesture = isUserGesture
        self.isRedirect = isRedirect
        self.opensNewWindow = opensNewWindow
    }
}

extension NavigationAction {
    /// The same action, targeting the window named `name`.
    package func targeting(_ name: String) -> NavigationAction {
        NavigationAction(url: url, kind: kind, httpMethod: httpMethod, isUserGesture: isUserGesture,
                         isRedirect: isRedirect, opensNewWindow: opensNewWindow, targetName: name)
    }
}

/// What to do with a navigation (`webkit_policy_decision_use` / `_ignore`).
public enum NavigationDecision: Sendable, Equatable {
    case allow
    case cancel
}

/// What to do with `window.open` / `target=_blank` (the `create` signal).
public enum NewWindowPolicy: Sendable, Equatable {
    /// Load the URL in the same view (the default: a headless shell has nowhere else to show it).
    case sameView
    /// Ignore it; `window.open` returns null.
    case deny
    /// Hand it to ``WebView/onNewWindow``, which opens it elsewhere (another page) or refuses.
    case delegate
}

/// What ``WebView/onNewWindow`` did with a `window.open`.
public enum NewWindowResponse: Sendable, Equatable {
    /// The URL was opened elsewhere (a new page with its own view); `window.open` returns null.
    case openedElsewhere
    /// Refused; `window.open` returns null.
    case denied
}

/// What happened to a `window.open` / `target=_blank` request (``PageEvent/newWindowRequested(url:decision:)``).
public enum NewWindowDecision: String, Sendable, Equatable {
    /// Loaded in the opener's own view.
    case sameView
    /// Refused.
    case deny
    /// Handed to ``WebView/onNewWindow`` (a new page).
    case newPage
}
