/// How much of one main-loop turn the bridge has spent dispatching, so that a flood of posts is
/// cut into slices and the loop's other sources (input, painting, timers) still run in between.
///
/// Only turns that dispatch much are timed: a large post, or posts arriving back to back (WebKit
/// hands over every post that arrived in one go); a lone small post, the common `await call`,
/// costs no bookkeeping.
@EngineActor
struct TurnBudget {
    /// The turn being timed, and when its timing started.
    private var timedTurn: (turn: UInt64, started: ContinuousClock.Instant)?
    /// When the last post was handled (a post right after it belongs to the same burst).
    private var lastPostDone: ContinuousClock.Instant?

    /// The start of this main-loop turn's dispatching. The executor's turn counter moves on once
    /// GLib has served its other sources, which ends the timing.
    mutating func start() -> ContinuousClock.Instant {
        if let started { return started }
        let now = ContinuousClock.now
        timedTurn = (EngineActor.turn, now)
        return now
    }

    /// When this main-loop turn's timing started; nil when this turn is not timed.
    var started: ContinuousClock.Instant? {
        guard let timedTurn, timedTurn.turn == EngineActor.turn else { return nil }
        return timedTurn.started
    }

    /// Whether this turn has spent more than `slice` dispatching.
    func isSpent(_ slice: Duration) -> Bool {
        guard let started else { return false }
        return ContinuousClock.now - started > slice
    }

    /// A post arriving right after the previous one was handled starts timing the turn.
    mutating func noteArrival(_ arrived: ContinuousClock.Instant) {
        if started == nil, let lastPostDone, arrived - lastPostDone < .microseconds(200) { _ = start() }
    }

    mutating func notePostDone() { lastPostDone = ContinuousClock.now }
}
