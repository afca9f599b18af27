import Foundation
import Logging
import Synchronization

/// Binary streams between pages and native handlers (`hybrid.stream(name, options)`; docs/streams.md).
/// A page opens one with the bridge call `stream.open {name, mode, data}` and gets a one-time URL
/// `hybrid-stream://<128-bit token>/`; its bytes then travel on this scheme with no JSON or
/// base64: `GET …/read` answers the next segment of what native writes (a streamed response body,
/// at most ``segmentBytes`` per request, so memory stays bounded in every process), `POST
/// …/write?seq=N` carries one chunk the page writes (a request body), `POST …/close`, `…/abort`
/// and `…/cancel` end either side. A token answers only the origin, bridge session and page that
/// opened it (another origin gets 403, an unknown or ended token 404), and ends with its session
/// (``endSession(_:)``: both sides see `BRIDGE_RESET`).
public final class ByteStreams: URLSchemeHandler, Sendable {
    public static let scheme = "hybrid-stream"
    /// What a native writer may have queued before it waits for the page.
    public static let bufferedBytes = 4 << 20
    /// The most one `GET …/read` answers (the page asks again for more).
    public static let segmentBytes = 32 << 20
    /// The largest chunk a page sends in one request.
    public static let chunkBytes = 8 << 20

    public typealias Handler = @Sendable (ByteStream) async throws -> Void

    final class Open: Sendable {
        let stream: ByteStream
        let order = SequenceGate()
        /// The page that made the first request (``SchemePage/id``).
        let page = Mutex<UInt?>(nil)
        /// Which of the page's sides are done (read to the end, closed): both, and the token goes.
        let done = Mutex<(read: Bool, write: Bool)>((false, false))

        /// Marks a side done; true once both are.
        func finished(reading: Bool) -> Bool {
            done.withLock { done in
                if reading { done.read = true } else { done.write = true }
                return (done.read || stream.mode == .write) && (done.write || stream.mode == .read)
            }
        }
        init(stream: ByteStream) { self.stream = stream }
    }

    private let handlers = Mutex<[String: Handler]>([:])
    private let open = Mutex<[String: Open]>([:])
    let logger: Logger

    public init(logger: Logger = Logger(label: "hybridshell.streams")) {
        self.logger = logger
    }

    /// Native's side of the streams pages open under `name`: `body` runs once per stream, in a
    /// task of its own; when it returns the page's `ReadableStream` ends, when it throws it errors
    /// with the error's description.
    public func register(_ name: String, _ body: @escaping Handler) {
        handlers.withLock { $0[name] = body }
    }

    /// The registration to give the context: secure, fetchable by any origin (each token checks its own).
    public func registration() throws(ShellError) -> SchemeRegistration {
        try SchemeRegistration(scheme: Self.scheme, handler: self, security: SchemeSecurity(secure: true, corsOrigins: .anyOrigin),
                               maxRequestBody: Self.chunkBytes)
    }

    /// Adds `stream.open` (and `stream.close`) to `handlers`: how a page asks for a stream.
    @EngineActor
    public func install(in handlers: BridgeHandlers) {
        handlers.registerRaw("stream.open") { [weak self] data, call in
            guard let self else { throw BridgeError(.bridgeReset, "the shell is closing") }
            return try self.openStream(data, call: call)
        }
    }

    func openStream(_ data: RawJSON, call: BridgeCall) throws(BridgeError) -> RawJSON {
        let arguments = try ModuleArguments(data, handler: "stream.open", fields: ["name", "mode", "data"])
        let name = try arguments.string("name", maxLength: 256)
        let modeText = try arguments.optionalString("mode", maxLength: 16) ?? "read"
        guard let mode = ByteStream.Mode(rawValue: modeText) else {
            throw arguments.invalid("mode", "must be one of read, write, duplex, not \(JSONValue.quoted(modeText))")
        }
        guard let handler = handlers.withLock({ $0[name] }) else {
            throw BridgeError(.notFound, "no native stream is named \(JSONValue.quoted(name))", details: ["name": .string(name)])
        }
        guard !call.sessionID.isEmpty else { throw BridgeError(.denied, "streams need a bridge session") }
        let stream = ByteStream(name: name, mode: mode, data: (try? arguments.raw("data").value) ?? .null, call: call,
                                toPage: ByteQueue(capacity: Self.bufferedBytes), fromPage: ByteQueue(capacity: Self.bufferedBytes))
        if mode == .write { Task { await stream.toPage.finish() } }
        if mode == .read { Task { await stream.fromPage.finish() } }
        let token = FileShares.makeToken()
        open.withLock { $0[token] = Open(stream: stream) }
        let logger = logger
        Task.detached {
            do {
                try await handler(stream)
                await stream.finish()
            } catch {
                logger.info("stream \(name): the handler ended with \(error)")
                await stream.toPage.fail(error as? BridgeError ?? BridgeError(.handlerError, "\(error)"))
            }
        }
        return RawJSON(unchecked: JSONValue.object(["url": .string("\(Self.scheme)://\(token)/"), "mode": .string(mode.rawValue)]).jsonText)
    }

    /// Ends every stream of a bridge session (its document went away): `BRIDGE_RESET` on both sides.
    public func endSession(_ session: String) {
        let ended = open.withLock { open in
            let ending = open.filter { $0.value.stream.call.sessionID == session }
            for token in ending.keys { open[token] = nil }
            return Array(ending.values)
        }
        for entry in ended { Self.end(entry.stream, BridgeError(.bridgeReset, "the page's document went away")) }
    }

    static func end(_ stream: ByteStream, _ error: BridgeError) {
        Task {
            await stream.toPage.cancel(error)
            await stream.fromPage.fail(error)
        }
    }

    public func response(for request: SchemeRequest) async throws -> SchemeResponse {
        let host = request.host
        guard let entry = open.withLock({ $0[host] }) else { return .error(404, "no such stream (unknown, or ended)") }
        var asking = request.origin ?? request.page?.url.flatMap(WebOrigin.of)
        // A local file's fetch says `Origin: null`: taken as its page's origin (the token and the
        // page pin below still have to match).
        if asking == "null", entry.stream.call.origin == "file://", let page = request.page?.url, WebOrigin.of(page) == "file://" {
            asking = "file://"
        }
        guard asking == entry.stream.call.origin else {
            logger.warning("hybrid-stream: origin \(asking ?? "(unknown)") asked for a stream of \(entry.stream.call.origin)")
            return .error(403, "this stream belongs to another origin")
        }
        // The first request pins the page; another page of the same origin is refused.
        if let page = request.page?.id {
            let pinned = entry.page.withLock { pinned in pinned ?? { pinned = page; return page }() }
            guard pinned == page else { return .error(403, "this stream belongs to another page") }
        }
        var response = await ByteStreamRequest.answer(request, entry: entry, remove: { [weak self] in self?.remove(host) })
        // The scheme's CORS answers real origins; a local file's `null` is answered here, once checked.
        if let origin = request.origin { response.headers.append(("Access-Control-Allow-Origin", origin)) }
        return response
    }

    func remove(_ token: String) {
        _ = open.withLock { $0.removeValue(forKey: token) }
    }
}
