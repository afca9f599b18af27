import HybridShellCore

/// JavaScript regular expressions as JavaScriptCore compiles them (the engine pages run in), for
/// patterns given outside a page (`--grep`).
public enum JavaScriptRegExp {
    /// Why `new RegExp(source, flags)` throws, or nil when it compiles.
    @EngineActor
    public static func problem(source: String, flags: String) -> String? {
        JavaScriptRegExpCheck.problem(source: source, flags: flags)
    }
}
