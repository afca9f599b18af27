@testable import HybridShellCore
import Testing

@Suite("Agent tool calls (pure)")
struct AgentToolCallTests {
    @Test func everyToolHasAnObjectSchemaAndAOneLineDescription() {
        #expect(AgentTool.allCases.map(\.name) == ["open", "back", "forward", "reload", "close_page", "snapshot", "click", "type", "press",
                                                   "select", "hover", "evaluate", "screenshot", "console", "events", "wait_for",
                                                   "bridge_call", "native_mock", "native_calls"])
        for tool in AgentTool.allCases {
            #expect(tool.inputSchema["type"] == "object", "\(tool)")
            #expect(tool.inputSchema["properties"]?.objectValue != nil, "\(tool)")
            #expect(!tool.description.contains("\n") && tool.description.count < 200, "\(tool)")
            for required in tool.inputSchema["required"]?.arrayValue ?? [] {
                #expect(tool.inputSchema["properties"]?[required.stringValue ?? ""] != nil, "\(tool) requires an unknown \(required)")
            }
        }
    }

    @Test func readsValidCalls() throws {
        #expect(try AgentToolCall(tool: "open", arguments: ["url": "app/index.html"]) == .open(url: "app/index.html"))
        #expect(try AgentToolCall(tool: "snapshot", arguments: nil) == .snapshot)
        #expect(try AgentToolCall(tool: "click", arguments: ["ref": "e3"]) == .click(.ref("e3")))
        #expect(try AgentToolCall(tool: "hover", arguments: ["selector": "#menu"]) == .hover(.selector("#menu")))
        #expect(try AgentToolCall(tool: "type", arguments: ["ref": "e2", "text": "Ann", "submit": true]) == .type(.ref("e2"), text: "Ann", submit: true))
        #expect(try AgentToolCall(tool: "type", arguments: ["selector": "input", "text": ""]) == .type(.selector("input"), text: "", submit: false))
        #expect(try AgentToolCall(tool: "press", arguments: ["key": "Control+a"]) == .press(KeyChord(keyName: "a", modifiers: .control)))
        #expect(try AgentToolCall(tool: "select", arguments: ["ref": "e4", "values": ["red", "Blue"]]) == .select(.ref("e4"), values: ["red", "Blue"]))
        #expect(try AgentToolCall(tool: "evaluate", arguments: ["script": "1+1"]) == .evaluate(script: "1+1", async: false))
        #expect(try AgentToolCall(tool: "screenshot", arguments: [:]) == .screenshot(nil))
        #expect(try AgentToolCall(tool: "console", arguments: ["since": 7]) == .console(since: 7))
        #expect(try AgentToolCall(tool: "native_calls", arguments: [:]) == .nativeCalls(since: 0))
        #expect(try AgentToolCall(tool: "wait_for", arguments: ["text": "Saved"]) == .waitFor(.text("Saved"), timeout: .seconds(5)))
        #expect(try AgentToolCall(tool: "wait_for", arguments: ["event": "loadFinished", "timeout_ms": 250])
                == .waitFor(.event("loadFinished"), timeout: .milliseconds(250)))
        #expect(try AgentToolCall(tool: "bridge_call", arguments: ["handler": "cart.total"]) == .bridgeCall(handler: "cart.total", data: .null))
        #expect(try AgentToolCall(tool: "native_mock", arguments: ["handler": "device.info", "result": ["model": "k7"]])
                == .nativeMock(handler: "device.info", answer: .result(["model": "k7"])))
        #expect(try AgentToolCall(tool: "native_mock", arguments: ["handler": "pay", "error": ["code": "HANDLER_ERROR", "message": "declined"]])
                == .nativeMock(handler: "pay", answer: .error(BridgeError(.handlerError, "declined"))))
    }

    @Test(arguments: [
        ("fly", nil, "unknown tool \"fly\"; the tools are open, back"),
        ("open", [:], "open: the argument url is missing"),
        ("open", ["url": 3], "open: url must be a string, not a number"),
        ("open", ["url": ""], "open: url must not be empty"),
        ("back", ["steps": 2], "back: unknown argument \"steps\"; it takes no arguments"),
        ("click", [:], "click: give a ref (from snapshot) or a CSS selector"),
        ("click", ["ref": "e1", "selector": "a"], "click: give either ref or selector, not both"),
        ("click", ["ref": "button"], "click: \"button\" is not a ref; refs look like e3"),
        ("click", ["ref": "e0"], "click: \"e0\" is not a ref"),
        ("type", ["ref": "e1"], "type: the argument text is missing"),
        ("type", ["ref": "e1", "text": "x", "submit": "yes"], "type: submit must be true or false, not a string"),
        ("select", ["ref": "e1", "values": []], "select: values must be a non-empty array of strings"),
        ("select", ["ref": "e1", "values": [1]], "select: values must hold strings only, not a number"),
        ("press", ["key": "Hyper+x"], "press: unknown modifier \"Hyper\""),
        ("press", ["key": "Launch"], "press: unknown key \"Launch\""),
        ("console", ["since": -1], "console: since must be a whole number from 0"),
        ("console", ["since": 1.5], "console: since must be a whole number from 0"),
        ("wait_for", [:], "wait_for: give exactly one of text, selector or event"),
        ("wait_for", ["text": "a", "selector": "b"], "wait_for: give exactly one of text, selector or event"),
        ("wait_for", ["event": "boom"], "wait_for: unknown event \"boom\""),
        ("wait_for", ["text": "a", "timeout_ms": 0], "wait_for: timeout_ms must be a whole number from 1 to 120000"),
        ("native_mock", ["handler": "x"], "native_mock: give exactly one of result or error"),
        ("native_mock", ["handler": "x", "result": 1, "error": ["code": "TIMEOUT", "message": "m"]], "native_mock: give exactly one of result or error"),
        ("native_mock", ["handler": "x", "error": ["code": "OOPS", "message": "m"]], "native_mock: unknown error code \"OOPS\""),
        ("native_mock", ["handler": "x", "error": "bad"], "native_mock: error must be an object"),
    ] as [(String, [String: JSONValue]?, String)])
    func refusesBadCallsNamingTheArgument(tool: String, arguments: [String: JSONValue]?, message: String) {
        #expect(throws: AgentToolError.self) { try AgentToolCall(tool: tool, arguments: arguments) }
        do {
            _ = try AgentToolCall(tool: tool, arguments: arguments)
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test(arguments: [
        ("Enter", "Return", KeyModifiers()), ("Tab", "Tab", []), ("Shift+Tab", "Tab", .shift), ("ArrowDown", "Down", []),
        ("PageUp", "Page_Up", []), ("Backspace", "BackSpace", []), ("Escape", "Escape", []), ("a", "a", []),
        ("Control+a", "a", .control), ("ctrl+shift+Z", "Z", [.control, .shift]), ("F5", "F5", []), ("f12", "F12", []),
        ("/", "slash", []), ("+", "plus", []), ("Control++", "plus", .control), ("Meta+k", "k", .superKey), ("Space", "space", []),
    ] as [(String, String, KeyModifiers)])
    func readsKeyChords(text: String, keyName: String, modifiers: KeyModifiers) throws {
        #expect(try KeyChord(parsing: text) == KeyChord(keyName: keyName, modifiers: modifiers))
    }

    @Test func targetsTravelAsTypedArguments() {
        #expect(ElementTarget.ref("e2").argument == ["ref": "e2"])
        #expect(ElementTarget.selector("a[href='x']").argument == ["selector": "a[href='x']"])
        #expect(ElementTarget.selector("#a").label == "selector \"#a\"")
        #expect(AgentScript.arguments("locate", ["hit": true]) == ["op": "locate", "args": ["hit": true]])
        #expect(AgentScript.problem(in: ["error": "none", "message": "no element matches"]) == AgentToolError("no element matches"))
        #expect(AgentScript.problem(in: ["x": 1]) == nil)
    }
}
