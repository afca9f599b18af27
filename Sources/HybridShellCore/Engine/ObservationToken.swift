/// Ends an observation started with ``WebView/observe(_:)``.
@EngineActor
public final class ObservationToken {
    private var onCancel: (() -> Void)?

    package init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}
