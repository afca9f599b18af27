internal import CWebKitGTK
import HybridShellCore

extension WebKitView {
    /// The base URL of the shell's own blank documents (``WebView/loadInternalBlank(html:)``).
    static let internalBlankURL = "hybridshell-blank://blank/"

    /// Adds a user script. None runs in the shell's own blank documents: the bridge and the test
    /// adapter there would only cost a blank its time (measured: a few ms a document).
    func addUserScript(_ script: UserScript) {
        let frames = script.frames == .allFrames ? WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES : WEBKIT_USER_CONTENT_INJECT_TOP_FRAME
        let time = script.injectionTime == .documentStart
            ? WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START : WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END
        let userScript = withCStringArray(script.allowList) { allow in
            withCStringArray(script.blockList + ["hybridshell-blank://*/*"]) { block in
                if let world = script.world.name {
                    return webkit_user_script_new_for_world(script.source, frames, time, world, allow, block)
                }
                return webkit_user_script_new(script.source, frames, time, allow, block)
            }
        }
        webkit_user_content_manager_add_script(contentManager, userScript)
        webkit_user_script_unref(userScript)
    }

    func removeAllUserScripts() {
        webkit_user_content_manager_remove_all_scripts(contentManager)
    }

    /// `script-message-received::<name>`: the page posts, nobody answers.
    func addMessageHandler(name: String, world: String?, _ body: @escaping (ScriptMessage) -> Void) {
        let registered = world.map { webkit_user_content_manager_register_script_message_handler_in_world(contentManager, name, $0) }
            ?? webkit_user_content_manager_register_script_message_handler(contentManager, name)
        precondition(registered != 0, "HybridShell: a script message handler named \(name) already exists")
        messageHandlers.append((name, world))
        connections.append(connectSignal(contentManager, "script-message-received::\(name)", signalCallback(pointerSignalTrampoline),
                                         { (result: gpointer?) in
                                             guard let result else { return }
                                             let value = webkit_javascript_result_get_js_value(OpaquePointer(result))!
                                             let (text, isString) = JSCValueConversion.text(value)
                                             body(ScriptMessage(body: text, isString: isString))
                                         } as PointerSignal))
    }

    /// `script-message-with-reply-received::<name>`: `postMessage` returns a Promise that the
    /// ``ScriptMessageReply`` settles, now or later.
    func addReplyHandler(name: String, world: String?, _ body: @escaping (ScriptMessage, ScriptMessageReply) -> Void) {
        let registered = webkit_user_content_manager_register_script_message_handler_with_reply(contentManager, name, world)
        precondition(registered != 0, "HybridShell: a script message handler named \(name) already exists")
        messageHandlers.append((name, world))
        connections.append(connectSignal(contentManager, "script-message-with-reply-received::\(name)",
                                         signalCallback(twoPointerPredicateSignalTrampoline),
                                         { (valuePointer: gpointer?, replyPointer: gpointer?) -> Bool in
                                             guard let valuePointer, let replyPointer else { return false }
                                             let value = valuePointer.assumingMemoryBound(to: JSCValue.self)
                                             let (text, isString) = JSCValueConversion.text(value)
                                             let held = WebKitScriptReply(OpaquePointer(replyPointer), context: jsc_value_get_context(value))
                                             let reply = ScriptMessageReply { answer in
                                                 switch answer {
                                                 case .value(let text): held.succeed(text)
                                                 case .error(let message): held.fail(message)
                                                 }
                                             }
                                             body(ScriptMessage(body: text, isString: isString), reply)
                                             return true
                                         } as TwoPointerPredicateSignal))
    }
}

/// Calls `body` with a NULL-terminated `const char * const *` (NULL for an empty array).
private func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<gchar>?>?) -> R) -> R {
    guard !strings.isEmpty else { return body(nil) }
    let copies = strings.map { UnsafePointer(strdup($0)) }
    defer { copies.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
    let array = copies + [nil]
    return array.withUnsafeBufferPointer { body($0.baseAddress) }
}
