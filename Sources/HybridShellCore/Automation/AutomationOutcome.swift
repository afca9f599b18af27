/// How a WebDriver session served by ``AutomationHost`` ended.
package enum AutomationOutcome: Sendable, Equatable {
    /// The client ended the session (or disconnected), or SIGINT/SIGTERM arrived.
    case ended
    /// No WebDriver started this process (`WEBKIT_INSPECTOR_SERVER` is not set).
    case notStartedByWebDriver
    /// The session was refused for this reason (``AutomationOptions/refusal``).
    case refused(String)
    /// No X display to run on.
    case noDisplay(String)
    /// The host could not be set up (data directory, bridge log, …).
    case failedToStart(String)
    /// No session started within ``AutomationOptions/sessionStartTimeout``.
    case noSession(after: Duration)
}
