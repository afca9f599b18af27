import HybridShellCore
import HybridShellWebKit

/// click, type, press, select, hover: real GDK input at the element's centre (what a user's mouse
/// and keyboard send, trusted by the page), after the agent script has scrolled the element into
/// view and checked that nothing covers it.
extension AgentSession {
    /// Where an element is, as the agent script found it.
    struct Spot {
        var x: Double
        var y: Double
        var rect: (x: Double, y: Double, width: Double, height: Double)
        var editable: Bool
        var disabled: Bool
        var element: String
    }

    func locate(_ target: ElementTarget, hit: Bool = true) async throws -> Spot {
        if case .ref(let ref) = target, let problem = refs.problem(with: ref) { throw problem }
        let answer = try await agentScript("locate", ["target": target.argument, "hit": .bool(hit)])
        if let problem = AgentScript.problem(in: answer) { throw problem }
        guard let x = answer["x"]?.doubleValue, let y = answer["y"]?.doubleValue, let rect = answer["rect"] else {
            throw AgentToolError("the page gave no position for \(target.label): \(answer.jsonText)")
        }
        return Spot(x: x, y: y, rect: (rect["x"]?.doubleValue ?? 0, rect["y"]?.doubleValue ?? 0, rect["width"]?.doubleValue ?? 0, rect["height"]?.doubleValue ?? 0),
                    editable: answer["editable"]?.boolValue ?? false, disabled: answer["disabled"]?.boolValue ?? false,
                    element: answer["element"]?.stringValue ?? target.label)
    }

    func click(_ target: ElementTarget) async throws -> AgentToolResult {
        let spot = try await locate(target)
        if spot.disabled { throw AgentToolError("\(target.label) (\(spot.element)) is disabled; do what enables it first") }
        try await input([.click(button: 1, x: spot.x, y: spot.y)], until: "click", count: 1)
        return .text("Clicked \(spot.element). Call snapshot to see the result.")
    }

    func type(into target: ElementTarget, _ text: String, submit: Bool) async throws -> AgentToolResult {
        let spot = try await locate(target)
        guard spot.editable else { throw AgentToolError("\(target.label) (\(spot.element)) is not a text field; type works on text inputs, textareas and contenteditable elements") }
        if spot.disabled { throw AgentToolError("\(target.label) (\(spot.element)) is disabled") }
        try await input([.click(button: 1, x: spot.x, y: spot.y)], until: "click", count: 1)
        // Select all, then type over it (or delete it): the field ends up holding exactly `text`.
        var keys: [SyntheticInput] = [.key("a", modifiers: .control), text.isEmpty ? .key("Delete") : .text(text)]
        if submit { keys.append(.key("Return")) }
        try await input(keys, until: "keyup", count: 1 + max(1, text.unicodeScalars.count) + (submit ? 1 : 0))
        return .text("Typed \(text.count) characters into \(spot.element)\(submit ? " and pressed Enter" : "").")
    }

    func press(_ chord: KeyChord) async throws -> AgentToolResult {
        _ = try currentPage()
        try await input([.key(chord.keyName, modifiers: chord.modifiers)], until: "keyup", count: 1)
        let focused = try? await agentScript("focused")
        return .text("Pressed \(chord.keyName) on \(focused?["element"]?.stringValue ?? "the page").")
    }

    func select(_ target: ElementTarget, _ values: [String]) async throws -> AgentToolResult {
        if case .ref(let ref) = target, let problem = refs.problem(with: ref) { throw problem }
        let answer = try await agentScript("select", ["target": target.argument, "values": .array(values.map { .string($0) })])
        if let problem = AgentScript.problem(in: answer) { throw problem }
        return .text("Selected \(answer["selected"]?.jsonText ?? "[]") in \(target.label).")
    }

    func hover(_ target: ElementTarget) async throws -> AgentToolResult {
        let spot = try await locate(target, hit: false)
        try await input([.motion(x: spot.x, y: spot.y)], until: "mousemove", count: 1)
        return .text("The pointer is over \(spot.element).")
    }

    /// Feeds `events` to the view, then waits until the page has seen `count` DOM events of type
    /// `until` (or a short while): WebKit queues input for its web process, and the next tool call
    /// must see its effect.
    private func input(_ events: [SyntheticInput], until type: String, count: Int) async throws {
        let page = try currentPage()
        _ = try await agentScript("arm", ["type": .string(type)])
        for event in events where !page.view.synthesize(event) {
            throw AgentToolError("the view has no window to receive input; the page cannot be driven")
        }
        _ = try? await agentScript("settle", ["type": .string(type), "count": .number(Double(count)), "ms": 2000], timeout: .seconds(5))
    }
}
