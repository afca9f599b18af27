import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `http` module: `http.request {url, method?, headers?, data?, timeout?, responseType?}` →
/// `{statusCode, headers, data}` (wx.request), made natively so an app reaches its API without
/// CORS. Only URLs on origins the configuration names (`module_settings.http_allow`) are reached;
/// redirects are not followed (the 3xx is the answer), so a server cannot lead a request elsewhere.
/// The response body is streamed to a file, never held whole: up to `inlineLimit` bytes it is
/// answered inline (`data`); a larger one, or any with `responseType: 'file'` (wx.downloadFile),
/// is answered as `tempFilePath`, a `hybrid-file://` URL for the calling document only (see
/// ``ModuleDownloads``). Request bodies are limited to ``maxBody``; response bodies (decoded) to
/// `maxBytes` (`module_settings.http_max_bytes`), enforced while they stream in. The `timeout`
/// bounds the whole request, body included.
public enum HTTPModule {
    public static let name = "http"
    public static let maxBody = 16 * 1024 * 1024
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

    /// - Parameters:
    ///   - downloads: where large bodies go; nil answers them `PAYLOAD_TOO_LARGE` (no share registry).
    ///   - inlineLimit: the largest body answered inline.
    ///   - maxBytes: the largest body accepted at all (`PAYLOAD_TOO_LARGE` beyond it).
    package static func module(allowed: [OriginPattern], downloads: ModuleDownloads? = nil, inlineLimit: Int = maxBody,
                       maxBytes: Int = ModuleConfiguration().httpMaxBytes) -> NativeModule {
        NativeModule(name: name) { handlers in
            handlers.registerRaw("http.request") { data, call in
                let arguments = try ModuleArguments(data, handler: "http.request",
                                                    fields: ["url", "method", "headers", "data", "timeout", "responseType"])
                let (request, responseType) = try makeRequest(arguments, allowed: allowed)
                let (file, http) = try await fetch(request, timeout: Int(request.timeoutInterval * 1000), maxBytes: maxBytes)
                defer { try? FileManager.default.removeItem(at: file) }
                var responseHeaders: [String: JSONValue] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { responseHeaders[name] = .string(value) }
                }
                let size = ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.intValue ?? 0
                var head: [String: JSONValue] = ["statusCode": .number(Double(http.statusCode)), "headers": .object(responseHeaders)]
                if responseType == "file" || size > inlineLimit {
                    guard let downloads else {
                        throw BridgeError(.payloadTooLarge, "the response of \(request.url?.absoluteString ?? "") is \(size) bytes; the limit is \(inlineLimit)",
                                          details: ["reason": "tooLarge"])
                    }
                    let url = try downloads.adopt(file, name: ModuleDownloads.fileName(for: request.url!),
                                                  contentType: http.value(forHTTPHeaderField: "Content-Type"), for: call)
                    head["tempFilePath"] = .string(url)
                    head["size"] = .number(Double(size))
                    return RawJSON(unchecked: JSONValue.object(head).jsonText)
                }
                let body = (try? Data(contentsOf: file)) ?? Data()
                let bodyText = String(decoding: body, as: UTF8.self)
                let isJSON = (http.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased().contains("json")
                var parsed: RawJSON?
                if responseType == "json", isJSON { parsed = try? RawJSON(validating: bodyText) }
                let dataText = parsed?.text ?? JSONValue.string(bodyText).jsonText
                return RawJSON(unchecked: String(JSONValue.object(head).jsonText.dropLast()) + #","data":"# + dataText + "}")
            }
        }
    }

    /// The checked request and the wanted response type (json, text or file).
    static func makeRequest(_ arguments: ModuleArguments, allowed: [OriginPattern]) throws(BridgeError) -> (URLRequest, String) {
        let text = try arguments.string("url", maxLength: 8192)
        guard let typed = URL(string: text), let url = URL(string: PageLocation.canonicalWebAddress(typed)),
              let scheme = url.scheme, scheme == "http" || scheme == "https", url.host != nil else {
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
        guard ["json", "text", "file"].contains(responseType) else {
            throw arguments.invalid("responseType", "must be json, text or file, not \(JSONValue.quoted(responseType))")
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
        return (request, responseType)
    }

    /// Makes the request; the body arrives in a temporary file (written as it streams in), which
    /// the caller removes or adopts. `timeout` (ms) bounds the whole request.
    static func fetch(_ request: URLRequest, timeout: Int, maxBytes: Int) async throws(BridgeError) -> (URL, HTTPURLResponse) {
        let what = "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")"
        switch await HTTPTransfer.run(request, timeout: .milliseconds(timeout), maxBytes: maxBytes) {
        case .finished(let file, let response):
            return (file, response)
        case .timedOut:
            throw BridgeError(.timeout, "\(what) did not complete within \(timeout) ms", details: ["reason": "timeout"])
        case .tooLarge:
            throw BridgeError(.payloadTooLarge, "the response of \(what) is larger than \(maxBytes) bytes (module_settings.http_max_bytes)",
                              details: ["reason": "tooLarge", "limit": .number(Double(maxBytes))])
        case .failed(let error):
            throw BridgeError(.handlerError, "\(what) failed: \(error.localizedDescription)", details: ["reason": "network"])
        }
    }
}
