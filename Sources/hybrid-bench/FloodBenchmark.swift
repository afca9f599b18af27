import Foundation
import HybridShell

/// `hybrid-bench flood PAGE`: runs pages/bench/flood.html (`?mode=post|posts&n=N`) through a real
/// Bridge and reports, while the page floods the bridge, the longest stall of the main loop (how
/// late a 1-ms sleep on the engine actor woke up) and the longest console lag (how long after the
/// page's `Date.now()` its "tick" console line arrived). `max_busy_ms` is the most CPU time the
/// main-loop thread used within one heartbeat interval: on a loaded machine a stall also counts
/// the time the thread waited for a CPU, which no code of ours can shorten; this does not.
enum FloodBenchmark {
    @EngineActor
    static func run(_ arguments: [String]) async throws -> String {
        let url = try Benchmarks.location(arguments)
        var configuration = WebViewConfiguration()
        configuration.window = .visible()
        let view = try WebView(configuration: configuration, context: try WebContext(headless: false))
        defer { view.close() }
        var bridgeConfiguration = BridgeConfiguration(originPolicy: .opening(url))
        bridgeConfiguration.maxInFlight = 1_000_000  // measure the dispatch, not the cap
        // FLOOD_SLICE_US=N tries another dispatch slice without rebuilding (tuning issue 11).
        if let slice = ProcessInfo.processInfo.environment["FLOOD_SLICE_US"].flatMap(Int.init) {
            bridgeConfiguration.dispatchSlice = .microseconds(slice)
        }
        let bridge = Bridge(view: view, configuration: bridgeConfiguration)
        bridge.handlers.registerBuiltins(userAgent: view.userAgent, appName: "hybrid-bench", appVersion: HybridShellVersion.current)
        let result = Handoff<String>()
        bridge.handlers.registerRaw("bench.done", sync: { data, _ in
            let text = data.text
            Task { @EngineActor in result.fulfill(text) }
            return .null
        })
        let probe = Probe()
        view.observe { event in
            guard case .console(let message) = event, message.text.hasPrefix("tick "),
                  let sent = Double(message.text.dropFirst(5)) else { return }
            probe.consoleLag(Date().timeIntervalSince1970 * 1000 - sent)
        }
        let heartbeat = Task { @EngineActor in
            while !Task.isCancelled {
                let before = ContinuousClock.now
                let cpuBefore = threadCPUMilliseconds()
                try? await Task.sleep(for: .milliseconds(1))
                probe.stall(ContinuousClock.now - before - .milliseconds(1))
                probe.maxBusy = max(probe.maxBusy, threadCPUMilliseconds() - cpuBefore)
            }
        }
        view.load(url)
        let pageLine = try await result.value(timeout: .seconds(900), "the flood page's result")
        heartbeat.cancel()
        guard var results = try JSONValue(parsing: pageLine).objectValue, results["error"] == nil else {
            throw ShellError.invalidArgument("the flood page failed: \(pageLine)")
        }
        results["max_stall_ms"] = .number((probe.maxStall * 10).rounded() / 10)
        results["max_busy_ms"] = .number((probe.maxBusy * 10).rounded() / 10)
        results["max_console_lag_ms"] = .number((probe.maxConsoleLag * 10).rounded() / 10)
        return JSONValue.object(results).jsonText
    }

    @EngineActor
    final class Probe {
        var maxStall = 0.0
        var maxConsoleLag = 0.0
        var maxBusy = 0.0

        func stall(_ duration: Duration) {
            let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
            maxStall = max(maxStall, milliseconds)
        }

        func consoleLag(_ milliseconds: Double) {
            maxConsoleLag = max(maxConsoleLag, milliseconds)
        }
    }
}

/// CPU time the calling thread has used, in milliseconds (`CLOCK_THREAD_CPUTIME_ID`).
private func threadCPUMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
}
