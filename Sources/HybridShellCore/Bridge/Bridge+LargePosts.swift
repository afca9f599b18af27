/// A large post waiting to be read off the main-loop thread. Its place in the session's backlog
/// keeps the order: later posts wait behind it until it has been read and dispatched.
@EngineActor
final class PendingRead {
    let text: String
    let reply: ScriptMessageReply
    let transport: PostTransport
    let arrived: ContinuousClock.Instant
    /// The read post, once the reading thread is done.
    var outcome: Result<InboundPost, InboundPost.Refusal>?

    init(text: String, reply: ScriptMessageReply, transport: PostTransport, arrived: ContinuousClock.Instant) {
        self.text = text
        self.reply = reply
        self.transport = transport
        self.arrived = arrived
    }
}

extension Bridge {
    /// Posts at least this long (UTF-8 bytes) are read on another thread: reading is pure, and
    /// reading megabytes of frames (up to 16 MiB, hundreds of thousands of calls a page can post
    /// in one go) would hold the main loop for as long. Smaller posts take a few milliseconds at
    /// most, less than the thread hop would cost a call.
    static let offThreadReadSize = 2 << 20

    /// Starts reading a large post of the current, allowed session on another thread; false when
    /// the post is small or has no such session (it is then read here, as any other).
    func readOffThread(_ text: String, _ reply: ScriptMessageReply, _ transport: PostTransport, _ arrived: ContinuousClock.Instant) -> Bool {
        guard text.utf8.count >= Bridge.offThreadReadSize, let session, !session.isEnded, session.allowed else { return false }
        let pending = PendingRead(text: text, reply: reply, transport: transport, arrived: arrived)
        session.backlog.append(.reading(pending))
        let maxPayload = configuration.maxPayload
        let maxDepth = configuration.maxDepth
        Task.detached { [weak self, weak session, weak pending] in
            let outcome = Result { () throws(InboundPost.Refusal) in try InboundPost.read(text, maxPayload: maxPayload, maxDepth: maxDepth) }
            await self?.finishRead(pending, outcome, session: session)
        }
        return true
    }

    private func finishRead(_ pending: PendingRead?, _ outcome: Result<InboundPost, InboundPost.Refusal>, session: BridgeSession?) {
        guard let pending, let session else { return }
        pending.outcome = outcome
        scheduleDrain(session)
    }

    /// The post of a backlog entry whose reading is done (here and now if it is not yet: a
    /// closing document's last posts cannot wait for the other thread).
    func readPending(_ pending: PendingRead, waiting: Bool) -> Result<InboundPost, InboundPost.Refusal>? {
        if let outcome = pending.outcome { return outcome }
        guard !waiting else { return nil }
        let outcome = Result { () throws(InboundPost.Refusal) in
            try InboundPost.read(pending.text, maxPayload: configuration.maxPayload, maxDepth: configuration.maxDepth)
        }
        pending.outcome = outcome
        return outcome
    }
}
