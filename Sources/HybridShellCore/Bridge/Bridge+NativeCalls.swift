extension Bridge {
    /// Calls the page handler `name` and returns its result (`hybrid.register`, WebViewJavascriptBridge
    /// `registerHandler`, dsbridge.js `register`/`registerAsyn`, `wx.subscribeHandler`). Waits for
    /// the document's bridge to be ready; fails with `TIMEOUT` after `timeout` (default: the
    /// configuration's), `BRIDGE_RESET` if the document goes away first, or the page's own error.
    public func call<Output: Decodable>(_ name: String, with value: some Encodable = JSONValue.null,
                                        timeout: Duration? = nil, as type: Output.Type = Output.self) async throws(BridgeError) -> Output {
        try await callRaw(name, with: try RawJSON(encoding: value), timeout: timeout).decode(Output.self)
    }

    /// ``call(_:with:timeout:as:)`` on raw JSON. With `arguments`, `data` is an argument list
    /// (dsbridge methods receive its elements as separate arguments).
    public func callRaw(_ name: String, with data: RawJSON = .null, arguments: Bool = false, timeout: Duration? = nil,
                        onProgress: (@Sendable (RawJSON) -> Void)? = nil) async throws(BridgeError) -> RawJSON {
        let waiter = NativeCallWaiter(onProgress: onProgress)
        let limit = timeout ?? configuration.defaultTimeout
        waiter.expire(after: limit) {
            BridgeError(.timeout, "the page handler \(JSONValue.quoted(name)) did not answer within \(limit.secondsText)")
        }
        let started = ContinuousClock.now
        let send: (BridgeSession) -> Void = { [weak self] session in
            guard let self, !waiter.isSettled else { return }
            let id = session.takeNativeCallID()
            session.awaiting[id] = waiter
            self.transcript?.record(direction: "out", session: session.id, kind: "call", handler: name, id: id,
                                    size: data.text.utf8.count, latency: nil, outcome: "sent")
            self.push(OutboundFrame.call(id: id, handler: name, data, arguments: arguments), to: session)
        }
        whenReady(send)
        do {
            let result = try await waiter.wait()
            transcript?.record(direction: "out", session: session?.id, kind: "reply", handler: name, id: nil,
                               size: result.text.utf8.count, latency: ContinuousClock.now - started, outcome: "ok")
            return result
        } catch {
            transcript?.record(direction: "out", session: session?.id, kind: "reply", handler: name, id: nil, size: 0,
                               latency: ContinuousClock.now - started, outcome: error.code.rawValue)
            throw error
        }
    }

    /// Pushes an event to the page (`hybrid.on(name)`, `hybrid:<name>` DOM events; lifecycle uses
    /// `show`, `hide`, `unload`). Waits for the document's bridge to be ready.
    public func emit(_ event: String, data: some Encodable = JSONValue.null) throws(BridgeError) {
        let payload = try RawJSON(encoding: data)
        whenReady { [weak self] session in
            self?.transcript?.record(direction: "out", session: session.id, kind: "event", handler: event, id: nil,
                                     size: payload.text.utf8.count, latency: nil, outcome: "sent")
            self?.push(OutboundFrame.event(event, payload), to: session)
        }
    }

    /// Runs `send` with the current session if it is usable, else with the next one that is.
    func whenReady(_ send: @escaping (BridgeSession) -> Void) {
        if let session, !session.isEnded, session.allowed {
            send(session)
        } else {
            waitingForReady.append(send)
        }
    }

    /// Queues a down-frame; everything queued in one main-loop turn goes in one delivery.
    func push(_ frame: String, to session: BridgeSession) {
        guard !session.isEnded else { return }
        session.outbox.append(frame)
        guard !session.flushScheduled else { return }
        session.flushScheduled = true
        // The frames leave once the jobs running now are done (so a turn's frames leave together),
        // in the same main-loop dispatch when possible: a native call waits for it.
        let flush: @EngineActor () -> Void = { [weak self, weak session] in
            guard let session else { return }
            self?.flush(session)
        }
        if !EndOfJobs.schedule(flush) { Task { @EngineActor in flush() } }
    }

    /// Pushes down-frames to the relay (bridge-js/src/relay.js `deliver`): `m` is the session id
    /// followed by the frames text, one argument (WebKit converts each argument on both sides).
    static let deliverBody = "return globalThis.__hybridshellRelay.deliver(m);"

    /// Sends the session's queued frames as one delivery; nothing is held strongly across the await.
    private func flush(_ session: BridgeSession) {
        guard let (engine, frames) = takeOutbox(session) else { return }
        let (body, strings, world) = session.directDelivery
            ? (DirectDelivery.body, DirectDelivery.arguments(origin: session.origin, secret: session.secret, frames: frames), ScriptWorld.page)
            : (Self.deliverBody, ["m": session.id + frames], ScriptWorld.isolated(Bridge.world))
        if let direct = directEngine {
            // The answer is read in WebKit's callback: no job between it and the waiting call.
            direct.callFunctionReturningString(body, strings: strings, in: world) {
                [weak self, weak session] answer in
                guard let self, let session, let text = (try? answer.get()) ?? nil, !text.isEmpty else { return }
                self.receiveDeliveryAnswer(text, session: session)
            }
            return
        }
        Task { @EngineActor [weak self, weak session, engine] in
            guard let session else { return }
            let answer = try? await engine.callFunctionReturningString(body, strings: strings, in: world)
            guard let self, let text = answer ?? nil, !text.isEmpty else { return }
            self.receiveDeliveryAnswer(text, session: session)
        }
    }

    /// The queued frames as one delivery, and the engine to send it through.
    private func takeOutbox(_ session: BridgeSession) -> (any BridgeEngine, String)? {
        session.flushScheduled = false
        guard !session.isEnded, !session.outbox.isEmpty, let engine else { return nil }
        let frames = OutboundFrame.array(session.outbox)
        session.outbox.removeAll()
        return (engine, frames)
    }

    /// The up-frames the page sent while handling a delivery (answers to native calls, mostly),
    /// which the relay returned as the delivery's result instead of posting them.
    func receiveDeliveryAnswer(_ framesText: String, session: BridgeSession) {
        guard !session.isEnded, self.session === session else { return }
        let arrived = ContinuousClock.now
        do {
            let post = try InboundPost.read(frames: framesText, session: session.id,
                                            maxPayload: configuration.maxPayload, maxDepth: configuration.maxDepth)
            dispatch(post.frames, in: session, reply: nil, arrived: arrived, size: framesText.utf8.count)
        } catch {
            transcript?.record(direction: "in", session: session.id, kind: "delivery-answer", handler: nil, id: nil,
                               size: framesText.utf8.count, latency: nil, outcome: "refused: \(error.error)")
        }
    }
}

