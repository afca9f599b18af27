/// WebViewJavascriptBridge on a ``Bridge``: its signalling URLs and its message queue, read from
/// the top document and answered through `_handleMessageFromObjC`.
@EngineActor
final class WVJBDialect {
    private unowned let bridge: Bridge
    /// A queue ping came before any session; fetch when one is ready.
    private var fetchPending = false

    init(bridge: Bridge) {
        self.bridge = bridge
    }

    /// Decides navigations before the page's policy: the signalling URLs never load.
    func install(on view: any BridgeEngine) {
        view.addNavigationDecider { [weak self] action in self?.navigation(action) }
    }

    /// A session became ready: a ping that came before it is answered now.
    func sessionReady() {
        guard fetchPending else { return }
        fetchPending = false
        fetchQueue()
    }

    /// WebViewJavascriptBridge's URLs (`https://__wvjb_queue_message__`, `…__bridge_loaded__`, and the
    /// `wvjbscheme://` forms) never load. A queue ping makes native read the *top document's* queue
    /// — the ping itself carries no caller, so that is all an iframe could ever cause.
    func navigation(_ action: NavigationAction) -> NavigationDecision? {
        guard let kind = WVJBURL.kind(action.url) else { return nil }
        switch kind {
        case .bridgeLoaded:
            if bridge.session == nil || bridge.session?.isEnded == true { bridge.injectNow() }
        case .queueHasMessage:
            if let session = bridge.session, !session.isEnded, session.allowed {
                fetchQueue()
            } else if let session = bridge.session, !session.isEnded {
                bridge.transcript?.record(direction: "in", session: session.id, kind: "wvjb-ping", handler: nil, id: nil, size: 0,
                                   latency: nil, outcome: "denied")
            } else {
                fetchPending = true
            }
        }
        return .cancel
    }

    /// Reads `WebViewJavascriptBridge._fetchQueue()` in the top document and answers each message
    /// through `WebViewJavascriptBridge._handleMessageFromObjC` (values passed as typed arguments).
    func fetchQueue() {
        guard let engine = bridge.engine, let session = bridge.session else { return }
        Task { @EngineActor [weak self] in
            let queue = try? await engine.evaluateJavaScript(
                "(window.WebViewJavascriptBridge && typeof WebViewJavascriptBridge._fetchQueue === 'function') ? WebViewJavascriptBridge._fetchQueue() : '[]'",
                in: .page, sourceURL: nil)
            guard let self, self.bridge.session === session, !session.isEnded, let text = queue?.stringValue else { return }
            self.handleQueue(text, session: session)
        }
    }

    /// Handles each message of a fetched queue on its own: a malformed, too large or too deep
    /// message gets its own error (through its callback when it has one) and a transcript entry,
    /// and never takes its valid neighbours down.
    func handleQueue(_ text: String, session: BridgeSession) {
        let messages: [Substring]
        do {
            messages = try ShallowJSON.elements(ofArray: text)
        } catch {
            bridge.transcript?.record(direction: "in", session: session.id, kind: "wvjb-queue", handler: nil, id: nil,
                               size: text.utf8.count, latency: nil, outcome: "INVALID_MESSAGE: the queue is not a JSON array: \(error)")
            return
        }
        for message in messages { handleMessage(message, session: session) }
    }

    private func handleMessage(_ message: Substring, session: BridgeSession) {
        let arrived = ContinuousClock.now
        // Found without validating the message, so that even a malformed one can be answered.
        let shallow = (try? ShallowJSON.members(ofObject: String(message))) ?? []
        func scalar(_ key: String) -> String? {
            let values = shallow.filter { $0.key == key[...] }
            guard values.count == 1 else { return nil }
            return try? JSONParser(limits: .init(maxDepth: 0)).parse(String(values[0].value)).stringValue
        }
        let callbackID = scalar("callbackId")
        let name = scalar("handlerName")
        // Replies to native calls made through this transport are not supported: native calls go
        // through page.js's frames, which every page has.
        if callbackID == nil, scalar("responseId") != nil { return }
        var data = RawJSON.null
        let respond: (Result<RawJSON, BridgeError>) -> Void = { [weak self] result in
            guard let self, !session.isEnded, self.bridge.session === session else { return }
            let bridge = self.bridge
            let checked = bridge.checkedResult(result)
            bridge.transcript?.recordCall(kind: "wvjb-queue", session: session.id, handler: name, size: data.text.utf8.count,
                                          arrived: arrived, checked)
            guard let callbackID, let engine = bridge.engine else { return }
            let responseData: String
            switch checked {
            case .success(let value): responseData = value.text
            case .failure(let error): responseData = #"{"error":"# + error.jsonText + "}"
            }
            let response = #"{"responseId":\#(JSONValue.quoted(callbackID)),"responseData":"# + responseData + "}"
            Task { @EngineActor in
                _ = try? await engine.callAsyncJavaScript("WebViewJavascriptBridge._handleMessageFromObjC(message);",
                                                          arguments: ["message": .string(response)], in: .page)
            }
        }
        let members: [String: RawJSON]
        switch bridge.legacyMembers(message) {
        case .success(let value): members = value
        case .failure(let error):
            respond(.failure(error))
            return
        }
        data = members["data"] ?? .null
        guard let name, members["handlerName"]?.value.stringValue == name else {
            respond(.failure(BridgeError(.invalidMessage, "a WebViewJavascriptBridge message needs a handlerName string")))
            return
        }
        let handler: BridgeHandler
        switch bridge.handlers.resolve(name, origin: session.origin) {
        case .success(let found): handler = found
        case .failure(let error): respond(.failure(error)); return
        }
        let call = BridgeCall(handler: name, dialect: .wvjb, origin: session.origin, url: session.url, sessionID: session.id)
        let input = data
        switch handler {
        case .sync(let body):
            respond(Result { try body(input, call) }.mapError(BridgeError.from))
        case .async(let body, _):
            session.running[-session.running.count - 1] = Task { @EngineActor in
                let result: Result<RawJSON, BridgeError>
                do { result = .success(try await body(input, call)) } catch { result = .failure(BridgeError.from(error)) }
                respond(result)
            }
        }
    }
}

/// Recognises WebViewJavascriptBridge's signalling URLs (scheme and host compared case-insensitively).
enum WVJBURL: Equatable {
    case bridgeLoaded
    case queueHasMessage

    static func kind(_ url: String) -> WVJBURL? {
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" || scheme == "wvjbscheme" else { return nil }
        let host = url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
        switch host {
        case "__bridge_loaded__": return .bridgeLoaded
        case "__wvjb_queue_message__": return .queueHasMessage
        default: return nil
        }
    }
}
