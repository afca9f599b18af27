/// What a page posted with `window.webkit.messageHandlers.<name>.postMessage(value)`.
public struct ScriptMessage: Sendable, Equatable {
    /// The posted string, or the JSON text of a posted non-string value.
    public let body: String
    /// Whether the page posted a string (rather than an object, number, …).
    public let isString: Bool

    public init(body: String, isString: Bool) {
        self.body = body
        self.isString = isString
    }
}
