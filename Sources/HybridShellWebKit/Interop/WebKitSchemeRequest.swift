internal import CWebKitGTK
import Foundation
import Logging
import HybridShellCore

/// The adapter around one `WebKitURISchemeRequest`: reads method, URI, headers, body and the web
/// view it came from, runs the registration's handler off the main loop, and finishes with a
/// `WebKitURISchemeResponse` whose body WebKit streams (`GInputStream`). Decides nothing itself
/// beyond the deadline (504) and the body limit (413).
@EngineActor
final class WebKitSchemeRequest {
    private let request: UnsafeMutablePointer<WebKitURISchemeRequest>
    private let box: SchemeRegistrationBox
    private var task: Task<Void, Never>?
    private var timer: LoopTimer?
    private var viewWatch: UnsafeMutableRawPointer?
    private var view: UnsafeMutablePointer<WebKitWebView>?
    private var isFinished = false

    init(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, box: SchemeRegistrationBox) {
        self.request = request
        self.box = box
        g_object_ref(request)
    }

    func start() {
        let registration = box.registration
        let logger = box.logger
        let schemeRequest: SchemeRequest
        switch readRequest(maxBody: registration.maxRequestBody) {
        case .refused(let response, let partial):
            box.logger.warning("scheme \(registration.scheme): refused \(partial.method) \(partial.url): status \(response.status)")
            finish(SchemeDispatch.withCORS(response, registration, partial))
            return
        case .request(let value): schemeRequest = value
        }
        watchView()
        timer = LoopTimer(after: registration.deadline) { [weak self] in
            guard let self, !self.isFinished else { return }
            logger.error("scheme \(registration.scheme): no response for \(schemeRequest.method) \(schemeRequest.url) within \(registration.deadline); answered 504")
            self.task?.cancel()
            self.finish(SchemeDispatch.withCORS(.error(504, "the handler did not answer within \(registration.deadline)"),
                                                registration, schemeRequest))
        }
        task = Task.detached { [self] in
            let response = await SchemeDispatch.respond(registration, to: schemeRequest, logger: logger)
            await self.finish(response)
        }
    }

    // MARK: Reading

    private enum ReadOutcome {
        case request(SchemeRequest)
        /// Answered without calling the handler; the request without its body, for CORS.
        case refused(SchemeResponse, SchemeRequest)
    }

