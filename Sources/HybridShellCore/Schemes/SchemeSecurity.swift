/// How WebKit treats a custom scheme (`WebKitSecurityManager`).
public struct SchemeSecurity: Sendable, Equatable {
    /// A secure context like https: `crypto.subtle`, service workers, no mixed-content blocking
    /// (`webkit_security_manager_register_uri_scheme_as_secure`).
    public var secure: Bool
    /// Pages of other origins may `fetch` it when ``corsOrigins`` allows their origin
    /// (`webkit_security_manager_register_uri_scheme_as_cors_enabled`); the allowed origin is
    /// echoed in `Access-Control-Allow-Origin`.
    public var corsOrigins: OriginPolicy?
    /// Only local pages (file:// and other local schemes) may load it
    /// (`webkit_security_manager_register_uri_scheme_as_local`).
    public var local: Bool
    /// Only pages of the same scheme may display it
    /// (`webkit_security_manager_register_uri_scheme_as_display_isolated`).
    public var displayIsolated: Bool

    public init(secure: Bool = true, corsOrigins: OriginPolicy? = nil, local: Bool = false, displayIsolated: Bool = false) {
        self.secure = secure
        self.corsOrigins = corsOrigins
        self.local = local
        self.displayIsolated = displayIsolated
    }

    /// Secure, same-origin only: what a directory of app files needs.
    public static let app = SchemeSecurity(secure: true)
}
