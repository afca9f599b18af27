extension Bridge {
    /// Handles a session's frames in order. The post's reply carries whatever finished at once;
    /// a post with exactly one call waits for that call (one message each way for `await call`).
    /// Frames without a reply channel (a delivery's answer) get their answers pushed.
    func dispatch(_ frames: [InboundFrame], in session: BridgeSession, reply: ScriptMessageReply?,
                  arrived: ContinuousClock.Instant, size: Int) {
        let callCount = frames.reduce(0) { count, frame in
            if case .call = frame { return count + 1 }
            return count
        }
        var immediate: [String] = []
        var replyIsHeld = false
        for frame in frames {
            switch frame {
            case .call(let id, let name, let data, _, let dialect):
                let holder = callCount == 1 ? reply : nil
                if let result = startCall(id: id, name: name, data: data, dialect: dialect, session: session,
                                          arrived: arrived, heldReply: holder) {
                    if frames.count == 1, let reply {
                        // The common `await hybrid.call(…)`: one copy of the payload, not two.
                        reply.succeed(OutboundFrame.singleReply(id: id, result))
                        return
                    }
                    immediate.append(OutboundFrame.reply(id: id, result))
                } else if holder != nil {
                    replyIsHeld = true
                }
            case .reply(let id, let result):
                session.awaiting.removeValue(forKey: id)?.settle(result)
            case .progress(let id, let data):
                session.awaiting[id]?.onProgress?(data)
            case .cancel(let id):
                session.running.removeValue(forKey: id)?.cancel()
            case .invalid(let id, let reason):
                transcript?.record(direction: "in", session: session.id, kind: "invalid", handler: nil, id: id, size: 0,
                                   latency: nil, outcome: reason)
                if let id { immediate.append(OutboundFrame.reply(id: id, .failure(BridgeError(.invalidMessage, reason)))) }
            case .hello:
                transcript?.record(direction: "in", session: session.id, kind: "invalid", handler: nil, id: nil, size: 0,
                                   latency: nil, outcome: "hello is only valid as a session's first post")
            }
        }
        if let reply, !replyIsHeld {
            reply.succeed(OutboundFrame.array(immediate))
        } else {
            for frame in immediate { push(frame, to: session) }
        }
    }

    /// Runs one page → native call. Returns the result when it finished at once; nil when an
    /// asynchronous handler will answer later (through `heldReply` if given, else a push).
    private func startCall(id: Int, name: String, data: RawJSON, dialect: BridgeDialect, session: BridgeSession,
                           arrived: ContinuousClock.Instant, heldReply: ScriptMessageReply?) -> Result<RawJSON, BridgeError>? {
        let handler: BridgeHandler
        switch handlers.resolve(name, origin: session.origin) {
        case .success(let found): handler = found
        case .failure(let error):
            record(session, name, id, data, arrived, .failure(error))
            return .failure(error)
        }
        let progressed = ProgressFlag()
        let call = BridgeCall(handler: name, dialect: dialect, origin: session.origin, url: session.url, sessionID: session.id) {
            [weak self, weak session] value in
            Task { @EngineActor in
                guard let self, let session else { return }
                progressed.isSet = true
                self.push(OutboundFrame.progress(id: id, value), to: session)
            }
        }
        switch handler {
        case .sync(let body):
            let result = checkedResult(Result { try body(data, call) }.mapError(BridgeError.from))
            record(session, name, id, data, arrived, result)
            return result
        case .async(let body, let inOrder):
            let done = ProgressFlag()
            let operation: @EngineActor @Sendable () async -> Void = { [weak self, weak session] in
                defer { done.isSet = true }
                let result: Result<RawJSON, BridgeError>
                do {
                    result = .success(try await body(data, call))
                } catch {
                    result = .failure(BridgeError.from(error))
                }
                // A cancelled call (the page gave up) or an ended session gets nothing: the caller
                // is gone, and a result must never reach the next document.
                guard let self, let session, !session.isEnded, !Task.isCancelled else {
                    heldReply?.succeed("[]")
                    return
                }
                session.running[id] = nil
                let checked = self.checkedResult(result)
                self.record(session, name, id, data, arrived, checked)
                if let heldReply, !progressed.isSet {
                    heldReply.succeed(OutboundFrame.singleReply(id: id, checked))
                } else {
                    let frame = OutboundFrame.reply(id: id, checked)
                    // After progress pushes, the result follows them by the same path so it cannot
                    // overtake them.
                    heldReply?.succeed("[]")
                    self.push(frame, to: session)
                }
            }
            let task = inOrder ? Task.immediate { @EngineActor in await operation() } : Task { @EngineActor in await operation() }
            // An in-order body that never suspended has already answered.
            if !done.isSet { session.running[id] = task }
            return nil
        }
    }

    /// A result too large for the page becomes an error instead.
    func checkedResult(_ result: Result<RawJSON, BridgeError>) -> Result<RawJSON, BridgeError> {
        guard case .success(let data) = result, data.text.utf8.count > configuration.maxPayload,
              data.text.utf16.count > configuration.maxPayload else { return result }
        return .failure(BridgeError(.payloadTooLarge,
                                    "the result is \(data.text.utf16.count) characters long; the limit is \(configuration.maxPayload)"))
    }

    private func record(_ session: BridgeSession, _ name: String, _ id: Int, _ data: RawJSON,
                        _ arrived: ContinuousClock.Instant, _ result: Result<RawJSON, BridgeError>) {
        guard let transcript else { return }
        let outcome: String
        switch result {
        case .success: outcome = "ok"
        case .failure(let error): outcome = error.code.rawValue
        }
        transcript.record(direction: "in", session: session.id, kind: "call", handler: name, id: id,
                          size: data.text.utf8.count, latency: ContinuousClock.now - arrived, outcome: outcome)
    }
}

/// Whether a call has pushed progress (set on the engine thread, read there too).
@EngineActor
final class ProgressFlag {
    var isSet = false
}
