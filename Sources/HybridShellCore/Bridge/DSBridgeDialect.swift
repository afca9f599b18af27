/// dsbridge.js 3.x on a ``Bridge``: its synchronous `prompt()` transport, its `_dsb.*` built-in
/// methods, and the non-blocking dialogs a page may ask for. Asynchronous dsbridge calls travel as
/// frames like every dialect's; only what dsbridge does differently lives here.
@EngineActor
final class DSBridgeDialect {
    static let promptPrefix = "_hybridshell_ds="

    private unowned let bridge: Bridge
    /// The session that called `_dsb.disableJavascriptDialogBlock(true)`: its dialogs answer at once.
    private var nonBlockingSession: String?

    init(bridge: Bridge) {
        self.bridge = bridge
    }

    /// Takes dialogs before the page's policy: the prompt transport first, then non-blocking dialogs.
    func install(on view: any BridgeEngine) {
        view.addDialogInterceptor { [weak self] dialog, responder in self?.prompt(dialog, responder) ?? false }
        view.addDialogInterceptor { [weak self] dialog, responder in self?.nonBlockingDialog(dialog, responder) ?? false }
    }

    /// dsbridge.js synchronous calls: `prompt("_dsbridge=" + method, args)`, which page.js rewrites
    /// to carry the session's secret. A prompt without the secret (an iframe, a page that never got
    /// HybridShell's script) is answered `DENIED` and no handler runs.
    func prompt(_ dialog: ScriptDialog, _ responder: DialogResponder) -> Bool {
        guard dialog.kind == .prompt else { return false }
        if dialog.message.hasPrefix("_dsbridge=") {
            let method = String(dialog.message.dropFirst("_dsbridge=".count))
            refuseDSBridge(method, dialog, responder, BridgeError(.denied, "dsbridge calls are accepted only from the top document HybridShell opened"),
                           fromSession: false)
            return true
        }
        guard dialog.message.hasPrefix(DSBridgeDialect.promptPrefix) else { return false }
        // On this gate backslashes travel as U+0001, both ways (PromptText).
        let responder = DialogResponder { [responder] answer in
            guard case .prompt(let text?) = answer else { return responder.answer(answer) }
            responder.answer(.prompt(PromptText.encode(text)))
        }
        let gated = PromptText.decode(String(dialog.message.dropFirst(DSBridgeDialect.promptPrefix.count)))
        let argumentsText = PromptText.decode(dialog.defaultText ?? "{}")
        guard let colon = gated.firstIndex(of: ":") else {
            refuseDSBridge(nil, dialog, responder, BridgeError(.invalidMessage, "malformed dsbridge call"), fromSession: false)
            return true
        }
        let secret = String(gated[..<colon])
        let method = String(gated[gated.index(after: colon)...])
        guard let session = bridge.session, !session.isEnded, session.allowed, constantTimeEqual(secret, session.secret) else {
            let fromSession = bridge.session.map { constantTimeEqual(secret, $0.secret) } ?? false
            refuseDSBridge(method, dialog, responder, BridgeError(.denied, "this document may not use the bridge"), fromSession: fromSession)
            return true
        }
        let arrived = ContinuousClock.now
        let data: RawJSON
        switch bridge.legacyMembers(argumentsText) {
        case .success(let members): data = members["data"] ?? .null
        case .failure(let error):
            recordDSBridge(session, method, RawJSON(unchecked: argumentsText), arrived, .failure(error))
            responder.answer(.prompt(DSBridgeAnswer.failure(error)))
            return true
        }
        if let builtin = builtin(method, data, session: session) {
            recordDSBridge(session, method, data, arrived, builtin)
            responder.answer(.prompt(DSBridgeAnswer.text(builtin)))
            return true
        }
        let handler: BridgeHandler
        switch bridge.handlers.resolve(method, origin: session.origin) {
        case .success(let found): handler = found
        case .failure(let error):
            recordDSBridge(session, method, data, arrived, .failure(error))
            responder.answer(.prompt(DSBridgeAnswer.failure(error)))
            return true
        }
        let call = BridgeCall(handler: method, dialect: .dsbridge, origin: session.origin, url: session.url, sessionID: session.id)
        switch handler {
        case .sync(let body):
            let result = bridge.checkedResult(Result { try body(data, call) }.mapError(BridgeError.from))
            recordDSBridge(session, method, data, arrived, result)
            responder.answer(.prompt(DSBridgeAnswer.text(result)))
        case .async(let body, _):
            // The page is blocked in prompt() until this answers, so it gets the call's deadline.
            let limit = bridge.configuration.defaultTimeout
            let worker = Task { () -> Result<RawJSON, BridgeError> in
                do { return .success(try await body(data, call)) } catch { return .failure(BridgeError.from(error)) }
            }
            let deadline = Task { @EngineActor in
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled else { return }
                worker.cancel()
                responder.answer(.prompt(DSBridgeAnswer.failure(BridgeError(.timeout, "\(method) did not answer within \(limit.secondsText)"))))
            }
            Task { @EngineActor [weak self] in
                let result = await worker.value
                deadline.cancel()
                let checked = self?.bridge.checkedResult(result) ?? result
                if let self { self.recordDSBridge(session, method, data, arrived, checked) }
                responder.answer(.prompt(DSBridgeAnswer.text(checked)))
            }
        }
        return true
    }

