import HybridShell

/// `hybrid-bench bridge PAGE [NATIVE_CALLS]`: runs pages/bench/bridge.html through a real Bridge,
/// then times NATIVE_CALLS (default 10 000) serial native → page calls to `page.echo` from Swift.
enum BridgeBenchmark {
    @EngineActor
    static func run(_ arguments: [String]) async throws -> String {
        let url = try Benchmarks.location(arguments)
        let nativeCalls = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
        var configuration = WebViewConfiguration()
        configuration.window = .visible()  // like the C baselines
        configuration.capturesConsole = false
        let view = try WebView(configuration: configuration, context: try WebContext(headless: false))
        defer { view.close() }
        let bridge = Bridge(view: view, configuration: BridgeConfiguration(originPolicy: .opening(url)))
        bridge.handlers.registerBuiltins(userAgent: view.userAgent, appName: "hybrid-bench", appVersion: HybridShellVersion.current)
        let result = Handoff<String>()
        bridge.handlers.registerRaw("bench.done", sync: { data, _ in
            let text = data.text
            Task { @EngineActor in result.fulfill(text) }
            return .null
        })
        view.load(url)
        let pageLine = try await result.value(timeout: .seconds(900), "the benchmark page's result")
        guard var results = try JSONValue(parsing: pageLine).objectValue, results["error"] == nil else {
            throw ShellError.invalidArgument("the benchmark page failed: \(pageLine)")
        }
        if nativeCalls > 0 {
            results["nativeCall_us"] = .number(try await timeNativeCalls(bridge, count: nativeCalls))
        }
        return JSONValue.object(results).jsonText
    }

    /// Serial `bridge.callRaw("page.echo", …)` with the same ~30-byte value the page uses. The values
    /// are made (and validated) before the clock starts, as the C program's `snprintf` costs next to
    /// nothing; each reply must be its value, byte for byte (the C program does not look at its).
    @EngineActor
    static func timeNativeCalls(_ bridge: Bridge, count: Int) async throws -> Double {
        func value(_ i: Int) -> RawJSON { try! RawJSON(validating: #"{"id":\#(i),"m":"echo","a":[1]}"#) }
        for i in 0..<200 { _ = try await bridge.callRaw("page.echo", with: value(i)) }
        let values = (0..<count).map(value)
        let started = ContinuousClock.now
        for value in values {
            let reply = try await bridge.callRaw("page.echo", with: value)
            guard reply.text == value.text else { throw ShellError.invalidArgument("wrong reply \(reply.text) to \(value.text)") }
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let microseconds = seconds * 1_000_000 / Double(count)
        return (microseconds * 100).rounded() / 100
    }
}
