/// Frames of one post still to dispatch, with what their answers need.
struct SliceWork {
    let frames: ArraySlice<InboundFrame>
    /// The post's reply, until a slice has answered it.
    let reply: ScriptMessageReply?
    let arrived: ContinuousClock.Instant
    let callCount: Int
    /// Calls refused with `RATE_LIMITED` (over the in-flight cap when the post arrived).
    let limited: Set<Int>
}

/// A post waiting in a session's backlog: unread (it arrived while the turn's budget was spent)
/// or the rest of one whose first slices ran.
enum BacklogEntry {
    case unread(text: String, reply: ScriptMessageReply, transport: PostTransport, arrived: ContinuousClock.Instant)
    case frames(SliceWork)
    /// A large post being read on another thread (Bridge+LargePosts.swift).
    case reading(PendingRead)
}

extension Bridge {
    /// Once this turn's budget is spent, or while earlier posts wait, a post waits unread for a
    /// later turn, in order.
    func deferIfBusy(_ text: String, _ reply: ScriptMessageReply, _ transport: PostTransport, _ arrived: ContinuousClock.Instant) -> Bool {
        guard let session, !session.isEnded, session.allowed else { return false }
        budget.noteArrival(arrived)
        guard !session.backlog.isEmpty || budget.isSpent(configuration.dispatchSlice) else { return false }
        session.backlog.append(.unread(text: text, reply: reply, transport: transport, arrived: arrived))
        scheduleDrain(session)
        return true
    }

    func scheduleDrain(_ session: BridgeSession) {
        guard session.drainTimer == nil else { return }
        // A main-loop source, not a job: GLibExecutor runs the jobs that jobs queue in the same
        // dispatch, and the point of a slice is to let the loop's other sources run in between.
        // Below WebKit's priorities: at the default one, GLib would dispatch only the next slice
        // until the backlog ran out, and hold back WebKit's messages (console lines, page events)
        // for all that time (a flood's console lines arrived 300–400 ms late).
        session.drainTimer = LoopTimer(afterPendingEvents: { [weak self, weak session] in
            guard let session else { return }
            session.drainTimer = nil
            self?.drain(session)
        })
    }

    /// Everything still waiting, now: a closing document's last calls (its `unload` handlers'
    /// and the answers to the events before it) must reach Swift before the session ends.
    func drainAll(_ session: BridgeSession) {
        while !session.backlog.isEmpty, !session.isEnded, self.session === session {
            var work: SliceWork
            switch session.backlog.removeFirst() {
            case .frames(let rest):
                work = rest
            case .unread(let text, let reply, let transport, let arrived):
                guard let (post, current) = readPost(text, reply, transport), current === session else { continue }
                work = prepare(post.frames, in: session, reply: reply, arrived: arrived)
            case .reading(let pending):
                guard let outcome = readPending(pending, waiting: false),
                      let (post, current) = admit(outcome, pending.text, pending.reply, pending.transport), current === session else { continue }
                work = prepare(post.frames, in: session, reply: pending.reply, arrived: pending.arrived)
            }
            // No time budget here (a slice that "started" in the future never runs out).
            while let rest = dispatchSlice(work, in: session, sliceStarted: .now + .seconds(3_600)) { work = rest }
        }
    }

    /// One slice of the backlog, then the rest in a later turn.
    private func drain(_ session: BridgeSession) {
        guard !session.isEnded, self.session === session else {
            let entries = session.backlog
            session.backlog.removeAll()
            session.queuedCalls = 0
            let error = BridgeError(.bridgeReset, "the document's bridge session has ended")
            for entry in entries {
                switch entry {
                case .unread(_, let reply, _, _): reply.succeed(OutboundFrame.refusal(error))
                case .frames(let work): work.reply?.succeed("[]")
                case .reading(let pending): pending.reply.succeed(OutboundFrame.refusal(error))
                }
            }
            return
        }
        let started = ContinuousClock.now
        // At least one entry per slice, whatever the budget: a budget spent before the first entry
        // (zero, or a stalled clock read) must still make progress, not reschedule forever.
        var first = true
        while !session.backlog.isEmpty, first || ContinuousClock.now - started <= configuration.dispatchSlice {
            first = false
            var work: SliceWork
            switch session.backlog.removeFirst() {
            case .frames(let rest):
                work = rest
            case .unread(let text, let reply, let transport, let arrived):
                guard let (post, current) = readPost(text, reply, transport), current === session else { continue }
                work = prepare(post.frames, in: session, reply: reply, arrived: arrived)
            case .reading(let pending):
                // Still being read: its reader schedules the next drain when it is done.
                guard let outcome = readPending(pending, waiting: true) else {
                    session.backlog.insert(.reading(pending), at: 0)
                    return
                }
                guard let (post, current) = admit(outcome, pending.text, pending.reply, pending.transport), current === session else { continue }
                work = prepare(post.frames, in: session, reply: pending.reply, arrived: pending.arrived)
            }
            if let rest = dispatchSlice(work, in: session, sliceStarted: started) {
                session.backlog.insert(.frames(rest), at: 0)
                break
            }
        }
        if !session.backlog.isEmpty { scheduleDrain(session) }
    }
}
