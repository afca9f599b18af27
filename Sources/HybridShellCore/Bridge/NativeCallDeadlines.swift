/// The time-outs of native → page calls, on one loop timer for all of them: a GLib timer per call
/// (created, then destroyed when the reply comes, nearly always long before its deadline) cost
/// more main-loop work than the call itself.
///
/// Deadlines are kept in order; the timer is armed for the earliest. Settled calls are dropped
/// lazily, from the front, as new calls arrive or when the timer fires.
@EngineActor
final class NativeCallDeadlines {
    static let shared = NativeCallDeadlines()

    private struct Entry {
        let deadline: ContinuousClock.Instant
        // Strong: a weak reference gives every waiter a side table, allocated and freed per call. A
        // settled waiter holds no payload (it hands its outcome over), and leaves the queue lazily.
        let waiter: NativeCallWaiter
        let error: @EngineActor () -> BridgeError
        @EngineActor var isLive: Bool { !waiter.hasOutcome }
    }

    private var entries: [Entry] = []
    private var head = 0
    private var timer: LoopTimer?
    private var armedFor: ContinuousClock.Instant?

    /// Fails `waiter` with `error()` at `deadline` unless it has settled by then.
    func add(_ waiter: NativeCallWaiter, at deadline: ContinuousClock.Instant, _ error: @escaping @EngineActor () -> BridgeError) {
        dropSettledFront()
        let entry = Entry(deadline: deadline, waiter: waiter, error: error)
        // Calls with the same time-out arrive in deadline order: appending is the usual case.
        if let last = entries.last, head < entries.count, last.deadline > deadline {
            var index = entries.count
            while index > head, entries[index - 1].deadline > deadline { index -= 1 }
            entries.insert(entry, at: index)
        } else {
            entries.append(entry)
        }
        if armedFor.map({ deadline < $0 }) ?? true { arm(for: entries[head].deadline) }
    }

    var pendingCount: Int { entries.count - head }

    private func dropSettledFront() {
        while head < entries.count, !entries[head].isLive { head += 1 }
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    private func arm(for deadline: ContinuousClock.Instant) {
        timer?.cancel()
        armedFor = deadline
        let wait = max(deadline - ContinuousClock.now, .zero)
        timer = LoopTimer(after: wait) { [weak self] in self?.fire() }
    }

    private func fire() {
        timer = nil
        armedFor = nil
        let now = ContinuousClock.now
        var expired: [Entry] = []
        while head < entries.count, entries[head].deadline <= now {
            if entries[head].isLive { expired.append(entries[head]) }
            head += 1
        }
        dropSettledFront()
        if head < entries.count { arm(for: entries[head].deadline) }
        for entry in expired { entry.waiter.settle(.failure(entry.error())) }
    }
}
