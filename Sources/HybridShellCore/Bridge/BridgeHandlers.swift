/// The native handlers pages can call, by name. Names may be namespaced (`device.info`).
///
///     handlers.register("sum") { (input: [Int]) in input.reduce(0, +) }            // synchronous
///     handlers.register("user.load") { (id: String) async throws -> User in … }    // asynchronous
///     handlers.register("download") { (url: URL, call: BridgeCall) async throws -> String in
///         try call.progress(["percent": 50]); …                                     // streaming
///     }
@EngineActor
public final class BridgeHandlers {
    private var table: [String: BridgeHandler] = [:]
    /// Consulted in order for names this registry does not have (a page's registry falls back to
    /// the application's, then to the built-ins).
    public var fallbacks: [BridgeHandlers]

    /// Asked before a handler runs, in every dialect, whether a document of `origin` may call
    /// `name`; a returned error (DENIED) is the caller's answer and the handler does not run.
    /// Consulted on this registry and on its fallbacks (see ``CapabilityPolicy``).
    public var authorize: ((_ name: String, _ origin: String) -> BridgeError?)?

    public init(fallbacks: [BridgeHandlers] = []) {
        self.fallbacks = fallbacks
    }

    /// The name of the *default handler*: what WebViewJavascriptBridge's `send(data, callback)`
    /// calls (the original's handler given to `bridgeForWebView:handler:`). Register it with any
    /// `register` overload, ``registerDefault(_:)``, or the `"*"` key of a mocks file.
    public static let defaultHandlerName = "*"

    /// The default handler (see ``defaultHandlerName``), with `Codable` input and output.
    public func registerDefault<Input: Decodable, Output: Encodable>(
        _ body: @escaping @Sendable (Input) async throws -> Output
    ) {
        register(BridgeHandlers.defaultHandlerName, body)
    }

    /// A synchronous handler with `Codable` input and output.
    public func register<Input: Decodable, Output: Encodable>(
        _ name: String, _ body: @escaping @Sendable (Input) throws -> Output
    ) {
        table[name] = .sync { raw, _ in try RawJSON(encoding: try body(try raw.decode(Input.self))) }
    }

    /// An asynchronous handler with `Codable` input and output.
    public func register<Input: Decodable, Output: Encodable>(
        _ name: String, _ body: @escaping @Sendable (Input) async throws -> Output
    ) {
        table[name] = .async { raw, _ in try RawJSON(encoding: try await body(try raw.decode(Input.self))) }
    }

    /// An asynchronous handler that sees its ``BridgeCall`` (caller, progress).
    public func register<Input: Decodable, Output: Encodable>(
        _ name: String, _ body: @escaping @Sendable (Input, BridgeCall) async throws -> Output
    ) {
        table[name] = .async { raw, call in try RawJSON(encoding: try await body(try raw.decode(Input.self), call)) }
    }

    /// A synchronous handler on raw JSON text, which it may pass through untouched.
    public func registerRaw(_ name: String, sync body: @escaping @Sendable (RawJSON, BridgeCall) throws -> RawJSON) {
        table[name] = .sync(body)
    }

    /// An asynchronous handler on raw JSON text.
    public func registerRaw(_ name: String, _ body: @escaping @Sendable (RawJSON, BridgeCall) async throws -> RawJSON) {
        table[name] = .async(body)
    }

    /// An asynchronous handler on raw JSON text that runs on the engine thread and starts at once,
    /// before any other event of the view is handled: it sees calls in arrival order, interleaved
    /// exactly with console messages and page events. It may suspend to answer later.
    public func registerRaw(_ name: String, inOrder body: @escaping @EngineActor @Sendable (RawJSON, BridgeCall) async throws -> RawJSON) {
        table[name] = .async(body, inOrder: true)
    }

    public func unregister(_ name: String) {
        table[name] = nil
    }

    public func hasHandler(_ name: String) -> Bool {
        handler(named: name) != nil
    }

    /// Every name, this registry's and its fallbacks'.
    public var names: [String] {
        Array(fallbacks.reduce(Set(table.keys)) { $0.union($1.names) }).sorted()
    }

    func handler(named name: String) -> BridgeHandler? {
        if let handler = table[name] { return handler }
        for fallback in fallbacks {
            if let handler = fallback.handler(named: name) { return handler }
        }
        return nil
    }

    /// The handler `name` for a caller of `origin`: DENIED when an ``authorize`` refuses,
    /// NOT_FOUND when there is none.
    func resolve(_ name: String, origin: String) -> Result<BridgeHandler, BridgeError> {
        if let refusal = refusal(name, origin: origin) { return .failure(refusal) }
        guard let handler = handler(named: name) else {
            return .failure(BridgeError(.notFound, "no native handler named \(JSONValue.quoted(name))"))
        }
        return .success(handler)
    }

    private func refusal(_ name: String, origin: String) -> BridgeError? {
        if let refusal = authorize?(name, origin) { return refusal }
        return fallbacks.lazy.compactMap { $0.refusal(name, origin: origin) }.first
    }
}
