import HybridShell

/// A view with a bridge and the native handlers the pages in pages/fixtures/bridge rely on
/// (see that folder's README). `report` receives what a page sends to `fixture.done`.
@EngineActor
final class BridgeFixture {
    let view: WebView
    let bridge: Bridge
    let report = Handoff<JSONValue>()

    init(policy: OriginPolicy = OriginPolicy(patterns: [try! OriginPattern(parsing: "file://")]),
         injection: BridgeConfiguration.Injection = .documentStart, timeout: Duration = .seconds(30),
         configure: (inout BridgeConfiguration) -> Void = { _ in }) throws {
        view = try makeView()
        var configuration = BridgeConfiguration(originPolicy: policy)
        configuration.injection = injection
        configuration.defaultTimeout = timeout
        configure(&configuration)
        bridge = Bridge(view: view, configuration: configuration)
        let handlers = bridge.handlers
        handlers.registerBuiltins(userAgent: view.userAgent, appName: "tests", appVersion: "1")
        handlers.registerRaw(BridgeHandlers.defaultHandlerName, sync: { data, _ in data })
        handlers.register("fixture.add") { (input: [String: Double]) -> Double in (input["a"] ?? 0) + (input["b"] ?? 0) }
        handlers.registerRaw("fixture.fail", sync: { _, _ in throw BridgeError(.handlerError, "fixture failure") })
        handlers.register("fixture.slow") { (_: JSONValue, call: BridgeCall) async throws -> String in
            try call.progress(["step": 1])
            try await Task.sleep(for: .milliseconds(5))
            try call.progress(["step": 2])
            return "done"
        }
        let bridge = self.bridge
        handlers.registerRaw("fixture.callPage") { data, _ in
            let request = try data.members()
            guard let name = request["name"]?.value.stringValue else { throw BridgeError(.invalidMessage, "fixture.callPage needs a name") }
            return try await bridge.callRaw(name, with: request["data"] ?? .null, arguments: request["args"]?.value == .bool(true))
        }
        let report = self.report
        handlers.registerRaw("fixture.done", sync: { data, _ in
            let value = data.value
            Task { @EngineActor in report.fulfill(value) }
            return .null
        })
    }

    /// Loads a fixture page and returns its report.
    func run(_ page: String, timeout: Duration = .seconds(60)) async throws -> JSONValue {
        view.load(Fixtures.pageURL("bridge/\(page)"))
        return try await report.value(timeout: timeout, "the report of \(page)")
    }

    func close() { view.close() }
}

/// The names of a report's checks that did not pass.
func failedChecks(_ report: JSONValue) -> [String] {
    guard let checks = report["checks"]?.objectValue else { return ["(no checks: \(report.jsonText))"] }
    return checks.filter { $0.value != .bool(true) }.map { "\($0.key)=\($0.value.jsonText)" }.sorted()
}
