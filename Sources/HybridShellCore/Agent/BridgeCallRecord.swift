/// One page → native call as it finished: what `native_calls` lists (``Bridge/onCall``).
public struct BridgeCallRecord: Sendable, Equatable {
    public let handler: String
    public let origin: String
    public let data: RawJSON
    public let result: Result<RawJSON, BridgeError>
    public let latency: Duration

    public init(handler: String, origin: String, data: RawJSON, result: Result<RawJSON, BridgeError>, latency: Duration) {
        self.handler = handler
        self.origin = origin
        self.data = data
        self.result = result
        self.latency = latency
    }

    /// As `native_calls` shows it: handler, origin, args, and result or error.
    public var jsonObject: [String: JSONValue] {
        var object: [String: JSONValue] = ["handler": .string(handler), "origin": .string(origin),
                                           "args": (try? JSONParser().parse(data.text)) ?? .string(data.text),
                                           "ms": .number((latency.milliseconds * 100).rounded() / 100)]
        switch result {
        case .success(let value): object["result"] = (try? JSONParser().parse(value.text)) ?? .string(value.text)
        case .failure(let error): object["error"] = ["code": .string(error.code.rawValue), "message": .string(error.message)]
        }
        return object
    }
}
