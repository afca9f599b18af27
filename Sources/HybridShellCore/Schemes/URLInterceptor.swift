/// One interceptor of an ``InterceptorManager``: it says whether it answers a request
/// (like `NSURLProtocol`'s `canInitWithRequest`) and then answers it (`startLoading`). Cancellation of the
/// task running ``response(for:)`` is `NSURLProtocol`'s `stopLoading`.
public protocol URLInterceptor: Sendable {
    func canHandle(_ request: SchemeRequest) -> Bool
    func response(for request: SchemeRequest) async throws -> SchemeResponse
}
