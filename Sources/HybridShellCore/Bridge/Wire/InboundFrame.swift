/// One frame a page sent up (see bridge-js/PROTOCOL.md, "Frames page → native").
enum InboundFrame: Sendable, Equatable {
    /// `deliver`: the page world holds the direct delivery's function (PROTOCOL.md, "The direct delivery").
    case hello(url: String, origin: String, secret: String, dialects: [String], deliver: Bool)
    case call(id: Int, handler: String, data: RawJSON, timeoutMilliseconds: Int?, dialect: BridgeDialect)
    case reply(id: Int, result: Result<RawJSON, BridgeError>)
    case progress(id: Int, data: RawJSON)
    case cancel(id: Int)
    /// A frame that could not be read; with an id the caller gets an `INVALID_MESSAGE` reply.
    case invalid(id: Int?, reason: String)
}

extension Result: @retroactive Equatable where Success: Equatable, Failure: Equatable {}
