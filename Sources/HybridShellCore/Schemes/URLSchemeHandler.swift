/// Answers the requests a page makes to one custom URL scheme (`myscheme://…`).
///
/// Corresponds to the `WebKitURISchemeRequestCallback` given to
/// `webkit_web_context_register_uri_scheme`. The handler runs off the main loop; when the page
/// goes away or the request is cancelled, the task running it is cancelled (like
/// `NSURLProtocol`'s `stopLoading`). A handler that throws answers 500; one that takes longer than the
/// registration's deadline answers 504.
public protocol URLSchemeHandler: Sendable {
    func response(for request: SchemeRequest) async throws -> SchemeResponse
}

/// A handler made of a closure.
public struct SchemeHandlerClosure: URLSchemeHandler {
    let body: @Sendable (SchemeRequest) async throws -> SchemeResponse

    public init(_ body: @escaping @Sendable (SchemeRequest) async throws -> SchemeResponse) {
        self.body = body
    }

    public func response(for request: SchemeRequest) async throws -> SchemeResponse {
        try await body(request)
    }
}
