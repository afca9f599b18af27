/// One document's bridge session, from its relay's hello until the document goes away.
@EngineActor
final class BridgeSession {
    let id: String
    let secret: String
    let origin: String
    let url: String
    let allowed: Bool
    /// Deliveries go straight into the page world (``DirectDelivery``) instead of through the relay.
    let directDelivery: Bool
    let started = ContinuousClock.now
    private(set) var isEnded = false

    /// Page → native calls whose asynchronous handler still runs, by the page's call id.
    var running: [Int: Task<Void, Never>] = [:]
    /// Native → page calls waiting for the page's reply, by native call id.
    var awaiting: [Int: NativeCallWaiter] = [:]
    private var nextNativeCallID = 1
    /// Down-frames waiting for the next push.
    var outbox: [String] = []
    var flushScheduled = false
    /// Calls of posts still waiting for their dispatch slice (counted against the in-flight cap).
    var queuedCalls = 0
    /// Posts, or the rest of one, waiting for a later main-loop turn, in arrival order.
    var backlog: [BacklogEntry] = []
    /// The main-loop source that runs the next slice of the backlog, while one is scheduled.
    var drainTimer: LoopTimer?

    init(id: String, secret: String, origin: String, url: String, allowed: Bool, directDelivery: Bool = false) {
        self.id = id
        self.secret = secret
        self.origin = origin
        self.url = url
        self.allowed = allowed
        self.directDelivery = directDelivery
    }

    func takeNativeCallID() -> Int {
        defer { nextNativeCallID += 1 }
        return nextNativeCallID
    }

    /// Ends the session: running handlers are cancelled (their results are never delivered, not
    /// even into the next document) and every native call waiting on the page fails with `error`.
    func end(_ error: BridgeError) {
        guard !isEnded else { return }
        isEnded = true
        for task in running.values { task.cancel() }
        running.removeAll()
        let waiters = awaiting.values
        awaiting.removeAll()
        for waiter in waiters { waiter.settle(.failure(error)) }
        outbox.removeAll()
    }
}

/// A native → page call waiting for its reply, settled exactly once (reply, timeout or reset), with
/// the call's progress callback.
///
/// One waiter, one continuation and no timer of its own (``NativeCallDeadlines`` keeps the
/// time-outs): a ``Handoff`` per call, with its table of waiters and a checked continuation, cost a
/// native call several allocations on its critical path. The outcome is handed over, not kept, so a
/// settled waiter that the deadline queue still holds keeps no payload alive.
@EngineActor
final class NativeCallWaiter {
    let onProgress: (@Sendable (RawJSON) -> Void)?
    private(set) var hasOutcome = false
    /// The outcome, while it came before anyone waited for it.
    private var early: Result<RawJSON, BridgeError>?
    private var continuation: UnsafeContinuation<Result<RawJSON, BridgeError>, Never>?
    private var waited = false

    init(onProgress: (@Sendable (RawJSON) -> Void)?) {
        self.onProgress = onProgress
    }

    /// Fails the call with `error()` after `duration` unless it settles first.
    func expire(after duration: Duration, _ error: @escaping @EngineActor () -> BridgeError) {
        NativeCallDeadlines.shared.add(self, at: ContinuousClock.now + duration, error)
    }

    /// The outcome; one caller only (the call that made the waiter).
    func wait() async throws(BridgeError) -> RawJSON {
        guard !waited else { throw BridgeError(.bridgeReset, "a native call's reply was already taken") }
        waited = true
        if hasOutcome {
            defer { early = nil }
            return try early!.get()
        }
        return try await withUnsafeContinuation { continuation = $0 }.get()
    }

    func settle(_ result: Result<RawJSON, BridgeError>) {
        guard !hasOutcome else { return }
        hasOutcome = true
        if let continuation {
            self.continuation = nil
            continuation.resume(returning: result)
        } else {
            early = result
        }
    }
}