    private func readRequest(maxBody: Int) -> ReadOutcome {
        let method = String(cString: webkit_uri_scheme_request_get_http_method(request))
        let uri = String(cString: webkit_uri_scheme_request_get_uri(request))
        let path = webkit_uri_scheme_request_get_path(request).map { String(cString: $0) } ?? "/"
        var headers: [(name: String, value: String)] = []
        if let soupHeaders = webkit_uri_scheme_request_get_http_headers(request) {
            var iterator = SoupMessageHeadersIter()
            soup_message_headers_iter_init(&iterator, soupHeaders)
            var name: UnsafePointer<CChar>?
            var value: UnsafePointer<CChar>?
            while soup_message_headers_iter_next(&iterator, &name, &value) != 0 {
                if let name, let value { headers.append((String(cString: name), String(cString: value))) }
            }
        }
        let bodiless = SchemeRequest(method: method, url: uri, path: path, headers: headers)
        var body = Data()
        if let stream = webkit_uri_scheme_request_get_http_body(request) {
            defer { g_object_unref(stream) }
            // WebKit hands the body over as an in-memory stream: reading it here does not block.
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                var error: UnsafeMutablePointer<GError>?
                let count = buffer.withUnsafeMutableBytes { g_input_stream_read(stream, $0.baseAddress, gsize($0.count), nil, &error) }
                if count < 0 {
                    let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
                    g_clear_error(&error)
                    return .refused(.error(400, "cannot read the request body: \(message)"), bodiless)
                }
                if count == 0 { break }
                // A raw copy: appending the array slice went element by element (~5 ms per 4 MiB body).
                buffer.withUnsafeBufferPointer { body.append($0.baseAddress!, count: count) }
                if body.count > maxBody { return .refused(.error(413, "the request body exceeds \(maxBody) bytes"), bodiless) }
            }
        }
        var page: SchemePage?
        if let view = webkit_uri_scheme_request_get_web_view(request) {
            self.view = view
            page = SchemePage(id: UInt(bitPattern: view), url: webkit_web_view_get_uri(view).map { String(cString: $0) })
        }
        return .request(SchemeRequest(method: method, url: uri, path: path, headers: headers, body: body, page: page))
    }

    // MARK: The view going away

    /// Cancels the handler when the view that asked is finalised (`g_object_weak_ref`); WebKit has
    /// then stopped the request itself, so nothing is sent.
    private func watchView() {
        guard let view else { return }
        let data = Unmanaged.passRetained(ViewGoneBox(self)).toOpaque()
        viewWatch = data
        g_object_weak_ref(hs_object(view), viewFinalised, data)
    }

    private func unwatchView() {
        guard let data = viewWatch, let view else { return }
        viewWatch = nil
        g_object_weak_unref(hs_object(view), viewFinalised, data)
        Unmanaged<ViewGoneBox>.fromOpaque(data).release()
    }

    fileprivate func viewWentAway() {
        guard let data = viewWatch else { return }
        viewWatch = nil
        view = nil
        Unmanaged<ViewGoneBox>.fromOpaque(data).release()
        guard !isFinished else { return }
        isFinished = true
        timer?.cancel()
        task?.cancel()
        box.logger.info("scheme \(box.registration.scheme): the page went away; its request was cancelled")
        g_object_unref(request)
    }

    // MARK: Finishing

    private func finish(_ response: SchemeResponse) {
        guard !isFinished else { return }
        isFinished = true
        timer?.cancel()
        unwatchView()
        defer { g_object_unref(request) }

        var response = response
        let (stream, length) = makeStream(&response)
        let native = webkit_uri_scheme_response_new(stream, length.map { gint64($0) } ?? -1)!
        g_object_unref(stream)
        let reason = soup_status_get_phrase(guint(response.status)).map { String(cString: $0) } ?? "Status \(response.status)"
        webkit_uri_scheme_response_set_status(native, guint(response.status), reason)
        if let type = response.header("Content-Type") { webkit_uri_scheme_response_set_content_type(native, type) }
        let headers = hs_response_headers_new()!
        for (name, value) in response.headers { soup_message_headers_append(headers, name, value) }
        if let length, response.header("Content-Length") == nil, response.status != 304 {
            soup_message_headers_append(headers, "Content-Length", String(length))
        }
        webkit_uri_scheme_response_set_http_headers(native, headers)  // takes ownership
        webkit_uri_scheme_request_finish_with_response(request, native)
        g_object_unref(native)
    }

    /// The body as a `GInputStream` WebKit reads on the main loop, 8 KiB per read.
    private func makeStream(_ response: inout SchemeResponse) -> (UnsafeMutablePointer<GInputStream>, UInt64?) {
        switch response.body {
        case .bytes(let data):
            return (memoryStream(data), UInt64(data.count))
        case .file(let path, let offset, let length):
            var info = stat()
            // Larger than the file: it shrank since the handler looked at it.
            guard stat(path, &info) == 0, offset <= UInt64(info.st_size), length <= UInt64(info.st_size) - offset else {
                response = .error(404, "cannot open the file")
                return makeStream(&response)
            }
            // Streamed in chunks read off the main loop rather than as a GFileInputStream: WebKit
            // reads a stream to its end whatever length it was given and takes an early end as
            // success, so a file truncated while it is served would be a short page that loaded.
            // The pump fails the stream instead (FileChunks throws when the file ends early).
            return (pumpedStream(FileChunks.stream(path: path, offset: offset, length: length), length: length), length)
        case .stream(let chunks, let length):
            return (pumpedStream(chunks, length: length), length)
        }
    }

    private func memoryStream(_ data: Data) -> UnsafeMutablePointer<GInputStream> {
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        return g_memory_input_stream_new_from_bytes(bytes)
    }

    /// A socket pair: WebKit reads one end (`g_unix_input_stream_new`), a task writes the chunks
    /// into the other off the main loop. When WebKit drops the stream (the page cancelled), the
    /// writer gets EPIPE and the chunk sequence is cancelled.
    private func pumpedStream(_ chunks: AsyncThrowingStream<Data, any Error>, length: UInt64?) -> UnsafeMutablePointer<GInputStream> {
        var descriptors: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0 else {
            box.logger.error("scheme \(box.registration.scheme): socketpair failed (errno \(errno)); answered an empty body")
            return memoryStream(Data())
        }
        SchemeStreamPump.armReset(reader: descriptors[0])
        SchemeStreamPump.start(chunks, into: descriptors[1], length: length, logger: box.logger)
        return g_unix_input_stream_new(descriptors[0], 1)
    }
}

/// What `g_object_weak_ref` holds: the request to tell (weakly: it may finish first).
private final class ViewGoneBox {
    weak var request: WebKitSchemeRequest?
    init(_ request: WebKitSchemeRequest) { self.request = request }
}

private let viewFinalised: GWeakNotify = { data, _ in
    guard let data else { return }
    nonisolated(unsafe) let box = Unmanaged<ViewGoneBox>.fromOpaque(data).takeUnretainedValue()
    EngineActor.assumeIsolated { box.request?.viewWentAway() }
}
