/// What a navigation means for the page's lifecycle (decided when a navigation starts, like WKWebView's `decidePolicyFor` navigation action):
/// a reload keeps the page (no hide, no unload), a new document in the same view unloads the old
/// one, and a page pushed on top hides this one.
public enum LifecycleTransition: Sendable, Equatable {
    case none
    case unload
    case hide

    /// - Parameters:
    ///   - currentURL: the document now shown.
    ///   - opensNewPage: the navigation opens a new page on top (window.open, target=_blank with
    ///     the new-page policy).
    public static func decide(_ action: NavigationAction, currentURL: String?, opensNewPage: Bool) -> LifecycleTransition {
        if opensNewPage { return .hide }
        if action.opensNewWindow { return .none }  // handled in the same view or denied: decided when it loads
        if action.kind == .reload { return .none }
        guard let currentURL, !currentURL.isEmpty, currentURL != "about:blank" else { return .none }
        if withoutFragment(action.url) == withoutFragment(currentURL), action.url.contains("#") { return .none }
        return .unload
    }

    static func withoutFragment(_ url: String) -> Substring {
        url.prefix { $0 != "#" }
    }
}
