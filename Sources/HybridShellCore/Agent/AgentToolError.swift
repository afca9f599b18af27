/// A tool call that could not be carried out: returned to the agent as a tool error (`isError`),
/// never as a protocol error, so the session goes on. The message says what to do next.
public struct AgentToolError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
