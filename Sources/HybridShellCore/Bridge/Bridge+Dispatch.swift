extension Bridge {
    /// Handles a session's frames in order. The post's reply carries whatever finished at once;
    /// a post with exactly one call waits for that call (one message each way for `await call`).
    /// Frames without a reply channel (a delivery's answer) get their answers pushed.
    ///
    /// Dispatch works in slices of at most ``BridgeConfiguration/dispatchSlice`` per main-loop
    /// turn: what does not fit waits in the session's backlog, in order, for later turns (the
    /// reply then carries the first slice's answers and later ones are pushed), so a flood
    /// cannot stall everything else. Calls beyond ``BridgeConfiguration/maxInFlight`` fail at once
    /// with `RATE_LIMITED`.
    func dispatch(_ frames: [InboundFrame], in session: BridgeSession, reply: ScriptMessageReply?,
                  arrived: ContinuousClock.Instant, size: Int) {
        let work = prepare(frames, in: session, reply: reply, arrived: arrived)
        guard session.backlog.isEmpty, !budget.isSpent(configuration.dispatchSlice) else {
            session.backlog.append(.frames(work))
            scheduleDrain(session)
            return
        }
        let sliceStarted = frames.count > 64 ? budget.start() : budget.started ?? arrived
        if let rest = dispatchSlice(work, in: session, sliceStarted: sliceStarted) {
            session.backlog.insert(.frames(rest), at: 0)
            scheduleDrain(session)
        }
    }

    /// Counts a post's calls against the in-flight cap; those beyond it are marked to be refused.
    func prepare(_ frames: [InboundFrame], in session: BridgeSession, reply: ScriptMessageReply?,
                 arrived: ContinuousClock.Instant) -> SliceWork {
        var callCount = 0
        var limited = Set<Int>()
        let available = max(0, configuration.maxInFlight - session.queuedCalls - session.running.count)
        for frame in frames {
            guard case .call(let id, _, _, _, _) = frame else { continue }
            if callCount - limited.count >= available { limited.insert(id) }
            callCount += 1
        }
        session.queuedCalls += callCount - limited.count
        return SliceWork(frames: frames[...], reply: reply, arrived: arrived, callCount: callCount, limited: limited)
    }

    /// Dispatches frames until the slice's time is up; returns what is left (nil when done). The
    /// post's reply is answered with the first slice's answers; a remainder has no reply.
    func dispatchSlice(_ work: SliceWork, in session: BridgeSession, sliceStarted: ContinuousClock.Instant) -> SliceWork? {
        let frames = work.frames
        var immediate: [String] = []
        var replyIsHeld = false
        var index = frames.startIndex
        while index < frames.endIndex {
            // The clock is read every 64 frames: often enough for the budget, cheap per frame. A
            // slice handles 64 frames at least, so a spent budget still makes progress (a slice
            // that handled none would be rescheduled with the same work, forever).
            if index > frames.startIndex, (index - frames.startIndex) % 64 == 0,
               ContinuousClock.now - sliceStarted > configuration.dispatchSlice { break }
            let frame = frames[index]
            index += 1
            switch frame {
            case .call(let id, let name, let data, _, let dialect):
                if work.limited.contains(id) {
                    let error = BridgeError(.rateLimited, "more than \(configuration.maxInFlight) calls in flight; this one was refused")
                    record(session, name, id, data, work.arrived, .failure(error))
                    immediate.append(OutboundFrame.reply(id: id, .failure(error)))
                    continue
                }
                session.queuedCalls -= 1
                let holder = work.callCount == 1 ? work.reply : nil
                if let result = startCall(id: id, name: name, data: data, dialect: dialect, session: session,
                                          arrived: work.arrived, heldReply: holder) {
                    if frames.count == 1, let reply = work.reply {
                        // The common `await hybrid.call(…)`: one copy of the payload, not two.
                        reply.succeed(OutboundFrame.singleReply(id: id, result))
                        return nil
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
        // Nothing done yet: the whole post (reply included) waits for a later turn.
        if index == frames.startIndex, !frames.isEmpty { return work }
        if let reply = work.reply, !replyIsHeld {
            reply.succeed(OutboundFrame.array(immediate))
        } else {
            for frame in immediate { push(frame, to: session) }
        }
        let rest = frames[index...]
        guard !rest.isEmpty else { return nil }
        return SliceWork(frames: rest, reply: nil, arrived: work.arrived, callCount: work.callCount, limited: work.limited)
    }

    /// Runs one page → native call. Returns the result when it finished at once; nil when an
    /// asynchronous handler will answer later (through `heldReply` if given, else a push).
    private func startCall(id: Int, name: String, data: RawJSON, dialect: BridgeDialect, session: BridgeSession,
                           arrived: ContinuousClock.Instant, heldReply: ScriptMessageReply?) -> Result<RawJSON, BridgeError>? {
        // A dialect's own methods (dsbridge's `_dsb.*`) are answered by the dialect.
        if dialect == .dsbridge, let builtin = dsbridge.builtin(name, data, session: session) {
            record(session, name, id, data, arrived, builtin)
            return builtin
        }
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
        guard case .success(let data) = result, data.utf8Count > configuration.maxPayload,
              data.storage.utf16.count > configuration.maxPayload else { return result }
        return .failure(BridgeError(.payloadTooLarge,
                                    "the result is \(data.text.utf16.count) characters long; the limit is \(configuration.maxPayload)"))
    }

    private func record(_ session: BridgeSession, _ name: String, _ id: Int, _ data: RawJSON,
                        _ arrived: ContinuousClock.Instant, _ result: Result<RawJSON, BridgeError>) {
        onCall?(BridgeCallRecord(handler: name, origin: session.origin, data: data, result: result, latency: ContinuousClock.now - arrived))
        transcript?.recordCall(kind: "call", session: session.id, handler: name, id: id, size: data.utf8Count, arrived: arrived, result)
    }
}

/// Whether a call has pushed progress (set on the engine thread, read there too).
@EngineActor
final class ProgressFlag {
    var isSet = false
}
