import HybridShell

/// Hands one value from a callback to a waiting test, with a deadline (no polling, no sleeps).
@EngineActor
final class Handoff<Value: Sendable> {
    private var value: Value?
    private var waiter: CheckedContinuation<Value, any Error>?
    private var timeout: Task<Void, Never>?

    func fulfill(_ newValue: Value) {
        guard value == nil else { return }
        value = newValue
        timeout?.cancel()
        waiter?.resume(returning: newValue)
        waiter = nil
    }

    func value(timeout limit: Duration = .seconds(10), _ what: String = "value") async throws -> Value {
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
