/// The JavaScript ⇄ Swift bridge of one ``WebView``: pages call ``handlers`` (through
/// `window.hybrid`, WebViewJavascriptBridge, dsbridge.js or `wx`), Swift calls page handlers with
/// ``call(_:with:timeout:)`` and pushes events with ``emit(_:data:)``.
///
/// Each document gets its own session after a handshake; traffic waits for it, and when the
/// document goes away every pending call on both sides settles with `BRIDGE_RESET`. Only documents
/// whose origin the ``BridgeConfiguration/originPolicy`` allows get a working bridge; the origin
/// comes from a relay script in an isolated world that page scripts cannot reach or fool.
/// See bridge-js/PROTOCOL.md for the wire protocol.
///
/// The view holds its bridge weakly: keep a reference for as long as the page should have one.
@EngineActor
public final class Bridge {
    public let handlers: BridgeHandlers
    public private(set) var configuration: BridgeConfiguration

    /// Which documents get a working bridge from now on (a pooled view learns its page's origin
    /// when it is taken). The current session keeps the answer it got.
    public var originPolicy: OriginPolicy {
        get { configuration.originPolicy }
        set { configuration.originPolicy = newValue }
    }
    /// The page it bridges: a ``WebView``, or a fake in tests.
    weak var engine: (any BridgeEngine)?
    /// `engine` when it can hand a delivery's answer straight to a completion (a ``WebView``): asked
    /// once here, as a cast per delivery costs a native call a measurable share of its time.
    weak var directEngine: (any StringFunctionCalling)?
    var session: BridgeSession?
    /// Native calls and events made while no session was ready; sent when one is.
    var waitingForReady: [(BridgeSession) -> Void] = []
    var observers: [Int: (BridgeEvent) -> Void] = [:]
    private var nextObserverID = 0
    /// Writes a JSONL transcript of every message, when set (`--bridge-log`).
    public var transcript: BridgeTranscript?
    /// What dsbridge.js and WebViewJavascriptBridge do differently from the frames every dialect
    /// shares: their own transports and built-ins, with their own state.
    private(set) var dsbridge: DSBridgeDialect!
    private(set) var wvjb: WVJBDialect!
    /// This main-loop turn's dispatch time (Bridge+Backlog.swift).
    var budget = TurnBudget()
    /// Told of every page → native call as it finishes, with its data and outcome (`hybrid-run mcp`'s
    /// `native_calls`).
    package var onCall: ((BridgeCallRecord) -> Void)?

    static let world = "hybridshell"
    static let handlerName = "hybridshell"
    /// The page world's own message handler (``PostTransport/direct``).
    static let directHandlerName = "hybridshellDirect"

    /// A bridge for any ``BridgeEngine``: what tests use to drive it without WebKit.
    public init(engine view: any BridgeEngine, configuration: BridgeConfiguration, handlers: BridgeHandlers = BridgeHandlers()) {
        self.engine = view
        self.directEngine = view as? any StringFunctionCalling
        self.configuration = configuration
        self.handlers = handlers
        view.addScriptMessageReplyHandler(Bridge.handlerName, in: .isolated(Bridge.world)) { [weak self] message, reply in
            self?.receive(message, reply, via: .relay)
        }
        view.addScriptMessageReplyHandler(Bridge.directHandlerName, in: .page) { [weak self] message, reply in
            self?.receive(message, reply, via: .direct)
        }
        if configuration.injection == .documentStart {
            view.addUserScript(UserScript(source: BridgeScripts.relay, injectionTime: .documentStart, frames: .topFrameOnly,
                                          world: .isolated(Bridge.world)))
            view.addUserScript(UserScript(source: BridgeScripts.page, injectionTime: .documentStart, frames: .topFrameOnly))
        }
        view.observe { [weak self] event in self?.pageEvent(event) }
        dsbridge = DSBridgeDialect(bridge: self)
        wvjb = WVJBDialect(bridge: self)
        dsbridge.install(on: view)
        wvjb.install(on: view)
    }

    /// The current document's session, if its handshake completed.
    public var currentSession: (id: String, origin: String, url: String, allowed: Bool)? {
        session.flatMap { $0.isEnded ? nil : ($0.id, $0.origin, $0.url, $0.allowed) }
    }

    @discardableResult
    public func observe(_ observer: @escaping (BridgeEvent) -> Void) -> ObservationToken {
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = observer
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }

    func notify(_ event: BridgeEvent) {
        for id in observers.keys.sorted() { observers[id]?(event) }
    }

    // MARK: Document lifecycle

    private func pageEvent(_ event: PageEvent) {
        switch event {
        case .loadCommitted:
            endSession(BridgeError(.bridgeReset, "the page navigated to another document"))
        case .webProcessTerminated(let reason):
            endSession(BridgeError(.bridgeReset, "the web process ended (\(reason.rawValue))"))
        case .loadFinished(_, true) where configuration.injection == .afterLoad:
            injectNow()
        default:
            break
        }
    }

    /// Ends the current session (if any) with `error` for everything still pending.
    public func endSession(_ error: BridgeError = BridgeError(.bridgeReset, "the bridge was reset")) {
        guard let session, !session.isEnded else { return }
        session.end(error)
        transcript?.record(direction: "none", session: session.id, kind: "end", handler: nil, id: nil, size: 0,
                           latency: nil, outcome: error.message)
        notify(.ended(session: session.id, reason: error.message))
    }

