/// What a tool call answers: text and PNG images, and whether it is a tool error (MCP's
/// `isError`: the agent reads the message and tries something else; the session goes on).
public struct AgentToolResult: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case text(String)
        /// A PNG file's bytes.
        case png([UInt8])
    }

    public var content: [Content]
    public var isError: Bool

    public init(_ content: [Content], isError: Bool = false) {
        self.content = content
        self.isError = isError
    }

    public static func text(_ text: String) -> AgentToolResult { AgentToolResult([.text(text)]) }

    /// A JSON value as compact text (what `evaluate` and the logs answer).
    public static func json(_ value: JSONValue) -> AgentToolResult { AgentToolResult([.text(value.jsonText)]) }

    public static func error(_ error: AgentToolError) -> AgentToolResult { AgentToolResult([.text(error.message)], isError: true) }

    /// The same result with `note` (a crash that happened meanwhile) before its content.
    public func noting(_ note: String?) -> AgentToolResult {
        guard let note else { return self }
        return AgentToolResult([.text(note)] + content, isError: isError)
    }
}
