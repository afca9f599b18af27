/// The exit codes every `hybrid-run` command uses.
public enum ExitStatus: Int32, Sendable, CaseIterable {
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
public struct RunOutcome: Sendable, Equatable {
    public let status: ExitStatus
    public let reason: String?

    public init(_ status: ExitStatus, _ reason: String? = nil) {
        self.status = status
        self.reason = reason
    }

    public static let success = RunOutcome(.success)
}
