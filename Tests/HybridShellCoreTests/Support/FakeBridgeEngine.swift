@testable import HybridShellCore

/// A ``BridgeEngine`` without WebKit: it records what the bridge installs, evaluates and delivers,
/// and lets a test play the page — post as the relay would, raise page events, open dialogs and
/// navigate. Like swift-nio's `EmbeddedChannel`: the bridge's sessions, dialects and limits run
/// for real, synchronously, with no display.
@EngineActor
final class FakeBridgeEngine: BridgeEngine {
    private(set) var replyHandlers: [String: (ScriptMessage, ScriptMessageReply) -> Void] = [:]
    private(set) var userScripts: [UserScript] = []
    private var observers: [Int: (PageEvent) -> Void] = [:]
    private var nextObserver = 0
    private var dialogInterceptors: [(ScriptDialog, DialogResponder) -> Bool] = []
    private var navigationDeciders: [(NavigationAction) -> NavigationDecision?] = []

    /// Scripts evaluated, in order, with the world they ran in.
    private(set) var evaluated: [(script: String, world: ScriptWorld)] = []
    /// Function bodies called with typed arguments (WebViewJavascriptBridge's answers).
    private(set) var calls: [(body: String, arguments: [String: JSONValue])] = []
    /// Frames pushed to the page with the relay's `deliver`, by session.
    private(set) var deliveries: [(session: String, frames: String)] = []
    /// Answers `evaluateJavaScript` (the WebViewJavascriptBridge queue read); `null` by default.
    var evaluate: (String) -> JSONValue = { _ in .null }
    /// Answers a delivery as the relay would: up-frames the page sent while handling it, or nil.
    var answerDelivery: (_ session: String, _ frames: String) -> String? = { _, _ in nil }

    func addScriptMessageReplyHandler(_ name: String, in world: ScriptWorld, _ handler: @escaping (ScriptMessage, ScriptMessageReply) -> Void) {
        replyHandlers[name] = handler
    }

    func addUserScript(_ script: UserScript) { userScripts.append(script) }

    @discardableResult
    func observe(_ observer: @escaping (PageEvent) -> Void) -> ObservationToken {
        let id = nextObserver
        nextObserver += 1
        observers[id] = observer
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }

    func addDialogInterceptor(_ interceptor: @escaping (ScriptDialog, DialogResponder) -> Bool) {
        dialogInterceptors.append(interceptor)
    }

    func addNavigationDecider(_ decider: @escaping (NavigationAction) -> NavigationDecision?) {
        navigationDeciders.append(decider)
    }

    func evaluateJavaScript(_ script: String, in world: ScriptWorld, sourceURL: String?) async throws -> JSONValue {
        evaluated.append((script, world))
        defer { wake() }
        return evaluate(script)
    }

    func callAsyncJavaScript(_ body: String, arguments: [String: JSONValue], in world: ScriptWorld) async throws -> JSONValue {
        calls.append((body, arguments))
        wake()
        return .null
    }

    func callFunctionReturningString(_ body: String, strings: [String: String], in world: ScriptWorld) async throws -> String? {
        // `m` is the session id (32 hex digits) followed by the frames text (Bridge.deliverBody).
        let joined = strings["m"] ?? ""
        let session = String(joined.prefix(32)), frames = String(joined.dropFirst(32))
        deliveries.append((session, frames))
        wake()
        return answerDelivery(session, frames)
    }

    var dialogPolicy = DialogPolicy.automatic()
    /// Events the bridge reported as the page's (`closeRequested`, dialogs it answered).
    private(set) var reported: [PageEvent] = []

    func report(_ event: PageEvent) {
        reported.append(event)
        emit(event)
    }

    // MARK: Playing the page

    /// The document secret the fake relay's hello carries (32 characters, as the relay's).
    static let secret = "5ec2e75ec2e75ec2e75ec2e75ec2e7ab"

    /// Posts `text` to the handler `name` as a page script would, and returns the reply.
    func post(_ text: String, isString: Bool = true, to name: String = "hybridshell") async -> ScriptMessageReply.Answer {
        let answer = Handoff<ScriptMessageReply.Answer>()
        guard let handler = replyHandlers[name] else { return .error("no handler named \(name)") }
        handler(ScriptMessage(body: text, isString: isString), ScriptMessageReply { answer.fulfill($0) })
        return (try? await answer.value(timeout: .seconds(10), "reply")) ?? .error("no reply within 10 s")
    }

    /// The relay's hello for a document at `url`, as the first post of `session`.
    func hello(session: String, url: String, origin: String, secret: String = FakeBridgeEngine.secret) async -> ScriptMessageReply.Answer {
        await post(#"{"v":1,"s":"\#(session)","m":[{"t":"hello","url":"\#(url)","origin":"\#(origin)","secret":"\#(secret)","dialects":["hybrid","wvjb","dsbridge","wx"]}]}"#)
    }

    /// Frames posted by the relay for `session`.
    func send(_ session: String, _ frames: String) async -> ScriptMessageReply.Answer {
        await post(#"{"v":1,"s":"\#(session)","m":"# + frames + "}")
    }

    /// Frames posted to the page world's direct handler with `credential` as the envelope's `s`
    /// (the page's bridge puts the session's secret there; a forger puts anything).
    func sendDirect(_ credential: String, _ frames: String) async -> ScriptMessageReply.Answer {
        await post(#"{"v":1,"s":"\#(credential)","m":"# + frames + "}", to: Bridge.directHandlerName)
    }

    func emit(_ event: PageEvent) {
        for id in observers.keys.sorted() { observers[id]?(event) }
    }

    /// Opens a dialog; the answer, if an interceptor took it and answered (now or within 10 s).
    func dialog(_ dialog: ScriptDialog) async -> DialogAnswer? {
        let answer = Handoff<DialogAnswer>()
        let responder = DialogResponder { answer.fulfill($0) }
        guard dialogInterceptors.contains(where: { $0(dialog, responder) }) else { return nil }
        return try? await answer.value(timeout: .seconds(10), "dialog answer")
    }

    /// A navigation the page starts; the bridge's decision, if it made one.
    func navigate(_ url: String) -> NavigationDecision? {
        for decider in navigationDeciders {
            if let decision = decider(NavigationAction(url: url)) { return decision }
        }
        return nil
    }

    /// Returns once `condition` holds, re-checking after each delivery, evaluation or call.
    func waitUntil(_ what: String, timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { throw ShellError.timedOut("no \(what) within \(timeout)") }
            let woken = Handoff<Void>()
            wakers.append(woken)
            _ = try? await woken.value(timeout: deadline - ContinuousClock.now, what)
        }
    }

    private var wakers: [Handoff<Void>] = []

    private func wake() {
        let waiting = wakers
        wakers.removeAll()
        for waker in waiting { waker.fulfill(()) }
    }
}
