/// One document's bridge session, from its relay's hello until the document goes away.
@EngineActor
final class BridgeSession {
    let id: String
    let secret: String
    let origin: String
    let url: String
    let allowed: Bool
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
    /// A WebViewJavascriptBridge queue ping arrived before the session was usable.
    var wvjbFetchPending = false
    /// Calls of posts still waiting for their dispatch slice (counted against the in-flight cap).
    var queuedCalls = 0
    /// Posts, or the rest of one, waiting for a later main-loop turn, in arrival order.
    var backlog: [BacklogEntry] = []
    /// The main-loop source that runs the next slice of the backlog, while one is scheduled.
    var drainTimer: LoopTimer?
    /// False after dsbridge's `_dsb.disableJavascriptDialogBlock(true)`: dialogs answer at once.
    var dialogsBlock = true

    init(id: String, secret: String, origin: String, url: String, allowed: Bool) {
        self.id = id
        self.secret = secret
        self.origin = origin
        self.url = url
        self.allowed = allowed
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

/// A native → page call waiting for its reply, settled exactly once (reply, timeout or reset): a
/// ``Handoff`` with the bridge's error type and the call's progress callback.
@EngineActor
final class NativeCallWaiter {
    private let handoff = Handoff<RawJSON>()
    let onProgress: (@Sendable (RawJSON) -> Void)?

    init(onProgress: (@Sendable (RawJSON) -> Void)?) {
        self.onProgress = onProgress
    }

    /// Fails the call with `error()` after `duration` unless it settles first.
    func expire(after duration: Duration, _ error: @escaping @EngineActor () -> BridgeError) {
        NativeCallDeadlines.shared.add(self, at: ContinuousClock.now + duration, error)
    }

    func wait() async throws(BridgeError) -> RawJSON {
        do {
            return try await handoff.value()
        } catch let error as BridgeError {
            throw error
        } catch {
            throw BridgeError.from(error)
        }
    }

    var hasOutcome: Bool { handoff.isSettled }

    func settle(_ result: Result<RawJSON, BridgeError>) {
        handoff.settle(result.mapError { $0 as any Error })
    }
}