    /// The `_dsb.*` methods dsbridge.js 3.x calls on native, answered as the original answers them;
    /// nil for any other name, which then goes to the bridge's handlers.
    ///
    /// - `_dsb.dsinit`: dsbridge.js finished registering the page's methods. page.js holds native
    ///   calls to dsbridge methods until then (the original's start-up queue); native answers null.
    /// - `_dsb.hasNativeMethod` `{name, type}`: whether a handler named `name` exists. Every handler
    ///   can be called both synchronously and asynchronously here, so `type` (`all`, `syn`, `asyn`)
    ///   does not change the answer; any other type is refused.
    /// - `_dsb.closePage`: the page asks to be closed, like `window.close()` (which dsbridge.js
    ///   reroutes here): the view reports ``PageEvent/closeRequested``.
    /// - `_dsb.disableJavascriptDialogBlock` `{disable}`: with `disable` true, this document's
    ///   `alert`, `confirm` and `prompt` no longer wait for a person: ones the dialog policy would
    ///   show are answered at once (dismissed, OK, the default text), as the original does.
    /// - `_dsb.returnValue` never reaches native: it answers a native call inside page.js.
    func builtin(_ name: String, _ data: RawJSON, session: BridgeSession) -> Result<RawJSON, BridgeError>? {
        guard name.hasPrefix("_dsb.") else { return nil }
        switch name {
        case "_dsb.dsinit":
            return .success(.null)
        case "_dsb.hasNativeMethod":
            let value = data.value
            let method = value["name"]?.stringValue ?? value.stringValue ?? ""
            let type = value["type"]?.stringValue ?? "all"
            guard ["all", "syn", "asyn"].contains(type) else {
                return .failure(BridgeError(.invalidMessage, "hasNativeMethod takes the type all, syn or asyn, not \(JSONValue.quoted(type))"))
            }
            return .success(RawJSON(unchecked: bridge.handlers.hasHandler(method) ? "true" : "false"))
        case "_dsb.closePage":
            guard let engine = bridge.engine, !session.isEnded else { return .failure(BridgeError(.bridgeReset, "the page is gone")) }
            engine.report(.closeRequested)
            return .success(.null)
        case "_dsb.disableJavascriptDialogBlock":
            let value = data.value
            let disable = value["disable"]?.boolValue ?? value.boolValue ?? true
            nonBlockingSession = disable ? session.id : (nonBlockingSession == session.id ? nil : nonBlockingSession)
            return .success(.null)
        default:
            return nil
        }
    }

    /// After `_dsb.disableJavascriptDialogBlock`, a dialog the policy would show (and so block the
    /// page on) is answered at once instead, and still reported as a dialog event.
    func nonBlockingDialog(_ dialog: ScriptDialog, _ responder: DialogResponder) -> Bool {
        guard let engine = bridge.engine, let session = bridge.session, !session.isEnded, nonBlockingSession == session.id,
              engine.dialogPolicy.answer(dialog) == .showNativeDialog else { return false }
        let answer = DialogPolicy.automatic().answer(dialog)
        engine.report(.dialog(dialog, answer: answer))
        responder.answer(answer)
        return true
    }

    /// A dsbridge call refused before dispatch: answered, and recorded (`outcome: denied` for a
    /// caller that may not use the bridge). A prompt carries no frame or origin (WebKit's
    /// `script-dialog`), so only one with the session's secret is recorded under the session
    /// (`fromSession`); any other — a bare `_dsbridge=` prompt, a wrong secret: some frame, not
    /// necessarily the top document — is recorded without a session, as `caller: "unattributed"`.
    private func refuseDSBridge(_ method: String?, _ dialog: ScriptDialog, _ responder: DialogResponder, _ error: BridgeError,
                                fromSession: Bool) {
        bridge.transcript?.record(direction: "in", session: fromSession ? bridge.session?.id : nil, kind: "dsbridge-sync", handler: method,
                                  id: nil, size: dialog.defaultText?.utf8.count ?? 0, latency: nil,
                                  outcome: error.code == .denied ? "denied" : error.code.rawValue, caller: fromSession ? nil : "unattributed")
        responder.answer(.prompt(DSBridgeAnswer.failure(error)))
    }

    private func recordDSBridge(_ session: BridgeSession, _ method: String, _ data: RawJSON,
                                _ arrived: ContinuousClock.Instant, _ result: Result<RawJSON, BridgeError>) {
        bridge.onCall?(BridgeCallRecord(handler: method, origin: session.origin, data: data, result: result, latency: ContinuousClock.now - arrived))
        bridge.transcript?.recordCall(kind: "dsbridge-sync", session: session.id, handler: method, size: data.text.utf8.count,
                                      arrived: arrived, result)
    }
}

/// dsbridge's answer text for a synchronous call.
enum DSBridgeAnswer {
    /// Written with exactly this prefix, which page.js checks instead of parsing large answers.
    static func success(_ data: RawJSON) -> String {
        #"{"code":0,"data":"# + data.text + "}"
    }

    static func failure(_ error: BridgeError) -> String {
        #"{"code":-1,"data":null,"errorCode":"\#(error.code.rawValue)","message":\#(JSONValue.quoted(error.message))}"#
    }

    static func text(_ result: Result<RawJSON, BridgeError>) -> String {
        switch result {
        case .success(let data): success(data)
        case .failure(let error): failure(error)
        }
    }
}

/// Compares secrets without leaking how many characters matched through timing.
/// (On the bytes in place: every direct post is checked, and copies cost allocations.)
func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { left in
        b.withUTF8 { right in
            guard left.count == right.count else { return false }
            var difference: UInt8 = 0
            for index in 0..<left.count { difference |= left[index] ^ right[index] }
            return difference == 0
        }
    }
}
