/// The agent script (bridge-js/src/agent.js): a fixed function body run with typed arguments
/// (`op`, `args`) in its own isolated world, so refs live where the page cannot touch them.
package enum AgentScript {
    package static let world = ScriptWorld.isolated("hybridshell-agent")
    package static var body: String { EngineScripts.agent }

    /// The arguments of one operation.
    package static func arguments(_ op: String, _ args: [String: JSONValue] = [:]) -> [String: JSONValue] {
        ["op": .string(op), "args": .object(args)]
    }

    /// An `{error, message}` answer as a tool error, nil for any other answer.
    package static func problem(in answer: JSONValue) -> AgentToolError? {
        guard answer["error"] != nil else { return nil }
        return AgentToolError(answer["message"]?.stringValue ?? "the page could not do it (\(answer.jsonText))")
    }
}
