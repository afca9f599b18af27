import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `http` module: `http.request {url, method?, headers?, data?, timeout?, responseType?}` →
/// `{statusCode, headers, data}` (wx.request), made natively so an app reaches its API without
/// CORS. Only URLs on origins the configuration names (`module_settings.http_allow`) are reached;
/// redirects are not followed (the 3xx is the answer), so a server cannot lead a request elsewhere.
/// Bodies are limited to ``maxBody`` each way.
// TODO(issue 15): larger responses as hybrid-file:// URLs (wx.downloadFile) once the scheme work lands.
public enum HTTPModule {
    public static let name = "http"
    public static let maxBody = 16 * 1024 * 1024
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

    static func module(allowed: [OriginPattern]) -> NativeModule {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        return NativeModule(name: name) { handlers in
            handlers.registerRaw("http.request") { data, _ in
                let arguments = try ModuleArguments(data, handler: "http.request",
                                                    fields: ["url", "method", "headers", "data", "timeout", "responseType"])
                let text = try arguments.string("url", maxLength: 8192)
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                      url.host != nil else {
                    throw arguments.invalid("url", "\(JSONValue.quoted(text)) is not an absolute http or https URL")
                }
                let origin = WebOrigin.of(url.absoluteString) ?? ""
                guard allowed.contains(where: { $0.matches(origin) }) else {
                    throw BridgeError(.denied, "http.request may not reach \(origin): it is not in module_settings.http_allow",
                                      details: ["reason": "urlNotAllowed", "url": .string(text)])
                }
                let method = (try arguments.optionalString("method", maxLength: 16) ?? "GET").uppercased()
                guard methods.contains(method) else {
                    throw arguments.invalid("method", "must be one of \(methods.sorted().joined(separator: ", ")), not \(JSONValue.quoted(method))")
                }
                let headers = try arguments.optionalStringTable("headers", maxLength: 8192) ?? [:]
                let timeout = try arguments.optionalInt("timeout", in: 1...120_000) ?? 30_000
                let responseType = try arguments.optionalString("responseType", maxLength: 8) ?? "json"
                guard responseType == "json" || responseType == "text" else {
                    throw arguments.invalid("responseType", "must be json or text, not \(JSONValue.quoted(responseType))")
                }
                var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Double(timeout) / 1000)
                request.httpMethod = method
                for (name, value) in headers {
                    guard !name.isEmpty, !name.contains(where: { $0 == ":" || $0.isNewline || $0.isWhitespace }), !value.contains(where: \.isNewline) else {
                        throw arguments.invalid("headers", "has an invalid header \(JSONValue.quoted(name))")
                    }
                    request.setValue(value, forHTTPHeaderField: name)
                }
                if let body = arguments.members["data"] {
                    // A string is sent as it is; anything else as JSON.
                    if case .string(let string) = body.value {
                        request.httpBody = Data(string.utf8)
                    } else {
                        request.httpBody = Data(body.text.utf8)
                        if request.value(forHTTPHeaderField: "Content-Type") == nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
                    }
                    if (request.httpBody?.count ?? 0) > maxBody { throw arguments.invalid("data", "is larger than \(maxBody) bytes") }
                }
                let (body, response): (Data, URLResponse)
                do {
                    (body, response) = try await session.data(for: request)
                } catch let error as URLError where error.code == .timedOut {
                    throw BridgeError(.timeout, "\(method) \(text) did not answer within \(timeout) ms", details: ["reason": "timeout"])
                } catch {
                    throw BridgeError(.handlerError, "\(method) \(text) failed: \(error.localizedDescription)", details: ["reason": "network"])
                }
                guard let http = response as? HTTPURLResponse else {
                    throw BridgeError(.handlerError, "\(text) did not answer with HTTP", details: ["reason": "network"])
                }
                guard body.count <= maxBody else {
                    throw BridgeError(.payloadTooLarge, "the response of \(text) is \(body.count) bytes; the limit is \(maxBody)", details: ["reason": "tooLarge"])
                }
                var responseHeaders: [String: JSONValue] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { responseHeaders[name] = .string(value) }
                }
                let bodyText = String(decoding: body, as: UTF8.self)
                let isJSON = (http.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased().contains("json")
                var parsed: RawJSON?
                if responseType == "json", isJSON { parsed = try? RawJSON(validating: bodyText) }
                let dataText = parsed?.text ?? JSONValue.string(bodyText).jsonText
                let head = JSONValue.object(["statusCode": .number(Double(http.statusCode)), "headers": .object(responseHeaders)]).jsonText
                return RawJSON(unchecked: String(head.dropLast()) + #","data":"# + dataText + "}")
            }
        }
    }
}

/// Refuses every redirect: the page gets the 3xx itself.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
