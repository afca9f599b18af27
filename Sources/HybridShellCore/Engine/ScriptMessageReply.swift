/// The answer to one `postMessage` of a reply handler (`WebKitScriptMessageReply`): resolves or
/// rejects the page's Promise, once. A reply dropped unanswered rejects it, so a page never waits
/// forever on a forgotten message.
@EngineActor
public final class ScriptMessageReply {
    public enum Answer: Sendable, Equatable {
        /// Resolves the Promise with this string.
        case value(String)
        /// Rejects it with an `Error` carrying this message.
        case error(String)
    }

    private var deliver: (@EngineActor (Answer) -> Void)?

    /// A reply that hands its one answer to `deliver` (WebKit's reply object, or a test's recorder).
    public init(_ deliver: @escaping @EngineActor (Answer) -> Void) {
        self.deliver = deliver
    }

    public var isAnswered: Bool { deliver == nil }

    /// Resolves the page's Promise with a string.
    public func succeed(_ text: String) { answer(.value(text)) }

    /// Rejects the page's Promise with an `Error` carrying `message`.
    public func fail(_ message: String) { answer(.error(message)) }

    private func answer(_ answer: Answer) {
        guard let deliver else { return }
        self.deliver = nil
        deliver(answer)
    }

    isolated deinit {
        fail("HybridShell: the message was dropped without a reply")
    }
}
