/// Why a test run stopped before every page ran; the pages it did not finish are `cancelled`.
package enum TestRunInterruption: Sendable, Equatable {
    /// `--max-failures N` failed tests were reached.
    case maxFailures(Int)
    /// `--global-timeout` passed.
    case globalTimeout
    /// SIGINT or SIGTERM.
    case signal

    /// A stable name for reports (`"maxFailures"`).
    public var name: String {
        switch self {
        case .maxFailures: "maxFailures"
        case .globalTimeout: "globalTimeout"
        case .signal: "signal"
        }
    }

    public var message: String {
        switch self {
        case .maxFailures(let count): "stopped after \(count) failed test\(count == 1 ? "" : "s") (--max-failures)"
        case .globalTimeout: "the run went past --global-timeout"
        case .signal: "interrupted by a signal"
        }
    }
}
