import Foundation
import Logging

/// The decisions around a handler call: CORS preflight and headers, and a throwing handler → 500.
/// The adapter adds the deadline (504) and body limit (413).
package enum SchemeDispatch {
    package static func respond(_ registration: SchemeRegistration, to request: SchemeRequest, logger: Logger) async -> SchemeResponse {
        let allowedOrigin = request.origin.flatMap { origin in
            registration.security.corsOrigins?.allows(origin: origin) == true ? origin : nil
        }
        if request.method == "OPTIONS", request.header("Access-Control-Request-Method") != nil {
            guard let allowedOrigin else { return .error(403, "origin \(request.origin ?? "(none)") may not use \(registration.scheme):") }
            var headers: [(name: String, value: String)] = [
                ("Access-Control-Allow-Origin", allowedOrigin), ("Vary", "Origin"),
                ("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, DELETE, OPTIONS"), ("Access-Control-Max-Age", "600"),
            ]
            if let asked = request.header("Access-Control-Request-Headers") { headers.append(("Access-Control-Allow-Headers", asked)) }
            return SchemeResponse(status: 204, headers: headers)
        }
        var response: SchemeResponse
        do {
            response = try await registration.handler.response(for: request)
        } catch is CancellationError {
            response = .error(499, "the request was cancelled")
        } catch {
            logger.error("scheme \(registration.scheme): the handler for \(request.method) \(request.url) failed: \(error)")
            response = .error(500, "the handler failed: \(error)")
        }
        return withCORS(response, registration, request)
    }

    /// Adds `Access-Control-Allow-Origin` (the request's origin, when the scheme's CORS policy
    /// allows it) unless the handler set it; every answer gets it, 504s from the adapter included.
    package static func withCORS(_ response: SchemeResponse, _ registration: SchemeRegistration, _ request: SchemeRequest) -> SchemeResponse {
        guard let origin = request.origin, registration.security.corsOrigins?.allows(origin: origin) == true,
              response.header("Access-Control-Allow-Origin") == nil else { return response }
        var response = response
        response.headers.append(("Access-Control-Allow-Origin", origin))
        response.headers.append(("Access-Control-Expose-Headers", "Content-Length, Content-Range, Accept-Ranges, ETag"))
        response.headers.append(("Vary", "Origin"))
        return response
    }
}
