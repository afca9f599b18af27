import HybridShellCore

/// Forgetting history, for a view reused as if it were new (page tests).
extension WebView {
    /// The view's back-forward list as it is now (`webkit_web_view_get_session_state`).
    public func savedHistory() -> SavedHistory? {
        native.sessionState().map(SavedHistory.init)
    }

    /// Replaces the back-forward list with `history` (`webkit_web_view_restore_session_state`);
    /// loads nothing, so the next load adds its entry after it.
    public func restoreHistory(_ history: SavedHistory) {
        guard !isClosed else { return }
        native.restore(history.state)
    }
}

/// A saved back-forward list (`WebKitWebViewSessionState`).
@EngineActor
public final class SavedHistory {
    let state: WebKitSessionState

    init(_ state: WebKitSessionState) { self.state = state }
}
