extension Bridge {
    /// WebViewJavascriptBridge's URLs (`https://__wvjb_queue_message__`, `…__bridge_loaded__`, and the
    /// `wvjbscheme://` forms) never load. A queue ping makes native read the *top document's* queue
    /// — the ping itself carries no caller, so that is all an iframe could ever cause.
    func wvjbNavigation(_ action: NavigationAction) -> NavigationDecision? {
        guard let kind = WVJBURL.kind(action.url) else { return nil }
        switch kind {
        case .bridgeLoaded:
            if session == nil || session?.isEnded == true { injectNow() }
        case .queueHasMessage:
            if let session, !session.isEnded, session.allowed {
                fetchWVJBQueue()
            } else if let session, !session.isEnded {
                transcript?.record(direction: "in", session: session.id, kind: "wvjb-ping", handler: nil, id: nil, size: 0,
                                   latency: nil, outcome: "DENIED")
            } else {
                wvjbFetchPending = true
            }
        }
        return .cancel
    }

    /// Reads `WebViewJavascriptBridge._fetchQueue()` in the top document and answers each message
    /// through `WebViewJavascriptBridge._handleMessageFromObjC` (values passed as typed arguments).
    func fetchWVJBQueue() {
        guard let view, let session else { return }
        Task { @EngineActor [weak self] in
            let queue = try? await view.evaluateJavaScript(
                "(window.WebViewJavascriptBridge && typeof WebViewJavascriptBridge._fetchQueue === 'function') ? WebViewJavascriptBridge._fetchQueue() : '[]'")
            guard let self, self.session === session, !session.isEnded, let text = queue?.stringValue else { return }
            let messages: [RawJSON]
            do {
                messages = try RawMembers.array(text, maxDepth: self.configuration.maxDepth + 2)
            } catch {
                self.transcript?.record(direction: "in", session: session.id, kind: "wvjb-queue", handler: nil, id: nil,
                                        size: text.utf8.count, latency: nil, outcome: "\(error)")
                return
            }
            for message in messages { self.handleWVJBMessage(message, session: session) }
        }
    }

    private func handleWVJBMessage(_ message: RawJSON, session: BridgeSession) {
        let arrived = ContinuousClock.now
        guard let members = try? RawMembers.object(message.text, maxDepth: configuration.maxDepth + 1),
              let name = members["handlerName"]?.value.stringValue else {
            transcript?.record(direction: "in", session: session.id, kind: "wvjb-queue", handler: nil, id: nil,
                               size: message.text.utf8.count, latency: nil, outcome: "INVALID_MESSAGE")
            return
        }
        // Replies to native calls made through this transport are not supported: native calls go
        // through page.js's frames, which every page has.
        guard members["responseId"] == nil else { return }
        let data = members["data"] ?? .null
        let callbackID = members["callbackId"]?.value.stringValue
        let respond: (Result<RawJSON, BridgeError>) -> Void = { [weak self] result in
            guard let self, let callbackID, let view = self.view, !session.isEnded, self.session === session else { return }
            self.transcript?.record(direction: "in", session: session.id, kind: "wvjb-queue", handler: name, id: nil,
                                    size: data.text.utf8.count, latency: ContinuousClock.now - arrived,
                                    outcome: { if case .failure(let error) = result { return error.code.rawValue } else { return "ok" } }())
            let responseData: String
            switch self.checkedResult(result) {
            case .success(let value): responseData = value.text
            case .failure(let error): responseData = #"{"error":"# + error.jsonText + "}"
            }
            let response = #"{"responseId":\#(JSONValue.quoted(callbackID)),"responseData":"# + responseData + "}"
            Task { @EngineActor in
                _ = try? await view.callAsyncJavaScript("WebViewJavascriptBridge._handleMessageFromObjC(message);",
                                                        arguments: ["message": .string(response)])
            }
        }
        let handler: BridgeHandler
        switch handlers.resolve(name, origin: session.origin) {
        case .success(let found): handler = found
        case .failure(let error): respond(.failure(error)); return
        }
        let call = BridgeCall(handler: name, dialect: .wvjb, origin: session.origin, url: session.url, sessionID: session.id)
        switch handler {
        case .sync(let body):
            respond(Result { try body(data, call) }.mapError(BridgeError.from))
        case .async(let body, _):
            session.running[-session.running.count - 1] = Task { @EngineActor in
                let result: Result<RawJSON, BridgeError>
                do { result = .success(try await body(data, call)) } catch { result = .failure(BridgeError.from(error)) }
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
