/// What happens in an automation session, for a command to report (one line each on stderr).
public enum AutomationEvent: Sendable, Equatable {
    /// The client connected and started the session (`automation-started`).
    case sessionStarted
    /// The session asked for a view (`create-web-view`); `count` views are open now.
    case viewCreated(count: Int)
    /// A view's web process died; the view is closed, so the client's next command on that window
    /// fails with "no such window" instead of waiting.
    case webProcessTerminated(url: String, reason: WebProcessTerminationReason)
    /// The session object went away: the client ended the session or disconnected.
    case sessionEnded
}
