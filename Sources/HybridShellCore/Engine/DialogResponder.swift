/// Answers a dialog an interceptor took over, now or later (`webkit_script_dialog_close`).
@EngineActor
public final class DialogResponder {
    private var deliver: (@EngineActor (DialogAnswer) -> Void)?

    /// A responder that hands its one answer to `deliver` (WebKit's dialog, or a test's recorder).
    public init(_ deliver: @escaping @EngineActor (DialogAnswer) -> Void) { self.deliver = deliver }

    public func answer(_ answer: DialogAnswer) {
        guard let deliver else { return }
        self.deliver = nil
        deliver(answer)
    }

    public var isAnswered: Bool { deliver == nil }
}
