/// What a handler knows about the call it serves: who called, from which document, and a way to
/// stream partial results before it returns.
public struct BridgeCall: Sendable {
    public let handler: String
    public let dialect: BridgeDialect
    /// The calling document's origin, as its isolated-world relay read it (the page cannot forge it).
    public let origin: String
    public let url: String
    public let sessionID: String
    let progressSink: @Sendable (RawJSON) -> Void

    public init(handler: String, dialect: BridgeDialect = .hybrid, origin: String = "", url: String = "",
                sessionID: String = "", progress: @escaping @Sendable (RawJSON) -> Void = { _ in }) {
        self.handler = handler
        self.dialect = dialect
        self.origin = origin
        self.url = url
        self.sessionID = sessionID
        self.progressSink = progress
    }

    /// Sends a partial result to the caller (`onProgress` in `hybrid.call`, a non-final dsbridge
    /// callback).
    public func progress<T: Encodable>(_ value: T) throws(BridgeError) {
        progressSink(try RawJSON(encoding: value))
    }
}
