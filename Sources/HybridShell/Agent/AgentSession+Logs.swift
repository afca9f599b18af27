import HybridShellCore
import HybridShellWebKit

/// console, events, native_calls (read with cursors) and wait_for.
extension AgentSession {
    func consoleLines(since cursor: Int) -> AgentToolResult {
        let page = console.since(cursor)
        let messages: [JSONValue] = page.entries.map { sequence, message in
            var object: [String: JSONValue] = ["n": .number(Double(sequence)), "level": .string(message.level.rawValue), "text": .string(message.text)]
            if !message.url.isEmpty { object["at"] = .string("\(message.url):\(message.line):\(message.column)") }
            return .object(object)
        }
        return .json(Self.listing("messages", messages, page.nextCursor, page.missed))
    }

    func eventList(since cursor: Int) -> AgentToolResult {
        let page = events.since(cursor)
        return .json(Self.listing("events", page.entries.map(\.entry), page.nextCursor, page.missed))
    }

    func callList(since cursor: Int) -> AgentToolResult {
        let page = calls.since(cursor)
        let items: [JSONValue] = page.entries.map { sequence, call in
            var object = call.jsonObject
            object["n"] = .number(Double(sequence))
            return .object(object)
        }
        return .json(Self.listing("calls", items, page.nextCursor, page.missed))
    }

    static func listing(_ key: String, _ items: [JSONValue], _ next: Int, _ missed: Int) -> JSONValue {
        var object: [String: JSONValue] = [key: .array(items), "next_cursor": .number(Double(next))]
        if missed > 0 { object["missed"] = .number(Double(missed)) }
        return .object(object)
    }

    func waitFor(_ condition: AgentWaitCondition, timeout: Duration) async throws -> AgentToolResult {
        let deadline = ContinuousClock.now + timeout
        switch condition {
        case .event(let name):
            let handoff = Handoff<JSONValue>()
            eventWaiters.append((name, handoff))
            do {
                let entry = try await handoff.value(timeout: timeout, "\(name) event")
                return .text("Saw \(entry.jsonText)")
            } catch {
                eventWaiters.removeAll { $0.handoff === handoff }
                throw AgentToolError("no \(name) event within \(timeout.millisecondsText); call events to see what happened")
            }
        case .text(let text), .selector(let text):
            let isText = if case .text = condition { true } else { false }
            let what = isText ? "the text \(JSONValue.quoted(text))" : "a visible element matching \(JSONValue.quoted(text))"
            let argument: JSONValue = isText ? ["text": .string(text)] : ["selector": .string(text)]
            // A navigation drops the document the wait runs in: wait again in the new one.
            while true {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { break }
                let answer: JSONValue
                do {
                    answer = try await agentScript("wait", ["condition": argument, "ms": .number(max(1, left.milliseconds.rounded()))],
                                                   timeout: left + .seconds(2))
                } catch let error as AgentToolError {
                    throw error
                } catch ShellError.timedOut {
                    break
                } catch {
                    guard ContinuousClock.now < deadline else { break }
                    _ = try? await PageEventExpectation.loadFinished(try currentPage().view).value(timeout: .milliseconds(min(500, max(1, left.milliseconds))))
                    continue
                }
                if let problem = AgentScript.problem(in: answer) { throw problem }
                if answer["met"] == true { return .text("Found \(what).") }
                break
            }
            throw AgentToolError("\(what) did not appear within \(timeout.millisecondsText); call snapshot to see what the page shows")
        }
    }
}
