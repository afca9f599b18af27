/// Hands one outcome from a callback to waiting tasks, with deadlines: the first ``fulfill(_:)``
/// or ``fail(_:)`` wins, and ``value(timeout:_:)`` returns it, or throws
/// ``ShellError/timedOut(_:)`` when its own deadline passes first (the handoff stays open for
/// later waiters). The one "value or deadline" primitive of the library: page-event expectations,
/// native → page calls and the CLI's commands all wait through it. Deadlines are GLib timers
/// (``LoopTimer``); nothing polls.
///
///     let ready = Handoff<String>()
///     bridge.observe { if case .ready(let session, _, _) = $0 { ready.fulfill(session) } }
///     let session = try await ready.value(timeout: .seconds(5), "the bridge")
@EngineActor
public final class Handoff<Value: Sendable> {
    private var outcome: Result<Value, any Error>?
    private var waiters: [Int: (continuation: CheckedContinuation<Value, any Error>, deadline: LoopTimer?)] = [:]
    private var nextWaiter = 0
    private var settleTimer: LoopTimer?

    public init() {}

    /// Whether the outcome is decided.
    public var isSettled: Bool { outcome != nil }

    public func fulfill(_ newValue: Value) { settle(.success(newValue)) }

    public func fail(_ error: any Error) { settle(.failure(error)) }

    /// Decides the outcome, unless it is decided already, and wakes every waiter.
    public func settle(_ result: Result<Value, any Error>) {
        guard outcome == nil else { return }
        outcome = result
        settleTimer?.cancel()
        settleTimer = nil
        let waiting = waiters.values
        waiters.removeAll()
        for waiter in waiting {
            waiter.deadline?.cancel()
            waiter.continuation.resume(with: result)
        }
    }

    /// Settles with `result()` after `duration` unless something settles it first: a deadline that
    /// belongs to the outcome itself (a call's time-out), not to one waiter.
    public func settle(after duration: Duration, with result: @escaping @EngineActor () -> Result<Value, any Error>) {
        guard outcome == nil else { return }
        settleTimer?.cancel()
        settleTimer = LoopTimer(after: duration) { [weak self] in self?.settle(result()) }
    }

    /// The outcome, waiting as long as it takes.
    public func value() async throws -> Value {
        try await wait(deadline: nil, what: "")
    }

    /// The outcome, or ``ShellError/timedOut(_:)`` naming `what` after `limit`.
    public func value(timeout limit: Duration = .seconds(30), _ what: String = "value") async throws -> Value {
        try await wait(deadline: limit, what: what)
    }

    private func wait(deadline limit: Duration?, what: String) async throws -> Value {
        if let outcome { return try outcome.get() }
        let id = nextWaiter
        nextWaiter += 1
        return try await withCheckedThrowingContinuation { continuation in
            let deadline = limit.map { limit in
                LoopTimer(after: limit) { [weak self] in
                    self?.waiters.removeValue(forKey: id)?.continuation.resume(throwing: ShellError.timedOut("no \(what) within \(limit)"))
                }
            }
            waiters[id] = (continuation, deadline)
        }
    }
}
