/// A one-shot timer on the engine's loop, firing on ``EngineActor``: far cheaper than a sleeping
/// Swift task when every call carries a deadline that is almost never reached.
///
/// Corresponds to `g_timeout_add_full` (and `g_idle_add_full` at `G_PRIORITY_LOW` for
/// ``init(whenIdle:)``, at `G_PRIORITY_DEFAULT_IDLE` for ``init(afterPendingEvents:)``).
/// Cancelled when released.
@EngineActor
public final class LoopTimer {
    private let timer: GLibTimer

    /// Runs `body` once, after `duration`.
    public init(after duration: Duration, _ body: @escaping @EngineActor () -> Void) {
        timer = GLibTimer(after: duration, body)
    }

    /// Runs `body` once the loop has nothing more urgent to do: for work that must never delay
    /// what the page is doing.
    public init(whenIdle body: @escaping @EngineActor () -> Void) {
        timer = GLibTimer(whenIdle: body)
    }

    /// Runs `body` once the loop has handled the events already waiting (WebKit's messages from
    /// its web processes, its timers, drawing): for work done in slices, which must let those
    /// through between two slices.
    public init(afterPendingEvents body: @escaping @EngineActor () -> Void) {
        timer = GLibTimer(afterPendingEvents: body)
    }

    /// Stops the timer if it has not fired. Idempotent.
    public func cancel() { timer.cancel() }
}
