import HybridShell

/// `hybrid-bench agent PAGE [N]`: what `hybrid-run mcp`'s tools cost inside the process, the
/// baseline of bench/mcp.py (which times the same calls over stdio): `evaluate` of `1+1` straight
/// through ``WebView/evaluateJavaScript(_:in:sourceURL:)`` and through an ``AgentSession``, and
/// `snapshot` of PAGE (time and outline size). Medians of N (default 200) calls, interleaved.
enum AgentBenchmark {
    @EngineActor
    static func run(_ arguments: [String]) async throws -> String {
        let url = try Benchmarks.location(arguments)
        let count = arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200
        let manager = try PageManager(configuration: ShellConfiguration())
        let session = AgentSession(manager: manager, describe: { _ in [:] })
        defer { Task { @EngineActor in await manager.closeAll() } }
        let opened = await session.perform(.open(url: url))
        guard !opened.isError else { throw ShellError.invalidArgument("cannot open \(url): \(opened.content)") }
        let view = manager.top!.view
        var direct: [Double] = [], agent: [Double] = [], snapshot: [Double] = []
        var outlineBytes = 0
        for index in 0..<count {
            var started = ContinuousClock.now
            _ = try await view.evaluateJavaScript("1+1")
            direct.append((ContinuousClock.now - started).milliseconds)
            started = ContinuousClock.now
            let result = await session.perform(.evaluate(script: "1+1", async: false))
            agent.append((ContinuousClock.now - started).milliseconds)
            guard result == .text("2") else { throw ShellError.invalidArgument("evaluate answered \(result)") }
            if index % 10 == 0 {
                started = ContinuousClock.now
                let outline = await session.perform(.snapshot)
                snapshot.append((ContinuousClock.now - started).milliseconds)
                if case .text(let text)? = outline.content.first { outlineBytes = text.utf8.count }
            }
        }
        let line: JSONValue = [
            "bench": "agent", "calls": .number(Double(count)),
            "evaluate_direct_ms": .number(PoolBenchmark.median(direct)), "evaluate_session_ms": .number(PoolBenchmark.median(agent)),
            "snapshot_ms": .number(PoolBenchmark.median(snapshot)), "snapshot_bytes": .number(Double(outlineBytes)),
        ]
        return line.jsonText
    }
}
