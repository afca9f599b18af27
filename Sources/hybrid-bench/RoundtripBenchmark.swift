import HybridShell

/// `hybrid-bench roundtrip PAGE`: pages/bench/roundtrip.html's handler contract ("bench" with reply,
/// "benchEval" answered by calling `benchResolve(value)`, "benchdone"), served through HybridShell's
/// WebView API exactly as bench/c/roundtrip.c serves it through the C API.
enum RoundtripBenchmark {
    @EngineActor
    static func run(_ arguments: [String]) async throws -> String {
        let url = try Benchmarks.location(arguments)
        var configuration = WebViewConfiguration()
        configuration.window = .visible()  // the C baseline shows a window too
        configuration.capturesConsole = false
        let view = try WebView(configuration: configuration, context: try WebContext(headless: false))
        defer { view.close() }
        let result = Handoff<String>()
        view.addScriptMessageReplyHandler("bench") { message, reply in reply.succeed(message.body) }
        view.addScriptMessageHandler("benchEval") { [weak view] message in
            guard let view else { return }
            Task { @EngineActor in
                _ = try? await view.callAsyncJavaScript("benchResolve(value);", arguments: ["value": .string(message.body)])
            }
        }
        view.addScriptMessageHandler("benchdone") { message in result.fulfill(message.body) }
        view.load(url)
        let line = try await result.value(timeout: .seconds(600), "the benchmark page's result")
        if let failure = (try? JSONValue(parsing: line))?["error"] {
            throw ShellError.invalidArgument("the benchmark page failed: \(failure.jsonText)")
        }
        return line
    }
}
