/// Which refs an agent may use: those of the last snapshot (`e1`…`eN`), until the next snapshot or
/// until the page navigates. A stale or unknown ref is refused here with what to do next, before
/// the page is asked; the page's own map (agent script, isolated world) then finds the element.
public struct AgentRefs: Sendable, Equatable {
    public private(set) var generation = 0
    public private(set) var count = 0
    /// Why the last snapshot's refs no longer hold (a navigation), nil while they do.
    public private(set) var expiry: String?

    public init() {}

    /// A snapshot of `count` elements was taken: refs e1…e`count` are valid.
    public mutating func snapshotTaken(count: Int) {
        generation += 1
        self.count = count
        expiry = nil
    }

    /// The page navigated or was replaced: every ref is void.
    public mutating func expire(_ reason: String) {
        guard generation > 0 else { return }
        if expiry == nil { expiry = reason }
    }

    public static func isWellFormed(_ ref: String) -> Bool { number(ref) != nil }

    static func number(_ ref: String) -> Int? {
        guard ref.first == "e", let number = Int(ref.dropFirst()), number > 0, "e\(number)" == ref else { return nil }
        return number
    }

    /// Nil when `ref` may be used, else the error to answer.
    public func problem(with ref: String) -> AgentToolError? {
        guard generation > 0 else { return AgentToolError("no snapshot has been taken on this page; call snapshot, then use one of its refs") }
        if let expiry { return AgentToolError("ref \(ref) is stale: \(expiry) since the last snapshot; call snapshot again and use its refs") }
        guard let number = Self.number(ref), number <= count else {
            let range = count == 0 ? "it had no elements" : count == 1 ? "it has e1 only" : "it has e1 to e\(count)"
            return AgentToolError("unknown ref \(ref): the last snapshot does not have it (\(range)); call snapshot again or use a selector")
        }
        return nil
    }
}
