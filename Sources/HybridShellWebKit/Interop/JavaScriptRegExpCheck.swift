internal import CWebKitGTK
import HybridShellCore

/// Asks JavaScriptCore (the engine test pages run in) whether `new RegExp(source, flags)` is valid,
/// in a small `JSCContext` of its own (`jsc_context_new`): no web view, no web process, so it can
/// run before a test run starts. The pattern and flags are passed as typed arguments, never spliced
/// into source.
@EngineActor
enum JavaScriptRegExpCheck {
    /// One context for the process, made on first use and kept: each `jsc_context_new` is a
    /// JavaScriptCore VM of its own, and creating and destroying VMs next to WebKit's is churn
    /// nothing needs (a test run checking a dozen patterns made and destroyed a dozen VMs).
    private static var checker: (context: UnsafeMutablePointer<JSCContext>, function: UnsafeMutablePointer<JSCValue>)?

    /// Nil when JavaScriptCore accepts the expression, else its `SyntaxError` message.
    static func problem(source: String, flags: String) -> String? {
        guard let (context, function) = checker ?? makeChecker() else { return "JavaScriptCore is not available" }
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

    private static func makeChecker() -> (context: UnsafeMutablePointer<JSCContext>, function: UnsafeMutablePointer<JSCValue>)? {
        guard let context = jsc_context_new() else { return nil }
        let source = """
            (function (source, flags) {
              try { new RegExp(source, flags); return ''; } catch (error) { return String(error && error.message || error); }
            })
            """
        guard let function = jsc_context_evaluate(context, source, -1) else {
            g_object_unref(context)
            return nil
        }
        checker = (context, function)
        return checker
    }
}
