import HybridShellCore
import HybridShellWebKit

/// `--grep` patterns: a JavaScript regular expression, written bare (`cart|checkout`) or as a
/// literal with flags (`/cart/i`, `/items/v`). Checked with JavaScriptCore's own `RegExp` — the
/// engine that matches it in the page (bridge-js/src/testing/options.js) — so what is valid there
/// is valid here, and a typo or an unknown flag fails before any page loads (a usage error).
public enum TestNameFilter {
    public static func parse(_ text: String, flag: String) throws(ShellError) -> (source: String, flags: String) {
        guard !text.isEmpty else { throw .invalidArgument("\(flag) needs a pattern") }
        var source = text
        var flags = ""
        // `/…/letters` is a literal; its letters are flags for JavaScriptCore to accept or refuse.
        if text.count >= 2, text.hasPrefix("/"), let close = text.lastIndex(of: "/"), close != text.startIndex {
            let candidate = String(text[text.index(after: close)...])
            if candidate.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) }) {
                source = String(text[text.index(after: text.startIndex)..<close])
                flags = candidate
            }
        }
        guard !source.isEmpty else { throw .invalidArgument("\(flag) needs a pattern between the slashes") }
        return (source, flags)
    }

    /// ``parse(_:flag:)``, then JavaScriptCore's verdict (``validate(_:flag:)``).
    @EngineActor
    public static func parseAndValidate(_ text: String, flag: String) throws(ShellError) -> (source: String, flags: String) {
        let parsed = try parse(text, flag: flag)
        try validate(parsed, flag: flag)
        return parsed
    }

    /// Asks JavaScriptCore whether `new RegExp(source, flags)` is valid. Needs the engine: call it
    /// on the engine's thread once WebKit is set up (``TestCommand`` does, before any page loads);
    /// a JavaScriptCore context made before that can leave the process hanging.
    @EngineActor
    public static func validate(_ pattern: (source: String, flags: String), flag: String) throws(ShellError) {
        guard let problem = JavaScriptRegExp.problem(source: pattern.source, flags: pattern.flags) else { return }
        let text = pattern.flags.isEmpty && !pattern.source.hasPrefix("/") ? pattern.source : "/\(pattern.source)/\(pattern.flags)"
        let what = pattern.flags.isEmpty ? "" : " (pattern \(JSONValue.quoted(pattern.source)), flags \(JSONValue.quoted(pattern.flags)))"
        throw .invalidArgument("\(flag) \(JSONValue.quoted(text)) is not a valid JavaScript regular expression\(what): \(problem)")
    }
}
