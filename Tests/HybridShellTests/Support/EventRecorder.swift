import HybridShell

/// Records every event of a view, for assertions on order.
@EngineActor
final class EventRecorder {
    private(set) var events: [PageEvent] = []
    private var token: ObservationToken?

    init(_ view: WebView) {
        token = view.observe { [weak self] event in self?.events.append(event) }
    }

    var consoleLines: [String] {
        events.compactMap { event in
            if case .console(let message) = event { return message.miniBrowserLine }
            return nil
        }
    }
}
