internal import CWebKitGTK

/// Holds one `WebKitScriptMessageReply` until ``ScriptMessageReply`` (the domain side) answers it;
/// one dropped unanswered rejects the page's Promise, so a page never waits forever.
@EngineActor
final class WebKitScriptReply {
    private var reply: OpaquePointer?
    private let context: OpaquePointer?

    init(_ reply: OpaquePointer, context: UnsafeMutablePointer<JSCContext>?) {
        self.reply = webkit_script_message_reply_ref(reply)
        self.context = context.map { OpaquePointer(g_object_ref($0)) }
    }

    var isAnswered: Bool { reply == nil }

    /// Resolves the page's Promise with a string.
    func succeed(_ text: String) {
        guard let reply, let context else { return }
        self.reply = nil
        let value = jsc_value_new_string(UnsafeMutablePointer(context), text)
        webkit_script_message_reply_return_value(reply, value)
        g_object_unref(value)
        webkit_script_message_reply_unref(reply)
    }

    /// Rejects the page's Promise with an `Error` carrying `message`.
    func fail(_ message: String) {
        guard let reply else { return }
        self.reply = nil
        webkit_script_message_reply_return_error_message(reply, message)
        webkit_script_message_reply_unref(reply)
    }

    isolated deinit {
        fail("HybridShell: the message was dropped without a reply")
        if let context { g_object_unref(UnsafeMutableRawPointer(context)) }
    }
}
