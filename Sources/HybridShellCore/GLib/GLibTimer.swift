internal import CGLib

/// A one-shot timer on the GLib main loop (`g_timeout_add_full`): far cheaper than a sleeping
/// Swift task when every call carries a deadline that is almost never reached.
@EngineActor
final class GLibTimer {
    private var sourceID: guint = 0

    init(after duration: Duration, _ body: @escaping @EngineActor () -> Void) {
        let milliseconds = max(0, min(Int64(UInt32.max), Int64(duration.milliseconds.rounded(.up))))
        let box = GLibTimerBox(body)
        box.timer = self
        sourceID = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(milliseconds), glibTimerFired,
                                      Unmanaged.passRetained(box).toOpaque(), releaseGLibTimer)
    }

    /// Runs `body` once the loop has nothing more urgent to do (`g_idle_add_full` at
    /// `G_PRIORITY_LOW`): for work that must never delay what the page is doing.
    convenience init(whenIdle body: @escaping @EngineActor () -> Void) {
        self.init(idleAt: G_PRIORITY_LOW, body)
    }

    /// Runs `body` once the loop has dispatched the events already waiting (`g_idle_add_full` at
    /// `G_PRIORITY_DEFAULT_IDLE`). GLib dispatches only the most urgent of the ready sources, and
    /// WebKit's own (its IPC messages, `RunLoop::dispatch`, at `G_PRIORITY_HIGH_IDLE`; its timers
    /// and GTK's drawing a little lower) rank below `G_PRIORITY_DEFAULT`: work that re-arms itself
    /// at the default priority would hold all of them back until it ran out.
    convenience init(afterPendingEvents body: @escaping @EngineActor () -> Void) {
        self.init(idleAt: G_PRIORITY_DEFAULT_IDLE, body)
    }

    /// `g_idle_add_full` at `priority`.
    private init(idleAt priority: gint, _ body: @escaping @EngineActor () -> Void) {
        let box = GLibTimerBox(body)
        box.timer = self
        sourceID = g_idle_add_full(priority, glibTimerFired, Unmanaged.passRetained(box).toOpaque(), releaseGLibTimer)
    }

    /// Stops the timer if it has not fired. Idempotent.
    func cancel() {
        guard sourceID != 0 else { return }
        g_source_remove(sourceID)
        sourceID = 0
    }

    fileprivate func fired() { sourceID = 0 }

    isolated deinit { cancel() }
}

/// What GLib holds for a timer: the body, and the timer to tell it has fired.
private final class GLibTimerBox {
    let body: @EngineActor () -> Void
    weak var timer: GLibTimer?

    init(_ body: @escaping @EngineActor () -> Void) { self.body = body }
}

private let glibTimerFired: GSourceFunc = { data in
    nonisolated(unsafe) let box = Unmanaged<GLibTimerBox>.fromOpaque(data!).takeUnretainedValue()
    EngineActor.assumeIsolated {
        box.timer?.fired()
        box.body()
    }
    return hsg_false()  // G_SOURCE_REMOVE: one shot
}

private let releaseGLibTimer: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<GLibTimerBox>.fromOpaque(data).release()
}
