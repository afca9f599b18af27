internal import CWebKitGTK
import HybridShellCore

/// A view's back-forward list as WebKit saves it (`WebKitWebViewSessionState`), to give a reused
/// view the history of a fresh one.
@EngineActor
final class WebKitSessionState {
    fileprivate let state: OpaquePointer

    fileprivate init(_ state: OpaquePointer) { self.state = state }

    isolated deinit { webkit_web_view_session_state_unref(state) }
}

extension WebKitView {
    /// `webkit_web_view_get_session_state`.
    func sessionState() -> WebKitSessionState? {
        webkit_web_view_get_session_state(view).map(WebKitSessionState.init)
    }

    /// `webkit_web_view_restore_session_state`: replaces the back-forward list; loads nothing.
    func restore(_ state: WebKitSessionState) {
        webkit_web_view_restore_session_state(view, state.state)
    }
}
