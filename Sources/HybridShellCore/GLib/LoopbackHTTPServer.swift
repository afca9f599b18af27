internal import CGLib
import Foundation
import Logging

/// An HTTP/1.1 server on 127.0.0.1 and an ephemeral port that answers every request with a
/// ``SchemeResponse`` from one handler; bodies are streamed (see ``LoopbackBodyStream``).
///
/// Why libsoup's `SoupServer` and not a `GSocketService` with our own HTTP code: WebKitGTK
/// already links libsoup 3, whose server parses requests, keeps connections alive, answers HEAD
/// without a body and writes `Content-Length` bodies from a `SoupMessageBody` that we fill chunk
/// by chunk (pausing the message while a chunk is read off the main loop) — all on the GLib main
/// context, so no thread of ours touches a socket. `soup_server_listen_local` with
/// `SOUP_SERVER_LISTEN_IPV4_ONLY` binds 127.0.0.1 only, never 0.0.0.0.
@EngineActor
final class LoopbackHTTPServer {
    /// Called on the loop thread with the request and the listener's own `127.0.0.1:PORT`.
    typealias Handler = @EngineActor (SchemeRequest, String) -> SchemeResponse
    /// A handler that answers later (a URL scheme handler's `response(for:)`): the message is
    /// paused meanwhile, and dropped if the client goes away before the answer.
    typealias AsyncHandler = @EngineActor (SchemeRequest, String) async -> SchemeResponse

    private var server: UnsafeMutablePointer<SoupServer>?
    private(set) var port: Int?
    let logger: Logger
    let handler: Handler
    private var asyncHandler: AsyncHandler?
    /// Bodies being written; ended when the server stops.
    var streams: [ObjectIdentifier: LoopbackBodyStream] = [:]
    /// Messages our handler answered, until libsoup reports them finished: one it finishes
    /// without our handler having seen it was refused by libsoup's own parser (a malformed
    /// request line, `%00` or `..%2f` in the path: 400) and is logged then.
    private var answered: Set<UInt> = []
    private var connections: [SignalConnection] = []

    init(logger: Logger, handler: @escaping Handler) {
        self.logger = logger
        self.handler = handler
    }

    convenience init(logger: Logger, asyncHandler: @escaping AsyncHandler) {
        self.init(logger: logger) { _, _ in .error(500, "no answer") }
        self.asyncHandler = asyncHandler
    }

    // A server dropped while listening would keep its socket and leave requests unanswered.
    isolated deinit { stop() }

    /// Binds 127.0.0.1:0 and returns the port the system chose.
    func start() throws(ShellError) -> Int {
        if let port { return port }
        guard let object = g_object_new_with_properties(soup_server_get_type(), 0, nil, nil) else {
            throw .engine(domain: "libsoup", code: 0, message: "cannot create a SoupServer")
        }
        let made = UnsafeMutableRawPointer(object).assumingMemoryBound(to: SoupServer.self)
        let box = Unmanaged.passRetained(LoopbackServerBox(self)).toOpaque()
        soup_server_add_handler(made, nil, loopbackRequestCallback, box, releaseLoopbackServerBox)
        var error: UnsafeMutablePointer<GError>?
        guard soup_server_listen_local(made, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            g_object_unref(made)
            throw .engine(domain: "libsoup", code: 0, message: "cannot listen on 127.0.0.1: \(message)")
        }
        var chosen = 0
        if let uris = soup_server_get_uris(made) {
            if let first = uris.pointee.data { chosen = Int(g_uri_get_port(OpaquePointer(first))) }
            g_slist_free_full(uris, { g_uri_unref(OpaquePointer($0)) })
        }
        guard chosen > 0 else {
            soup_server_disconnect(made)
            g_object_unref(made)
            throw .engine(domain: "libsoup", code: 0, message: "the loopback listener has no port")
        }
        server = made
        port = chosen
        let trampoline = unsafeBitCast(pointerSignalTrampoline, to: GCallback.self)
        connections = [
            connectSignal(gpointer(made), "request-finished", trampoline, { [weak self] message in self?.finished(message) } as PointerSignal),
            // A connection lost mid-message: nothing to log here (the body stream logs its own end).
            connectSignal(gpointer(made), "request-aborted", trampoline, { [weak self] message in
                _ = message.map { self?.answered.remove(UInt(bitPattern: $0)) }
            } as PointerSignal),
        ]
        return chosen
    }

    /// Closes the listening socket and every connection; bodies being written end.
    func stop() {
        for stream in Array(streams.values) { stream.end(reason: "the listener stopped") }
        streams.removeAll()
        for connection in connections { connection.disconnect() }
        connections = []
        answered.removeAll()
        if let server {
            soup_server_disconnect(server)
            g_object_unref(server)
        }
        server = nil
        port = nil
    }

    /// Cuts the bodies being written for paths `ended` says no longer valid.
    func abortStreams(where ended: (String) -> Bool) {
        for stream in Array(streams.values) where ended(stream.path) { stream.abort(reason: "its share ended") }
    }

