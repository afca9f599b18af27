import HybridShellCore

/// Waits for the first ``PageEvent`` a predicate accepts, with a deadline. Create it *before*
/// doing what triggers the event, so the event cannot slip by. A ``Handoff`` fed by a view's events.
///
///     let loaded = PageEventExpectation(view) { event in
///         if case .loadFinished(let url, let ok) = event { return (url, ok) } else { return nil }
///     }
///     view.load("https://example.org/")
///     let (url, ok) = try await loaded.value(timeout: .seconds(10))
@EngineActor
public final class PageEventExpectation<Value: Sendable> {
    private let handoff = Handoff<Value>()
    private var token: ObservationToken?

    public init(_ view: WebView, _ match: @escaping (PageEvent) -> Value?) {
        token = view.observe { [weak self] event in
            guard let self, !self.handoff.isSettled, let value = match(event) else { return }
            self.token?.cancel()
            self.token = nil
            self.handoff.fulfill(value)
        }
    }

    /// The matched value, or ``ShellError/timedOut(_:)`` after `timeout`.
    public func value(timeout: Duration, _ what: String = "page event") async throws -> Value {
        try await handoff.value(timeout: timeout, what)
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
