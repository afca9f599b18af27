import HybridShellCore

extension WebView {
    /// The ``SchemePage/id`` of the scheme requests this view makes (`webkit_uri_scheme_request_get_web_view`),
    /// to match a page with what a scheme handler knows of it (the package version it pinned).
    public var schemePageID: UInt { native.schemePageID }
}
