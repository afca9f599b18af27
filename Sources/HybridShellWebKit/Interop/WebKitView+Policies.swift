internal import CWebKitGTK
import HybridShellCore

extension WebKitView {
    /// `decide-policy`: navigation and new-window actions go to ``decideNavigation``; responses get
    /// WebKit's default (show what can be shown).
    func decidePolicy(_ decision: gpointer?, type raw: UInt32) -> Bool {
        guard let decision else { return false }
        let type = WebKitPolicyDecisionType(rawValue: raw)
        guard type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION || type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION
        else { return false }
        let navigation = decision.assumingMemoryBound(to: WebKitNavigationPolicyDecision.self)
        guard let action = webkit_navigation_policy_decision_get_navigation_action(navigation) else { return false }
        let navigationAction = WebKitView.navigationAction(
            action, opensNewWindow: type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)
        let policy = decision.assumingMemoryBound(to: WebKitPolicyDecision.self)
        if navigationAction.opensNewWindow, let name = navigationAction.targetName {
            pendingWindowName = (navigationAction.url, name)
        }
        switch decideNavigation(navigationAction) {
        case .allow:
            if !navigationAction.opensNewWindow { lastAllowedNavigation = navigationAction.url }
            webkit_policy_decision_use(policy)
        case .cancel:
            webkit_policy_decision_ignore(policy)
            onEvent(.navigationCancelled(url: navigationAction.url))
        }
        return true
    }

    static func navigationAction(_ action: OpaquePointer, opensNewWindow: Bool) -> NavigationAction {
        let request = webkit_navigation_action_get_request(action)
        let url = borrowCString(webkit_uri_request_get_uri(request)) ?? ""
        let method = borrowCString(webkit_uri_request_get_http_method(request)) ?? "GET"
        let kind: NavigationAction.Kind
        switch webkit_navigation_action_get_navigation_type(action) {
        case WEBKIT_NAVIGATION_TYPE_LINK_CLICKED: kind = .linkClicked
        case WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED: kind = .formSubmitted
        case WEBKIT_NAVIGATION_TYPE_BACK_FORWARD: kind = .backForward
        case WEBKIT_NAVIGATION_TYPE_RELOAD: kind = .reload
        case WEBKIT_NAVIGATION_TYPE_FORM_RESUBMITTED: kind = .formResubmitted
        default: kind = .other
        }
        return NavigationAction(url: url, kind: kind, httpMethod: method,
                                isUserGesture: webkit_navigation_action_is_user_gesture(action) != 0,
                                isRedirect: webkit_navigation_action_is_redirect(action) != 0,
                                opensNewWindow: opensNewWindow,
                                targetName: borrowCString(webkit_navigation_action_get_frame_name(action)))
    }

    /// `create`: `window.open` and `target=_blank`.
    func create(_ actionPointer: gpointer?) -> gpointer? {
        guard let actionPointer else { return nil }
        let action = OpaquePointer(actionPointer)
        var navigationAction = WebKitView.navigationAction(action, opensNewWindow: true)
        // target=NAME links: the name came with the new-window decision just before (measured:
        // the create signal's action has none; window.open(url, NAME) has it in neither).
        if navigationAction.targetName == nil, let pending = pendingWindowName, pending.url == navigationAction.url {
            navigationAction = navigationAction.targeting(pending.name)
        }
        pendingWindowName = nil
        switch createWindow(navigationAction) {
        case .loadHere:
            onEvent(.newWindowRequested(url: navigationAction.url, decision: .sameView))
            if !navigationAction.url.isEmpty, navigationAction.url != "about:blank" {
                load(uri: navigationAction.url)
            }
            return nil
        case .deny:
            onEvent(.newWindowRequested(url: navigationAction.url, decision: .deny))
            return nil
        case .openedElsewhere:
            onEvent(.newWindowRequested(url: navigationAction.url, decision: .newPage))
            return nil
        }
    }

    /// `script-dialog`: hands the dialog to ``handleDialog`` with a handle that can answer it now
    /// or later; returning false lets WebKit show its own dialog.
    func scriptDialog(_ pointer: gpointer?) -> Bool {
        guard let pointer else { return false }
        let dialog = OpaquePointer(pointer)
        let kind: ScriptDialog.Kind
        switch webkit_script_dialog_get_dialog_type(dialog) {
        case WEBKIT_SCRIPT_DIALOG_ALERT: kind = .alert
        case WEBKIT_SCRIPT_DIALOG_CONFIRM: kind = .confirm
        case WEBKIT_SCRIPT_DIALOG_PROMPT: kind = .prompt
        default: kind = .beforeUnloadConfirm
        }
        let message = borrowCString(webkit_script_dialog_get_message(dialog)) ?? ""
        let defaultText = kind == .prompt ? borrowCString(webkit_script_dialog_prompt_get_default_text(dialog)) : nil
        let pending = PendingDialog(dialog)
        let handled = handleDialog(ScriptDialog(kind: kind, message: message, defaultText: defaultText), pending)
        if handled, !pending.isAnswered { pending.keepBeyondSignal() }
        return handled
    }
}

/// A script dialog being answered. Inside the `script-dialog` emission it is borrowed: an answer
/// given then just sets the result and WebKit completes the dialog when its own reference goes.
/// A dialog still unanswered when the handler returns is kept with `webkit_script_dialog_ref`
/// and finished later with `webkit_script_dialog_close` (WebKit's asynchronous protocol); if it is
/// dropped unanswered it is closed with the default answer, so a page never waits forever.
@EngineActor
final class PendingDialog {
    private var dialog: OpaquePointer?
    private var retained = false

    init(_ dialog: OpaquePointer) {
        self.dialog = dialog
    }

    var isAnswered: Bool { dialog == nil }

    /// Called when the signal handler returns without an answer.
    func keepBeyondSignal() {
        guard let dialog, !retained else { return }
        webkit_script_dialog_ref(dialog)
        retained = true
    }

    func answer(_ answer: DialogAnswer) {
        guard let dialog else { return }
        self.dialog = nil
        switch answer {
        case .confirm(let confirmed):
            webkit_script_dialog_confirm_set_confirmed(dialog, confirmed ? 1 : 0)
        case .prompt(let text):
            if let text { webkit_script_dialog_prompt_set_text(dialog, text) }
        case .dismiss, .showNativeDialog:
            break
        }
        if retained {
            webkit_script_dialog_close(dialog)
            webkit_script_dialog_unref(dialog)
        }
    }

    isolated deinit {
        if retained { answer(.dismiss) }
    }
}