    /// Injects the bridge into the current document now (`injectDynamically`, or a
    /// WebViewJavascriptBridge `__bridge_loaded__` ping on a page that had none).
    func injectNow() {
        guard let engine, session == nil || session?.isEnded == true else { return }
        Task { @EngineActor in
            _ = try? await engine.evaluateJavaScript(BridgeScripts.relay, in: .isolated(Bridge.world), sourceURL: nil)
            _ = try? await engine.evaluateJavaScript(BridgeScripts.page, in: .page, sourceURL: nil)
        }
    }

    // MARK: Posts from the relay

    func receive(_ message: ScriptMessage, _ reply: ScriptMessageReply, via transport: PostTransport) {
        let arrived = ContinuousClock.now
        guard message.isString else {
            reply.succeed(OutboundFrame.refusal(BridgeError(.invalidMessage, "a post must be JSON text")))
            return
        }
        // In a flood, posts wait (unread) for a later main-loop turn; see Bridge+Backlog.swift.
        if deferIfBusy(message.body, reply, transport, arrived) || readOffThread(message.body, reply, transport, arrived) { return }
        defer { budget.notePostDone() }
        guard let (post, session) = readPost(message.body, reply, transport) else { return }
        dispatch(post.frames, in: session, reply: reply, arrived: arrived, size: message.body.utf8.count)
    }

    /// Reads a post and answers it when it is not a session's frames to dispatch (a refusal, a
    /// hello, an ended or denied session); else returns it with its session.
    func readPost(_ text: String, _ reply: ScriptMessageReply, _ transport: PostTransport) -> (InboundPost, BridgeSession)? {
        admit(Result { () throws(InboundPost.Refusal) in
            try InboundPost.read(text, maxPayload: configuration.maxPayload, maxDepth: configuration.maxDepth)
        }, text, reply, transport)
    }

    /// ``readPost(_:_:)`` once the post has been read (here, or on another thread for a large one).
    func admit(_ outcome: Result<InboundPost, InboundPost.Refusal>, _ text: String, _ reply: ScriptMessageReply,
               _ transport: PostTransport) -> (InboundPost, BridgeSession)? {
        let post: InboundPost
        switch outcome {
        case .success(let read):
            post = read
        case .failure(let error):
            transcript?.record(direction: "in", session: session?.id, kind: "post", handler: nil, id: nil,
                               size: text.utf8.count, latency: nil, outcome: "refused: \(error.error)")
            reply.succeed(OutboundFrame.refusal(error.error))
            return nil
        }
        if case .hello(let url, let origin, let secret, _, let deliver)? = post.frames.first, post.frames.count == 1 {
            // Only the relay vouches for a document's address: any frame can post to the page
            // world's handler, so a hello from there would let it claim any origin.
            guard transport == .relay else {
                reply.succeed(OutboundFrame.refusal(BridgeError(.invalidMessage, "hello is only valid from the relay")))
                return nil
            }
            hello(post.session, url: url, origin: origin, secret: secret, deliver: deliver, reply: reply)
            return nil
        }
        guard let session, !session.isEnded, transport.admits(post.session, to: session) else {
            reply.succeed(OutboundFrame.refusal(BridgeError(.bridgeReset, "the document's bridge session has ended")))
            return nil
        }
        guard session.allowed else {
            recordDenied(post.frames, in: session, size: text.utf8.count)
            reply.succeed(OutboundFrame.refusal(BridgeError(.denied, "origin \(session.origin) may not use the bridge")))
            return nil
        }
        return (post, session)
    }

    private func hello(_ id: String, url: String, origin: String, secret: String, deliver: Bool, reply: ScriptMessageReply) {
        if session?.id == id {
            reply.succeed(OutboundFrame.refusal(BridgeError(.invalidMessage, "hello is only valid as a session's first post")))
            return
        }
        endSession(BridgeError(.bridgeReset, "a new document started"))
        let allowed = configuration.originPolicy.allows(origin: origin)
        let newSession = BridgeSession(id: id, secret: secret, origin: origin, url: url, allowed: allowed,
                                       directDelivery: deliver && DirectDelivery.serves(origin: origin))
        session = newSession
        transcript?.record(direction: "in", session: id, kind: "hello", handler: nil, id: nil, size: 0, latency: nil,
                           outcome: allowed ? "ready \(origin)" : "denied \(origin)")
        guard allowed else {
            reply.succeed(OutboundFrame.array([OutboundFrame.denied(BridgeError(.denied, "origin \(origin) may not use the bridge"))]))
            notify(.denied(session: id, origin: origin, url: url))
            return
        }
        reply.succeed(OutboundFrame.array([OutboundFrame.ready(
            session: id, maxPayload: configuration.maxPayload, maxDepth: configuration.maxDepth,
            timeoutMilliseconds: Int(configuration.defaultTimeout.milliseconds))]))
        notify(.ready(session: id, origin: origin, url: url))
        let waiting = waitingForReady
        waitingForReady.removeAll()
        for send in waiting { send(newSession) }
        wvjb.sessionReady()
    }
}
