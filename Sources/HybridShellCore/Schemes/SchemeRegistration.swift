/// A custom scheme, its handler and its security options, given to ``WebContext`` before any view
/// exists (`webkit_web_context_register_uri_scheme` + `WebKitSecurityManager`).
public struct SchemeRegistration: Sendable {
    public let scheme: String
    public let handler: any URLSchemeHandler
    public var security: SchemeSecurity
    /// How long a handler may take to produce its response (headers) before the page gets 504.
    /// Streaming the body afterwards is not limited.
    public var deadline: Duration
    /// Request bodies larger than this are refused with 413 without calling the handler.
    public var maxRequestBody: Int
    /// The hosts (`""` for `scheme:///…`) whose pages may play this scheme's URLs in `<video>` and
    /// `<audio>` through the context's loopback relay (``SchemeMediaRelay``); empty: none. WebKitGTK's
    /// media player refuses custom schemes, so without this a media element cannot play them.
    public var mediaHosts: [String] = []

    /// Schemes WebKit handles itself or that the web platform gives a meaning; they cannot be
    /// registered (http(s) requests never reach a scheme handler on this engine).
    public static let reservedSchemes: Set<String> = [
        "http", "https", "ws", "wss", "file", "about", "data", "blob", "javascript", "ftp", "mailto", "webkit",
    ]

    public init(scheme: String, handler: any URLSchemeHandler, security: SchemeSecurity = .app,
                deadline: Duration = .seconds(30), maxRequestBody: Int = 64 << 20) throws(ShellError) {
        let lowered = scheme.lowercased()
        guard let first = lowered.unicodeScalars.first, ("a"..."z").contains(first),
              lowered.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else {
            throw .invalidArgument("\(JSONValue.quoted(scheme)) is not a valid URL scheme (a letter, then letters, digits, + - .)")
        }
        guard !Self.reservedSchemes.contains(lowered) else {
            throw .invalidArgument("the scheme \(lowered) is handled by WebKit itself and cannot be registered")
        }
        self.scheme = lowered
        self.handler = handler
        self.security = security
        self.deadline = deadline
        self.maxRequestBody = maxRequestBody
    }
}

import Logging

extension SchemeRegistration {
    package static let logger = Logger(label: "hybridshell.schemes")

    package static func checkDistinct(_ registrations: [SchemeRegistration]) throws(ShellError) {
        var seen = Set<String>()
        for registration in registrations where !seen.insert(registration.scheme).inserted {
            throw .invalidArgument("the scheme \(registration.scheme) is registered twice")
        }
    }
}
