/// Something that happened to a page, in the order WebKit reported it.
public enum PageEvent: Sendable, Equatable {
    /// A main-frame load began (`load-changed` `WEBKIT_LOAD_STARTED`).
    case loadStarted(url: String)
    /// The main-frame request was redirected (`WEBKIT_LOAD_REDIRECTED`).
    case loadRedirected(url: String)
    /// A new document replaced the old one (`WEBKIT_LOAD_COMMITTED`).
    case loadCommitted(url: String)
    /// The main-frame load ended (`WEBKIT_LOAD_FINISHED`); after a failure `succeeded` is false.
    case loadFinished(url: String, succeeded: Bool)
    /// The main-frame load failed (`load-failed`, `load-failed-with-tls-errors`).
    case loadFailed(LoadError)
    /// The document's title changed (`notify::title`).
    case titleChanged(String)
    /// Estimated load progress, 0…1 (`notify::estimated-load-progress`).
    case progressChanged(Double)
    /// The page's web process went away (`web-process-terminated`).
    case webProcessTerminated(WebProcessTerminationReason)
    /// The web process stopped or resumed answering (`notify::is-web-process-responsive`).
    case responsivenessChanged(isResponsive: Bool)
    /// A console message or an uncaught error in any frame.
    case console(ConsoleMessage)
    /// A JavaScript dialog and how it was answered (`script-dialog`).
    case dialog(ScriptDialog, answer: DialogAnswer)
    /// A navigation the policy refused (`decide-policy` ignored).
    case navigationCancelled(url: String)
    /// `window.open` or a `target=_blank` link (`create`), and what was done with it.
    case newWindowRequested(url: String, decision: NewWindowDecision)
    /// The page called `window.close()` (`close`).
    case closeRequested
    /// A context menu was not shown (`context-menu` answered TRUE).
    case contextMenuSuppressed
    /// An input event the view's input filter swallowed, described (`ctrl+r`, `button 8`, `pinch`).
    case inputBlocked(String)
    /// A permission request and the answer (`permission-request`).
    case permissionDecided(PermissionRequest, granted: Bool)
    /// A GTK dialog the page asked for and that was not shown (`print`, `run-file-chooser`,
    /// `authenticate`, `run-color-chooser`); the page saw a cancel.
    case nativeDialogRefused(NativeDialogRequest)
}
