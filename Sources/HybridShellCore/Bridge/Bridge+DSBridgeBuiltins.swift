extension Bridge {
    /// The `_dsb.*` methods dsbridge.js 3.x calls on native, answered as the original answers them;
    /// nil for any other name (or dialect), which then goes to ``handlers``.
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
    func dsbridgeBuiltin(_ name: String, _ data: RawJSON, dialect: BridgeDialect,
                         session: BridgeSession) -> Result<RawJSON, BridgeError>? {
        guard dialect == .dsbridge, name.hasPrefix("_dsb.") else { return nil }
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
            return .success(RawJSON(unchecked: handlers.hasHandler(method) ? "true" : "false"))
        case "_dsb.closePage":
            guard let engine, !session.isEnded else { return .failure(BridgeError(.bridgeReset, "the page is gone")) }
            engine.report(.closeRequested)
            return .success(.null)
        case "_dsb.disableJavascriptDialogBlock":
            let value = data.value
            session.dialogsBlock = !(value["disable"]?.boolValue ?? value.boolValue ?? true)
            return .success(.null)
        default:
            return nil
        }
    }

    /// After `_dsb.disableJavascriptDialogBlock`, a dialog the policy would show (and so block the
    /// page on) is answered at once instead, and still reported as a dialog event.
    func nonBlockingDialog(_ dialog: ScriptDialog, _ responder: DialogResponder) -> Bool {
        guard let engine, let session, !session.isEnded, !session.dialogsBlock,
              engine.dialogPolicy.answer(dialog) == .showNativeDialog else { return false }
        let answer = DialogPolicy.automatic().answer(dialog)
        engine.report(.dialog(dialog, answer: answer))
        responder.answer(answer)
        return true
    }
}
