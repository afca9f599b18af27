/// What the page-side test adapter is told (bridge-js/src/testing): which framework to hook, the
/// filter, list mode, the per-test timeout and whether unload handlers run after the run. Crosses into the page as a JSON literal made by
/// ``JSONValue/jsonText``, never spliced.
public struct TestAdapterOptions: Sendable, Equatable {
    public enum Framework: String, Sendable, Equatable, CaseIterable {
        case auto, qunit, mocha, jasmine, hybrid
    }

    public var framework: Framework = .auto
    /// A JavaScript regular expression matched against each test's full name.
    public var grep: (source: String, flags: String)?
    /// Run the tests `grep` does not match.
    public var grepInvert = false
    public var list = false
    public var testTimeout: Duration?
    /// After the run ends, the page's own pagehide/unload/beforeunload/visibilitychange handlers
    /// do not run (set for isolated runs: what they write could reach the next page).
    public var silenceUnloadAfterRun = false

    public static let handlerName = "hybridshell.test"

    public init() {}

    public static func == (a: TestAdapterOptions, b: TestAdapterOptions) -> Bool {
        a.framework == b.framework && a.grep?.source == b.grep?.source && a.grep?.flags == b.grep?.flags
            && a.grepInvert == b.grepInvert && a.list == b.list && a.testTimeout == b.testTimeout
            && a.silenceUnloadAfterRun == b.silenceUnloadAfterRun
    }

    var json: JSONValue {
        [
            "framework": .string(framework.rawValue),
            "grep": grep.map { JSONValue.object(["source": .string($0.source), "flags": .string($0.flags)]) } ?? .null,
            "grepInvert": .bool(grepInvert),
            "list": .bool(list),
            "testTimeout": testTimeout.map { JSONValue.number($0.milliseconds.rounded()) } ?? .null,
            "handler": .string(TestAdapterOptions.handlerName),
            "silenceUnloadAfterRun": .bool(silenceUnloadAfterRun),
        ]
    }

    /// The user script: the adapter's function expression applied to these options.
    package var script: String {
        "(" + BridgeScripts.testAdapter + ")(" + json.jsonText + ");\n"
    }
}
