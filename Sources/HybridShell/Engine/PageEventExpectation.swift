/// Waits for the first ``PageEvent`` a predicate accepts, with a deadline. Create it *before*
/// doing what triggers the event, so the event cannot slip by.
///
///     let loaded = PageEventExpectation(view) { event in
///         if case .loadFinished(let url, let ok) = event { return (url, ok) } else { return nil }
///     }
///     view.load("https://example.org/")
///     let (url, ok) = try await loaded.value(timeout: .seconds(10))
@EngineActor
public final class PageEventExpectation<Value: Sendable> {
    private let match: (PageEvent) -> Value?
    private var token: ObservationToken?
    private var outcome: Result<Value, any Error>?
    private var continuation: CheckedContinuation<Value, any Error>?
    private var timeoutTask: Task<Void, Never>?

    public init(_ view: WebView, _ match: @escaping (PageEvent) -> Value?) {
        self.match = match
        token = view.observe { [weak self] event in self?.offer(event) }
    }

    private func offer(_ event: PageEvent) {
        guard outcome == nil, let value = match(event) else { return }
        settle(.success(value))
    }

    private func settle(_ result: Result<Value, any Error>) {
        guard outcome == nil else { return }
        outcome = result
        token?.cancel()
        token = nil
        timeoutTask?.cancel()
        continuation?.resume(with: result)
        continuation = nil
    }

    /// The matched value, or ``ShellError/timedOut(_:)`` after `timeout`.
    public func value(timeout: Duration, _ what: String = "page event") async throws -> Value {
        if let outcome { return try outcome.get() }
        return try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            timeoutTask = Task { @EngineActor [weak self] in
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled else { return }
                self?.settle(.failure(ShellError.timedOut("no \(what) within \(timeout)")))
            }
        }
    }
}

extension PageEventExpectation where Value == Bool {
    /// Waits for the end of the next main-frame load; the value says whether it succeeded.
    public static func loadFinished(_ view: WebView) -> PageEventExpectation<Bool> {
        PageEventExpectation(view) { event in
            if case .loadFinished(_, let succeeded) = event { return succeeded }
            return nil
        }
    }
}
