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
        let recent = recentCrashes(earlierCrashes, now: now).count
        guard recent < maxReloads else { return .giveUp(crashes: recent + 1) }
        return .reload(after: Self.delay(backoff, attempt: recent))
    }

    /// The crashes that count against the cap at `now`: those within ``window``.
    public func recentCrashes(_ crashes: [ContinuousClock.Instant], now: ContinuousClock.Instant) -> [ContinuousClock.Instant] {
        crashes.filter { now - $0 < window }
    }

    /// The `attempt`-th delay (0-based) of a back-off list, the last one repeating; zero for none.
    public static func delay(_ backoff: [Duration], attempt: Int) -> Duration {
        backoff.isEmpty ? .zero : backoff[min(max(0, attempt), backoff.count - 1)]
    }
}
