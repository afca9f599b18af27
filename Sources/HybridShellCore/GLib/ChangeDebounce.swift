/// When a burst of file changes is reported: once nothing changed for `quiet`, and never later than
/// `limit` after the burst's first change (an editor writing for seconds still reloads). Pure;
/// ``DirectoryWatch`` sets its timer from it.
package struct ChangeDebounce: Sendable, Equatable {
    package var quiet: Duration
    package var limit: Duration
    private var first: ContinuousClock.Instant?

    package init(quiet: Duration = .milliseconds(60), limit: Duration = .milliseconds(200)) {
        self.quiet = quiet
        self.limit = limit
    }

    /// Records a change at `now`; returns when to report the burst.
    package mutating func record(at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let start = first ?? now
        first = start
        return min(now + quiet, start + limit)
    }

    /// The burst was reported: the next change starts a new one.
    package mutating func fired() { first = nil }
}