    fileprivate func handle(_ message: OpaquePointer) {
        guard let port else { return }
        answered.insert(UInt(bitPattern: UnsafeRawPointer(message)))
        let request = Self.request(message, port: port)
        guard let asyncHandler else { return write(handler(request, "127.0.0.1:\(port)"), to: message, for: request) }
        let key = UInt(bitPattern: UnsafeRawPointer(message))
        soup_server_message_pause(message)
        g_object_ref(gpointer(message))
        Task { @EngineActor [weak self] in
            let response = await asyncHandler(request, "127.0.0.1:\(port)")
            defer { g_object_unref(gpointer(message)) }
            // Gone meanwhile (client hung up: request-aborted; or the server stopped): nothing to write.
            guard let self, self.answered.contains(key) else { return }
            self.write(response, to: message, for: request)
            soup_server_message_unpause(message)
        }
    }

    private func finished(_ pointer: gpointer?) {
        guard let pointer else { return }
        guard answered.remove(UInt(bitPattern: pointer)) == nil else { return }
        let message = OpaquePointer(pointer)
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? "?"
        var path = "(unparsed)"
        if let uri = soup_server_message_get_uri(message), let text = g_uri_get_path(uri) { path = FileShares.redactedPath(String(cString: text)) }
        logger.warning("media listener: refused a malformed request \(method) \(path) with \(soup_server_message_get_status(message)) before any share check")
    }

    private static func request(_ message: OpaquePointer, port: Int) -> SchemeRequest {
        let method = String(cString: soup_server_message_get_method(message))
        var path = "/"
        var query = ""
        if let uri = soup_server_message_get_uri(message) {
            // libsoup keeps the path percent-encoded (it parses with G_URI_FLAGS_ENCODED_PATH).
            path = String(cString: g_uri_get_path(uri))
            if let text = g_uri_get_query(uri) { query = "?" + String(cString: text) }
        }
        var headers: [(name: String, value: String)] = []
        var iterator = SoupMessageHeadersIter()
        soup_message_headers_iter_init(&iterator, soup_server_message_get_request_headers(message))
        var name: UnsafePointer<CChar>?
        var value: UnsafePointer<CChar>?
        while soup_message_headers_iter_next(&iterator, &name, &value) != 0 {
            if let name, let value { headers.append((String(cString: name), String(cString: value))) }
        }
        return SchemeRequest(method: method, url: "http://127.0.0.1:\(port)\(path)\(query)", path: path, headers: headers)
    }

    private func write(_ response: SchemeResponse, to message: OpaquePointer, for request: SchemeRequest) {
        soup_server_message_set_status(message, guint(response.status), nil)
        let headers = soup_server_message_get_response_headers(message)
        var declaredLength: Int64?
        for (name, value) in response.headers {
            if name.caseInsensitiveCompare("Content-Length") == .orderedSame { declaredLength = Int64(value); continue }
            soup_message_headers_append(headers, name, value)
        }
        let body = soup_server_message_get_response_body(message)
        switch response.body {
        case .bytes(let data):
            soup_message_headers_set_content_length(headers, goffset(declaredLength ?? Int64(data.count)))
            if !data.isEmpty, request.method != "HEAD" {
                data.withUnsafeBytes { soup_message_body_append(body, SOUP_MEMORY_COPY, $0.baseAddress, gsize($0.count)) }
            }
            soup_message_body_complete(body)
        case .file(let path, let offset, let length):
            startStream(FileChunks.stream(path: path, offset: offset, length: length), length: length, message: message, request: request)
        case .stream(let chunks, let length):
            startStream(chunks, length: length, message: message, request: request)
        }
    }

    private func startStream(_ chunks: AsyncThrowingStream<Data, any Error>, length: UInt64?, message: OpaquePointer, request: SchemeRequest) {
        let headers = soup_server_message_get_response_headers(message)
        if let length {
            soup_message_headers_set_content_length(headers, goffset(length))
        } else {
            soup_message_headers_set_encoding(headers, SOUP_ENCODING_CHUNKED)
        }
        // Chunks are not kept once written: memory stays at about one chunk per response.
        soup_message_body_set_accumulate(soup_server_message_get_response_body(message), 0)
        let stream = LoopbackBodyStream(message: message, chunks: chunks, length: length, path: request.path,
                                        description: "\(request.method) \(FileShares.redactedPath(request.path))",
                                        server: self)
        streams[ObjectIdentifier(stream)] = stream
        stream.begin()
    }
}

/// The server as the handler's user data; GLib releases it when the handler goes.
private final class LoopbackServerBox: @unchecked Sendable {  // touched on the loop thread only
    weak var server: LoopbackHTTPServer?
    init(_ server: LoopbackHTTPServer) { self.server = server }
}

private let loopbackRequestCallback: SoupServerCallback = { _, message, _, _, data in
    guard let data, let message else { return }
    let box = Unmanaged<LoopbackServerBox>.fromOpaque(data).takeUnretainedValue()
    nonisolated(unsafe) let pointer = message
    EngineActor.assumeIsolated {
        guard let server = box.server else { return soup_server_message_set_status(pointer, 503, nil) }
        server.handle(pointer)
    }
}

private let releaseLoopbackServerBox: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<LoopbackServerBox>.fromOpaque(data).release()
}
