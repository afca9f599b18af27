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
    var drainScheduled = false
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

/// A native → page call waiting for its reply, settled exactly once (reply, timeout or reset).
@EngineActor
final class NativeCallWaiter {
    private var continuation: CheckedContinuation<RawJSON, any Error>?
    private var outcome: Result<RawJSON, BridgeError>?
    let onProgress: (@Sendable (RawJSON) -> Void)?
    var timeout: LoopTimer?

    init(onProgress: (@Sendable (RawJSON) -> Void)?) {
        self.onProgress = onProgress
    }

    func wait() async throws(BridgeError) -> RawJSON {
        if let outcome { return try outcome.get() }
        do {
            return try await withCheckedThrowingContinuation { continuation = $0 }
        } catch let error as BridgeError {
            throw error
        } catch {
            throw BridgeError.from(error)
        }
    }

    var hasOutcome: Bool { outcome != nil }

    func settle(_ result: Result<RawJSON, BridgeError>) {
        guard outcome == nil else { return }
        outcome = result
        timeout?.cancel()
        continuation?.resume(with: result.mapError { $0 as any Error })
        continuation = nil
    }
}
