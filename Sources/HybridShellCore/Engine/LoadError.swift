/// Why a page did not load, from WebKit's `GError` (domain and code kept for the curious).
public struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The load was cancelled (a new load replaced it, or `stop`).
        case cancelled
        /// The network failed: no server, DNS, connection refused, missing file.
        case network
        /// An unsupported scheme or content that cannot be shown.
        case unsupported
        /// A navigation policy interrupted the load.
        case policy
        /// The server's TLS certificate was not trusted.
        case tls
        case other
    }

    public let url: String
    public let kind: Kind
    public let domain: String
    public let code: Int
    public let message: String

    public init(url: String, kind: Kind, domain: String, code: Int, message: String) {
        self.url = url
        self.kind = kind
        self.domain = domain
        self.code = code
        self.message = message
    }

    public var description: String { "\(url): \(message)" }
}
