internal import CWebKitGTK

/// Asks JavaScriptCore (the engine test pages run in) whether `new RegExp(source, flags)` is valid,
/// in a small `JSCContext` of its own (`jsc_context_new`): no web view, no web process, so it can
/// run before a test run starts. The pattern and flags are passed as typed arguments, never spliced
/// into source.
enum JavaScriptRegExpCheck {
    /// Nil when JavaScriptCore accepts the expression, else its `SyntaxError` message.
    static func problem(source: String, flags: String) -> String? {
        guard let context = jsc_context_new() else { return "JavaScriptCore is not available" }
        defer { g_object_unref(context) }
        let checker = """
            (function (source, flags) {
              try { new RegExp(source, flags); return ''; } catch (error) { return String(error && error.message || error); }
            })
            """
        guard let function = jsc_context_evaluate(context, checker, -1) else { return "JavaScriptCore is not available" }
        defer { g_object_unref(function) }
        var arguments: [UnsafeMutablePointer<JSCValue>?] = [jsc_value_new_string(context, source), jsc_value_new_string(context, flags)]
        defer { for argument in arguments { g_object_unref(argument) } }
        guard let result = arguments.withUnsafeMutableBufferPointer({ jsc_value_function_callv(function, 2, $0.baseAddress) }) else {
            return "JavaScriptCore could not check the expression"
        }
        defer { g_object_unref(result) }
        guard let text = jsc_value_to_string(result) else { return "JavaScriptCore could not check the expression" }
        defer { g_free(text) }
        let message = String(cString: text)
        return message.isEmpty ? nil : message
    }
}
