extension Bridge {
    static let dsbridgePromptPrefix = "_hybridshell_ds="

    /// dsbridge.js synchronous calls: `prompt("_dsbridge=" + method, args)`, which page.js rewrites
    /// to carry the session's secret. A prompt without the secret (an iframe, a page that never got
    /// HybridShell's script) is answered `DENIED` and no handler runs.
    func dsbridgePrompt(_ dialog: ScriptDialog, _ responder: DialogResponder) -> Bool {
        guard dialog.kind == .prompt else { return false }
        if dialog.message.hasPrefix("_dsbridge=") {
            let method = String(dialog.message.dropFirst("_dsbridge=".count))
            refuseDSBridge(method, dialog, responder, BridgeError(.denied, "dsbridge calls are accepted only from the top document HybridShell opened"),
                           fromSession: false)
            return true
        }
        guard dialog.message.hasPrefix(Bridge.dsbridgePromptPrefix) else { return false }
        // On this gate backslashes travel as U+0001, both ways (PromptText).
        let responder = DialogResponder { [responder] answer in
            guard case .prompt(let text?) = answer else { return responder.answer(answer) }
            responder.answer(.prompt(PromptText.encode(text)))
        }
        let gated = PromptText.decode(String(dialog.message.dropFirst(Bridge.dsbridgePromptPrefix.count)))
        let argumentsText = PromptText.decode(dialog.defaultText ?? "{}")
        guard let colon = gated.firstIndex(of: ":") else {
            refuseDSBridge(nil, dialog, responder, BridgeError(.invalidMessage, "malformed dsbridge call"), fromSession: false)
            return true
        }
        let secret = String(gated[..<colon])
        let method = String(gated[gated.index(after: colon)...])
        guard let session, !session.isEnded, session.allowed, constantTimeEqual(secret, session.secret) else {
            let fromSession = self.session.map { constantTimeEqual(secret, $0.secret) } ?? false
            refuseDSBridge(method, dialog, responder, BridgeError(.denied, "this document may not use the bridge"), fromSession: fromSession)
            return true
        }
        let arrived = ContinuousClock.now
        let data: RawJSON
        switch legacyMembers(argumentsText) {
        case .success(let members): data = members["data"] ?? .null
        case .failure(let error):
            recordDSBridge(session, method, RawJSON(unchecked: argumentsText), arrived, .failure(error))
            responder.answer(.prompt(DSBridgeAnswer.failure(error)))
            return true
        }
        if let builtin = dsbridgeBuiltin(method, data, dialect: .dsbridge, session: session) {
            recordDSBridge(session, method, data, arrived, builtin)
            responder.answer(.prompt(DSBridgeAnswer.text(builtin)))
            return true
        }
        let handler: BridgeHandler
        switch handlers.resolve(method, origin: session.origin) {
        case .success(let found): handler = found
        case .failure(let error):
            recordDSBridge(session, method, data, arrived, .failure(error))
            responder.answer(.prompt(DSBridgeAnswer.failure(error)))
            return true
        }
        let call = BridgeCall(handler: method, dialect: .dsbridge, origin: session.origin, url: session.url, sessionID: session.id)
        switch handler {
        case .sync(let body):
            let result = checkedResult(Result { try body(data, call) }.mapError(BridgeError.from))
            recordDSBridge(session, method, data, arrived, result)
            responder.answer(.prompt(DSBridgeAnswer.text(result)))
        case .async(let body, _):
            // The page is blocked in prompt() until this answers, so it gets the call's deadline.
            let limit = configuration.defaultTimeout
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
                let checked = self?.checkedResult(result) ?? result
                if let self { self.recordDSBridge(session, method, data, arrived, checked) }
                responder.answer(.prompt(DSBridgeAnswer.text(checked)))
            }
        }
        return true
    }

    /// A dsbridge call refused before dispatch: answered, and recorded (`outcome: denied` for a
    /// caller that may not use the bridge). A prompt carries no frame or origin (WebKit's
    /// `script-dialog`), so only one with the session's secret is recorded under the session
    /// (`fromSession`); any other — a bare `_dsbridge=` prompt, a wrong secret: some frame, not
    /// necessarily the top document — is recorded without a session, as `caller: "unattributed"`.
    private func refuseDSBridge(_ method: String?, _ dialog: ScriptDialog, _ responder: DialogResponder, _ error: BridgeError,
                                fromSession: Bool) {
        transcript?.record(direction: "in", session: fromSession ? session?.id : nil, kind: "dsbridge-sync", handler: method, id: nil,
                           size: dialog.defaultText?.utf8.count ?? 0, latency: nil,
                           outcome: error.code == .denied ? "denied" : error.code.rawValue, caller: fromSession ? nil : "unattributed")
        responder.answer(.prompt(DSBridgeAnswer.failure(error)))
    }

    private func recordDSBridge(_ session: BridgeSession, _ method: String, _ data: RawJSON,
                                _ arrived: ContinuousClock.Instant, _ result: Result<RawJSON, BridgeError>) {
        onCall?(BridgeCallRecord(handler: method, origin: session.origin, data: data, result: result, latency: ContinuousClock.now - arrived))
        let outcome: String
        switch result {
        case .success: outcome = "ok"
        case .failure(let error): outcome = error.code.rawValue
        }
        transcript?.record(direction: "in", session: session.id, kind: "dsbridge-sync", handler: method, id: nil,
                           size: data.text.utf8.count, latency: ContinuousClock.now - arrived, outcome: outcome)
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
