/// Everything that can go wrong in HybridShell's engine layer, with the context to say what.
public enum ShellError: Error, Sendable, Equatable, CustomStringConvertible {
    /// GTK could not open an X display.
    case noDisplay(String)
    /// A page address that is not a URL HybridShell can load.
    case invalidURL(String, reason: String)
    /// A local page that does not exist.
    case fileNotFound(String)
    /// A value a caller passed that cannot be used (the message says which and why).
    case invalidArgument(String)
    /// A script threw; the message is JavaScript's (`TypeError: x is undefined`).
    case javaScriptException(message: String)
    /// A script's result cannot be represented as JSON (a function, a DOM node, a symbol).
    case unsupportedJavaScriptResult(String)
    /// The view was closed, or its web process went away, before the operation finished.
    case viewClosed
    /// The page's web process ended while the operation was in flight.
    case webProcessTerminated(WebProcessTerminationReason)
    /// An operation did not finish in time.
    case timedOut(String)
    /// Any other engine error, with its GLib domain and code.
    case engine(domain: String, code: Int, message: String)

    public var description: String {
        switch self {
        case .noDisplay(let message): message
        case .invalidURL(let url, let reason): "invalid URL \(JSONValue.quoted(url)): \(reason)"
        case .fileNotFound(let path): "no such file: \(path)"
        case .invalidArgument(let message): message
        case .javaScriptException(let message): "JavaScript error: \(message)"
        case .unsupportedJavaScriptResult(let message): "unsupported JavaScript result: \(message)"
        case .viewClosed: "the web view was closed"
        case .webProcessTerminated(let reason): "the web process ended (\(reason.rawValue))"
        case .timedOut(let what): "timed out: \(what)"
        case .engine(let domain, let code, let message): "\(message) (\(domain) \(code))"
        }
    }
}