extension NativeCallWaiter {
    var isSettled: Bool { hasOutcome }
}

extension Bridge {
    /// Pushes an event and waits until the page has handled it — including whatever its handlers
    /// sent back at once — or until `timeout`. Closing a page uses it so `unload` handlers run,
    /// and their calls reach Swift, before the document is destroyed.
    public func emitAndWait(_ event: String, data: some Encodable = JSONValue.null, timeout: Duration) async {
        guard let session, !session.isEnded, session.allowed, let engine, let payload = try? RawJSON(encoding: data) else { return }
        session.outbox.append(OutboundFrame.event(event, payload))
        let frames = OutboundFrame.array(session.outbox)
        session.outbox.removeAll()
        transcript?.record(direction: "out", session: session.id, kind: "event", handler: event, id: nil,
                           size: payload.text.utf8.count, latency: nil, outcome: "sent")
        let handled = Handoff<Void>()
        handled.settle(after: timeout) { .success(()) }
        let id = session.id
        Task { @EngineActor [weak self, weak session, weak handled] in
            let answer = try? await engine.callFunctionReturningString(
                Self.deliverBody, strings: ["m": id + frames], in: .isolated(Bridge.world))
            if let self, let session {
                if let text = answer ?? nil, !text.isEmpty { self.receiveDeliveryAnswer(text, session: session) }
                self.drainAll(session)
            }
            handled?.fulfill(())
        }
        _ = try? await handled.value()
    }
}

extension Bridge {
    /// Pushes an event to the current document only: if it has no usable session (it is gone, its
    /// session ended, or it is not allowed) the event is dropped, never kept for the next document.
    /// Lifecycle events use it: an `unload` decided for one document must not reach the next.
    package func emitToCurrentDocument(_ event: String, data: RawJSON = .null) {
        guard let session, !session.isEnded, session.allowed else {
            transcript?.record(direction: "out", session: session?.id, kind: "event", handler: event, id: nil,
                               size: data.text.utf8.count, latency: nil, outcome: "dropped: its document is gone")
            return
        }
        transcript?.record(direction: "out", session: session.id, kind: "event", handler: event, id: nil,
                           size: data.text.utf8.count, latency: nil, outcome: "sent")
        push(OutboundFrame.event(event, data), to: session)
    }
}
