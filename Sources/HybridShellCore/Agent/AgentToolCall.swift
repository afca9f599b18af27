/// One tool call, its arguments read and checked against ``AgentTool/inputSchema``: unknown or
/// mistyped arguments are refused with a message naming the argument, before anything touches the
/// page.
public enum AgentToolCall: Sendable, Equatable {
    case open(url: String)
    case back, forward, reload, closePage, snapshot
    case click(ElementTarget)
    case type(ElementTarget, text: String, submit: Bool)
    case press(KeyChord)
    case select(ElementTarget, values: [String])
    case hover(ElementTarget)
    case evaluate(script: String, async: Bool)
    case screenshot(ElementTarget?)
    case console(since: Int)
    case events(since: Int)
    case waitFor(AgentWaitCondition, timeout: Duration)
    case bridgeCall(handler: String, data: JSONValue)
    case nativeMock(handler: String, answer: MockHandlers.Behaviour)
    case nativeCalls(since: Int)

    /// The longest `wait_for` may take, and its default.
    public static let maximumWait = Duration.seconds(120)
    public static let defaultWait = Duration.seconds(5)

    /// Reads `arguments` (the call's `arguments` object; nil when absent) for the tool `name`.
    public init(tool name: String, arguments: [String: JSONValue]?) throws(AgentToolError) {
        guard let tool = AgentTool(rawValue: name) else {
            throw AgentToolError("unknown tool \(JSONValue.quoted(name)); the tools are \(AgentTool.allCases.map(\.name).joined(separator: ", "))")
        }
        let arguments = AgentArguments(tool: tool, values: arguments ?? [:])
        try arguments.refuseUnknown()
        switch tool {
        case .open: self = .open(url: try arguments.nonEmptyString("url"))
        case .back: self = .back
        case .forward: self = .forward
        case .reload: self = .reload
        case .closePage: self = .closePage
        case .snapshot: self = .snapshot
        case .click: self = .click(try arguments.target())
        case .hover: self = .hover(try arguments.target())
        case .type:
            self = .type(try arguments.target(), text: try arguments.string("text"), submit: try arguments.bool("submit") ?? false)
        case .press: self = .press(try KeyChord(parsing: try arguments.nonEmptyString("key")))
        case .select:
            let values = try arguments.strings("values")
            self = .select(try arguments.target(), values: values)
        case .evaluate: self = .evaluate(script: try arguments.nonEmptyString("script"), async: try arguments.bool("async") ?? false)
        case .screenshot: self = .screenshot(try arguments.optionalTarget())
        case .console: self = .console(since: try arguments.cursor())
        case .events: self = .events(since: try arguments.cursor())
        case .nativeCalls: self = .nativeCalls(since: try arguments.cursor())
        case .waitFor:
            let timeout = try arguments.integer("timeout_ms", in: 1...Int(Self.maximumWait.milliseconds)).map { Duration.milliseconds($0) } ?? Self.defaultWait
            self = .waitFor(try AgentWaitCondition(arguments), timeout: timeout)
        case .bridgeCall: self = .bridgeCall(handler: try arguments.nonEmptyString("handler"), data: arguments.values["data"] ?? .null)
        case .nativeMock: self = .nativeMock(handler: try arguments.nonEmptyString("handler"), answer: try arguments.mockAnswer())
        }
    }
}

extension AgentToolCall {
    /// Whether the call reads or drives the current document (and so should wait for a load in
    /// progress to end first).
    public var readsPage: Bool {
        switch self {
        case .snapshot, .click, .type, .press, .select, .hover, .evaluate, .screenshot, .bridgeCall: true
        case .open, .back, .forward, .reload, .closePage, .console, .events, .waitFor, .nativeMock, .nativeCalls: false
        }
    }
}

/// What `wait_for` waits for.
public enum AgentWaitCondition: Sendable, Equatable {
    case text(String)
    case selector(String)
    case event(String)

    /// The event names `wait_for` accepts.
    public static let eventNames = ["loadFinished", "loadFailed", "loadCommitted", "closeRequested", "webProcessTerminated", "console", "nativeCall", "dialog"]

    init(_ arguments: AgentArguments) throws(AgentToolError) {
        var given: [AgentWaitCondition] = []
        if arguments.values["text"] != nil { given.append(.text(try arguments.nonEmptyString("text"))) }
        if arguments.values["selector"] != nil { given.append(.selector(try arguments.nonEmptyString("selector"))) }
        if arguments.values["event"] != nil {
            let name = try arguments.nonEmptyString("event")
            guard Self.eventNames.contains(name) else {
                throw AgentToolError("wait_for: unknown event \(JSONValue.quoted(name)); use one of \(Self.eventNames.joined(separator: ", "))")
            }
            given.append(.event(name))
        }
        guard given.count == 1 else { throw AgentToolError("wait_for: give exactly one of text, selector or event") }
        self = given[0]
    }
}
