import Foundation

/// One request a page made to a custom scheme (`WebKitURISchemeRequest`).
public struct SchemeRequest: Sendable {
    /// `GET`, `POST`, … (`webkit_uri_scheme_request_get_http_method`).
    public var method: String
    /// The whole URL as WebKit gives it (`webkit_uri_scheme_request_get_uri`), percent-encoding kept.
    public var url: String
    /// WebKit's path (`webkit_uri_scheme_request_get_path`): `.`/`..` segments are removed, but
    /// `..%2f`, `%00`, `//` and backslashes arrive raw. Resolve it with ``SchemePathResolver``.
    public var path: String
    /// Header names as sent; look them up with ``header(_:)`` (case-insensitive).
    public var headers: [(name: String, value: String)]
    /// The body of a POST/PUT, byte-exact (`webkit_uri_scheme_request_get_http_body`).
    public var body: Data
    /// The page the request came from (`webkit_uri_scheme_request_get_web_view`), if any.
    public var page: SchemePage?

    public init(method: String = "GET", url: String, path: String? = nil,
                headers: [(name: String, value: String)] = [], body: Data = Data(), page: SchemePage? = nil) {
        self.method = method
        self.url = url
        self.path = path ?? SchemeRequest.path(of: url)
        self.headers = headers
        self.body = body
        self.page = page
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The `Origin` header: the origin of the frame that asked (`null` for sandboxed frames;
    /// absent for `<img>`, `<video>` and other no-cors requests).
    public var origin: String? { header("Origin") }

    /// The host part of the URL (`app://HOST/…`), empty for `app:///…`.
    public var host: String {
        guard let range = url.range(of: "://") else { return "" }
        let rest = url[range.upperBound...]
        return String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }).lowercased()
    }

    /// The path of `scheme://host/path?query`, raw (no decoding, no normalisation).
    static func path(of url: String) -> String {
        guard let range = url.range(of: "://") else { return "" }
        let rest = url[range.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...].prefix { $0 != "?" && $0 != "#" })
    }
}

/// The page a scheme request came from.
public struct SchemePage: Sendable, Hashable {
    /// Stable for the life of the view (its `WebKitWebView` address); for matching, never for display.
    public let id: UInt
    /// The view's current top-level URL (`webkit_web_view_get_uri`).
    public let url: String?

    public init(id: UInt, url: String?) {
        self.id = id
        self.url = url
    }
}
