/// The tools `hybrid-run mcp` offers an agent (docs/mcp.md): each with a one-line description an
/// agent can act on and a JSON schema of its arguments. The table is the protocol's `tools/list`;
/// ``AgentToolCall`` reads a call's arguments against it.
public enum AgentTool: String, CaseIterable, Sendable {
    case open, back, forward, reload
    case closePage = "close_page"
    case snapshot, click, type, press, select, hover, evaluate, screenshot, console, events
    case waitFor = "wait_for"
    case bridgeCall = "bridge_call"
    case nativeMock = "native_mock"
    case nativeCalls = "native_calls"

    public var name: String { rawValue }

    public var description: String {
        switch self {
        case .open: "Open a URL (or a local path) in the shell's page, with its bridge and native modules; waits for the load."
        case .back: "Go back one entry in the page's history; waits for the load."
        case .forward: "Go forward one entry in the page's history; waits for the load."
        case .reload: "Reload the page; waits for the load. Refs of the last snapshot become invalid."
        case .closePage: "Close the top page of the stack (the page below it, if any, becomes the current one)."
        case .snapshot: "Outline of the page's visible interactive elements (role, name, value, state), each with a ref for click/type/select/hover; refs last until the next snapshot or navigation."
        case .click: "Click an element (by ref from snapshot, or a CSS selector) with a real mouse click at its centre."
        case .type: "Focus an element (ref or selector), replace its text by typing real key presses, and press Enter if submit is true."
        case .press: "Press a key or chord on the focused element, e.g. Enter, Tab, Escape, ArrowDown, Control+a."
        case .select: "Choose options of a <select> (ref or selector) by value or visible label; fires input and change."
        case .hover: "Move the mouse pointer over an element (ref or selector)."
        case .evaluate: "Evaluate a JavaScript expression in the page and return its value as JSON (await a Promise with async: true); exceptions are tool errors."
        case .screenshot: "PNG screenshot of the visible page, or of one element (ref or selector)."
        case .console: "Console messages of the page since a cursor (give the next_cursor of the previous answer to get only new ones)."
        case .events: "Page events (loads, lifecycle, crashes, dialogs, bridge calls with outcome) since a cursor."
        case .waitFor: "Wait until a text appears on the page, a CSS selector matches a visible element, or an event (e.g. loadFinished) happens; fails after timeout_ms."
        case .bridgeCall: "Call a page handler (registered with hybrid.register) as native code would, with JSON data; returns its reply."
        case .nativeMock: "Answer a native handler the page calls with a fixed result or error for the rest of the session (replaces a module's handler)."
        case .nativeCalls: "Native handler calls the page made since a cursor, with their arguments and outcomes."
        }
    }

    /// The JSON schema of the arguments (`inputSchema` of `tools/list`).
    public var inputSchema: JSONValue {
        switch self {
        case .open: Self.object(["url": Self.string("A URL (http, https, file, app, a --dir-handler scheme…) or a local path.")], required: ["url"])
        case .back, .forward, .reload, .closePage, .snapshot: Self.object([:])
        case .click, .hover: Self.object(Self.target)
        case .type:
            Self.object(Self.target.merging([
                "text": Self.string("The text to type (replaces what the field holds)."),
                "submit": ["type": "boolean", "description": "Press Enter after typing."],
            ]) { $1 }, required: ["text"])
        case .press: Self.object(["key": Self.string("A key name (Enter, Tab, Escape, Backspace, ArrowUp, PageDown, F5, a, …), optionally with modifiers: Control+a, Shift+Tab.")], required: ["key"])
        case .select:
            Self.object(Self.target.merging([
                "values": ["type": "array", "items": ["type": "string"], "description": "Option values or visible labels to select (one for a single select)."],
            ]) { $1 }, required: ["values"])
        case .evaluate:
            Self.object([
                "script": Self.string("A JavaScript expression (or statements; the last value is returned). Its value must be JSON-serializable."),
                "async": ["type": "boolean", "description": "Run script as the body of an async function and await what it returns (use return)."],
            ], required: ["script"])
        case .screenshot: Self.object(Self.target)
        case .console, .events, .nativeCalls:
            Self.object(["since": ["type": "integer", "minimum": 0, "description": "The next_cursor of an earlier answer; 0 or absent for everything kept."]])
        case .waitFor:
            Self.object([
                "text": Self.string("Text to appear in the page."),
                "selector": Self.string("A CSS selector to match a visible element."),
                "event": Self.string("A page event name to happen from now on: loadFinished, loadFailed, closeRequested, webProcessTerminated, console, nativeCall."),
                "timeout_ms": ["type": "integer", "minimum": 1, "maximum": 120_000, "description": "How long to wait (default 5000)."],
            ])
        case .bridgeCall:
            Self.object([
                "handler": Self.string("The page handler's name."),
                "data": ["description": "Any JSON value passed to the handler (default null)."],
            ], required: ["handler"])
        case .nativeMock:
            Self.object([
                "handler": Self.string("The native handler's name (e.g. storage.get, or * for WebViewJavascriptBridge's default)."),
                "result": ["description": "The JSON result every call gets."],
                "error": ["type": "object", "description": "Or an error every call gets: {code, message}; code is a bridge error code such as HANDLER_ERROR.",
                          "properties": ["code": ["type": "string"], "message": ["type": "string"]], "required": ["code", "message"]],
            ], required: ["handler"])
        }
    }

    private static let target: [String: JSONValue] = [
        "ref": string("A ref from the last snapshot, e.g. e3."),
        "selector": string("A CSS selector (the first match is used) when there is no ref."),
    ]

    private static func string(_ description: String) -> JSONValue { ["type": "string", "description": .string(description)] }

    private static func object(_ properties: [String: JSONValue], required: [String] = []) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
        return .object(schema)
    }
}
