import HybridShellCore

extension WebView {
    /// Evaluates `script` and returns its completion value as JSON
    /// (`webkit_web_view_evaluate_javascript`). A thrown exception becomes
    /// ``ShellError/javaScriptException(message:)``; cancelling the task cancels the evaluation.
    /// Promises are not awaited — use ``callAsyncJavaScript(_:arguments:in:)`` for that.
    public func evaluateJavaScript(_ script: String, in world: ScriptWorld = .page, sourceURL: String? = nil) async throws -> JSONValue {
        guard !isClosed else { throw ShellError.viewClosed }
        return try await native.evaluate(script, world: world.name, sourceURI: sourceURL)
    }

    /// Runs `body` as the body of an async function whose parameters are `arguments` (passed as
    /// typed values, never spliced into the source) and awaits the Promise it returns
    /// (`webkit_web_view_call_async_javascript_function`).
    ///
    ///     try await view.callAsyncJavaScript("return await fetch(url).then(r => r.status)",
    ///                                        arguments: ["url": "https://example.org/"])
    public func callAsyncJavaScript(_ body: String, arguments: [String: JSONValue] = [:], in world: ScriptWorld = .page) async throws -> JSONValue {
        guard !isClosed else { throw ShellError.viewClosed }
        for name in arguments.keys where !JavaScriptIdentifier.isValid(name) {
            throw ShellError.invalidArgument("argument name \(JSONValue.quoted(name)) is not a JavaScript identifier")
        }
        return try await native.callAsync(body, arguments: arguments, world: world.name, sourceURI: nil)
    }

    /// Evaluates and decodes the result (`JSONDecoder`).
    public func evaluateJavaScript<T: Decodable>(_ script: String, as type: T.Type, in world: ScriptWorld = .page) async throws -> T {
        try evaluateResult(try await evaluateJavaScript(script, in: world), as: type)
    }

    private func evaluateResult<T: Decodable>(_ value: JSONValue, as type: T.Type) throws -> T {
        try JSONValueDecoding.decode(type, from: value)
    }
}

enum JavaScriptIdentifier {
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first == "$" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0 == "$" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

extension WebView {
    /// Runs `body` as the body of an async function with string arguments in `world` and returns its
    /// string result (nil for anything else), without a JSON round trip: the path for payloads of
    /// megabytes (`webkit_web_view_call_async_javascript_function`).
    public func callFunctionReturningString(_ body: String, strings: [String: String], in world: ScriptWorld = .page) async throws -> String? {
        try await native.callAsyncReturningString(body, strings: strings, world: world.name)
    }
}

extension WebView: StringFunctionCalling {
    /// ``callFunctionReturningString(_:strings:in:)`` whose `completion` runs in WebKit's callback,
    /// on the loop thread, without a Swift job in between.
    package func callFunctionReturningString(_ body: String, strings: [String: String], in world: ScriptWorld,
                                     completion: @escaping @EngineActor (Result<String?, any Error>) -> Void) {
        guard !isClosed else { return completion(.failure(ShellError.viewClosed)) }
        native.callAsyncReturningString(body, strings: strings, world: world.name, completion: completion)
    }
}
