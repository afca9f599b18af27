/// Hands one value from a callback to a waiting task, with a deadline: the first ``fulfill(_:)``
/// wins, ``value(timeout:_:)`` returns it or throws ``ShellError/timedOut(_:)``. No polling.
///
///     let ready = Handoff<String>()
///     bridge.observe { if case .ready(let session, _, _) = $0 { ready.fulfill(session) } }
///     let session = try await ready.value(timeout: .seconds(5), "the bridge")
@EngineActor
public final class Handoff<Value: Sendable> {
    private var value: Value?
    private var waiter: CheckedContinuation<Value, any Error>?
    private var timeout: Task<Void, Never>?

    public init() {}

    public func fulfill(_ newValue: Value) {
        guard value == nil else { return }
        value = newValue
        timeout?.cancel()
        waiter?.resume(returning: newValue)
        waiter = nil
    }

    public func value(timeout limit: Duration = .seconds(30), _ what: String = "value") async throws -> Value {
        if let value { return value }
        return try await withCheckedThrowingContinuation { continuation in
            waiter = continuation
            timeout = Task { @EngineActor [weak self] in
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled, let self, let waiter = self.waiter else { return }
                self.waiter = nil
                waiter.resume(throwing: ShellError.timedOut("no \(what) within \(limit)"))
            }
        }
    }
}
