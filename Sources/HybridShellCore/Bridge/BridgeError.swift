/// An error as it crosses the bridge: a stable code, a message, optional details. Pages see the
/// same three fields (`{code, message, details}`).
public struct BridgeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Codable, CaseIterable {
        case notFound = "NOT_FOUND"
        case handlerError = "HANDLER_ERROR"
        case timeout = "TIMEOUT"
        case bridgeReset = "BRIDGE_RESET"
        case invalidMessage = "INVALID_MESSAGE"
        case payloadTooLarge = "PAYLOAD_TOO_LARGE"
        case denied = "DENIED"
        case cancelled = "CANCELLED"
        /// The page has more calls in flight than ``BridgeConfiguration/maxInFlight``.
        case rateLimited = "RATE_LIMITED"
    }

    public var code: Code
    public var message: String
    public var details: JSONValue?

    public init(_ code: Code, _ message: String, details: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// The wire form, `{"code":…,"message":…,"details":…}`.
    var jsonText: String {
        JSONValue.object(["code": .string(code.rawValue), "message": .string(message), "details": details ?? .null]).jsonText
    }

    /// Any error a handler throws, as the page will see it.
    static func from(_ error: any Error) -> BridgeError {
        switch error {
        case let bridgeError as BridgeError: bridgeError
        case is CancellationError: BridgeError(.cancelled, "the call was cancelled")
        case let decoding as DecodingError: BridgeError(.invalidMessage, "the input does not match the handler's type: \(decoding.shortDescription)")
        default: BridgeError(.handlerError, String(describing: error))
        }
    }
}

extension DecodingError {
    var shortDescription: String {
        func path(_ context: Context) -> String {
            context.codingPath.isEmpty ? "the value" : context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch self {
        case .typeMismatch(let type, let context): return "\(path(context)) should be \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "\(path(context)) is missing a \(type)"
        case .keyNotFound(let key, let context): return "\(path(context)) has no key \(key.stringValue)"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(self)"
        }
    }
}
