internal import CWebKitGTK
import HybridShellCore

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
        // withCString hands over the string's own storage; passing `text` as a `char *` argument
        // would copy it first (megabytes, for a large echo).
        let value = text.withCString { jsc_value_new_string(UnsafeMutablePointer(context), $0) }
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
