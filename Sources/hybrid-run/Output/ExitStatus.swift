import HybridShell
/// The exit codes every `hybrid-run` command uses.
enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// A test failed (`hybrid-run test`).
    case testsFailed = 1
    /// The page failed to load, its web process crashed, or the environment is unusable (no display).
    case failure = 2
    /// A deadline passed.
    case timeout = 3
    /// Bad flags, arguments or configuration.
    case usage = 4
    /// `hybrid-run test` found no tests.
    case noTests = 5
}

/// A command's outcome: a status and, unless it succeeded, the one-line reason for stderr.
struct RunOutcome: Sendable, Equatable {
    let status: ExitStatus
    let reason: String?

    init(_ status: ExitStatus, _ reason: String? = nil) {
        self.status = status
        self.reason = reason
    }

    static let success = RunOutcome(.success)
}

extension RunOutcome {
    /// No X display to run WebKit on, with the way out.
    static func noDisplay(_ problem: String) -> RunOutcome {
        RunOutcome(.failure, "\(problem); run headless with: xvfb-run -a hybrid-run …")
    }
}
