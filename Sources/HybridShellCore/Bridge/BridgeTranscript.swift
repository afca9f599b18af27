import Foundation

/// A JSONL record of bridge traffic (`hybrid-run --bridge-log FILE`): one object per message with
/// its direction, session, kind, handler, size, latency and outcome.
@EngineActor
public final class BridgeTranscript {
    private let output: LineWriter
    private let started = ContinuousClock.now

    public init(path: String) throws(ShellError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .invalidArgument("cannot write the bridge log \(path): \(String(cString: strerror(errno)))")
        }
        output = LineWriter(descriptor: descriptor)
    }

    /// - Parameter caller: who sent it when it is not the session's document: `"unattributed"`
    ///   for a message no session can be proven to have sent (a prompt from some frame).
    func record(direction: String, session: String?, kind: String, handler: String?, id: Int?, size: Int,
                latency: Duration?, outcome: String, caller: String? = nil) {
        var entry: [String: JSONValue] = [
            "t": .number(((ContinuousClock.now - started).milliseconds * 10).rounded() / 10),
            "direction": .string(direction), "kind": .string(kind), "size": .number(Double(size)), "outcome": .string(outcome),
        ]
        if let session { entry["session"] = .string(session) }
        if let caller { entry["caller"] = .string(caller) }
        if let handler { entry["handler"] = .string(handler) }
        if let id { entry["id"] = .number(Double(id)) }
        if let latency { entry["latency_ms"] = .number((latency.milliseconds * 1000).rounded() / 1000) }
        output.write(JSONValue.object(entry).jsonText)
    }

    /// A page → native call's outcome (`ok` or the error's code), with its latency since `arrived`.
    func recordCall(kind: String, session: String, handler: String?, id: Int? = nil, size: Int,
                    arrived: ContinuousClock.Instant, _ result: Result<RawJSON, BridgeError>) {
        let outcome: String
        switch result {
        case .success: outcome = "ok"
        case .failure(let error): outcome = error.code.rawValue
        }
        record(direction: "in", session: session, kind: kind, handler: handler, id: id, size: size,
               latency: ContinuousClock.now - arrived, outcome: outcome)
    }
}
