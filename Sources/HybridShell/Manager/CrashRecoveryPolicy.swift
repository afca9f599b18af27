/// How a page recovers when its web process dies: reload, with back-off, at most `maxReloads`
/// times within `window`; after that give up (an error page, or exit code 2 in `hybrid-run`).
public struct CrashRecoveryPolicy: Sendable, Equatable {
    public var maxReloads: Int
    public var window: Duration
    /// Delay before the n-th reload within the window (the last one repeats).
    public var backoff: [Duration]

    public init(maxReloads: Int = 3, window: Duration = .seconds(60),
                backoff: [Duration] = [.zero, .milliseconds(500), .seconds(2)]) {
        self.maxReloads = maxReloads
        self.window = window
        self.backoff = backoff
    }

    public enum Decision: Sendable, Equatable {
        case reload(after: Duration)
        case giveUp(crashes: Int)
    }

    /// The decision after a crash at `now`, given the times of earlier crashes (this one excluded).
    public func decide(earlierCrashes: [ContinuousClock.Instant], now: ContinuousClock.Instant) -> Decision {
        let recent = earlierCrashes.filter { now - $0 < window }.count
        guard recent < maxReloads else { return .giveUp(crashes: recent + 1) }
        let delay = backoff.isEmpty ? .zero : backoff[min(recent, backoff.count - 1)]
        return .reload(after: delay)
    }
}
