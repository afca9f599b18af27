/// How a test page's run ended as a whole. Only `completed` means the tests' own results count;
/// everything else is reported and never counted as a pass.
public enum PageTestOutcome: Sendable, Equatable {
    /// The framework reported the end of its run.
    case completed
    /// The run ended with zero tests (or none matched `--grep`).
    case noTests
    /// The page never loaded (exit code 2).
    case loadFailed(String)
    /// The page's web process died (exit code 2).
    case crashed(String)
    /// The page never got a working bridge (exit code 2).
    case bridgeUnavailable(String)
    /// No test framework started, or it threw before starting (exit code 2).
    case frameworkNotStarted(String)
    /// The page, a test, or the whole run went past its deadline, or reported nothing for too long (exit code 3).
    case timedOut(String)
    /// Not run, or stopped early, because `--max-failures` was reached or the run was interrupted.
    case cancelled(String)

    /// The one-line reason, nil for `completed`.
    public var reason: String? {
        switch self {
        case .completed: nil
        case .noTests: "no tests found"
        case .loadFailed(let reason), .crashed(let reason), .bridgeUnavailable(let reason),
             .frameworkNotStarted(let reason), .timedOut(let reason), .cancelled(let reason): reason
        }
    }

    /// A stable name for reports (`"loadFailed"`).
    public var name: String {
        switch self {
        case .completed: "completed"
        case .noTests: "noTests"
        case .loadFailed: "loadFailed"
        case .crashed: "crashed"
        case .bridgeUnavailable: "bridgeUnavailable"
        case .frameworkNotStarted: "frameworkNotStarted"
        case .timedOut: "timedOut"
        case .cancelled: "cancelled"
        }
    }

    /// Whether the page itself could not run its tests (TAP `Bail out!`-worthy, JUnit `<error>`).
    public var isInfrastructureFailure: Bool {
        switch self {
        case .completed, .noTests, .cancelled: false
        case .loadFailed, .crashed, .bridgeUnavailable, .frameworkNotStarted, .timedOut: true
        }
    }
}
