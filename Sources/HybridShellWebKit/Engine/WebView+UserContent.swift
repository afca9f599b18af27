import HybridShellCore

extension WebView {
    /// Adds a script to every matching document loaded from now on (`webkit_user_content_manager_add_script`).
    public func addUserScript(_ script: UserScript) {
        native.addUserScript(script)
    }

    /// Removes every user script, including HybridShell's own (console capture, bridge).
    public func removeAllUserScripts() {
        native.removeAllUserScripts()
    }

    /// Receives `window.webkit.messageHandlers.<name>.postMessage(value)` from pages
    /// (`script-message-received`). In ``ScriptWorld/page`` every frame of every origin can post;
    /// a handler in an isolated world is reachable only from scripts injected into that world.
    public func addScriptMessageHandler(_ name: String, in world: ScriptWorld = .page, _ handler: @escaping (ScriptMessage) -> Void) {
        native.addMessageHandler(name: name, world: world.name, handler)
    }

    /// Like ``addScriptMessageHandler(_:in:_:)`` but `postMessage` returns a Promise that the
    /// handler settles through the reply, now or later (`script-message-with-reply-received`).
    public func addScriptMessageReplyHandler(_ name: String, in world: ScriptWorld = .page,
                                             _ handler: @escaping (ScriptMessage, ScriptMessageReply) -> Void) {
        native.addReplyHandler(name: name, world: world.name, handler)
    }

    func installConsoleCapture() {
        // The handler lives in the relay's isolated world: page script reaches it only through
        // the relay, which adds the frame's own URL (bridge-js/src/console-relay.js).
        addScriptMessageHandler(ConsoleCapture.handlerName, in: .isolated(ConsoleCapture.world)) { [weak self] message in
            guard let self, let console = ConsoleCapture.decode(message.body) else { return }
            self.emit(.console(console))
        }
        // The relay first, so its error listener sees an exception before the page's own do.
        addUserScript(UserScript(source: ConsoleCapture.relayScript, injectionTime: .documentStart, frames: .allFrames,
                                 world: .isolated(ConsoleCapture.world)))
        addUserScript(UserScript(source: ConsoleCapture.script, injectionTime: .documentStart, frames: .allFrames))
    }
}
