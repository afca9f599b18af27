/// Which element a tool acts on: a ref from the last ``AgentSnapshot``, or a CSS selector (its first
/// match).
public enum ElementTarget: Sendable, Equatable {
    case ref(String)
    case selector(String)

    /// The target as the agent script's typed argument (`{ref}` or `{selector}`).
    public var argument: JSONValue {
        switch self {
        case .ref(let ref): ["ref": .string(ref)]
        case .selector(let selector): ["selector": .string(selector)]
        }
    }

    /// How an error names it: `ref e3` or `selector "#save"`.
    public var label: String {
        switch self {
        case .ref(let ref): "ref \(ref)"
        case .selector(let selector): "selector \(JSONValue.quoted(selector))"
        }
    }
}
