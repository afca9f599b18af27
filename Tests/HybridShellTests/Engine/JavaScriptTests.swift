import HybridShell
import Testing

@Suite("JavaScript evaluation in a real WebKit view")
@EngineActor
struct JavaScriptTests {
    @Test func evaluatesExpressionsAsJSON() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<title>Hello</title><p>x</p>")
        #expect(try await view.evaluateJavaScript("1 + 2") == .number(3))
        #expect(try await view.evaluateJavaScript("document.title") == .string("Hello"))
        #expect(try await view.evaluateJavaScript("({a: [1, 'b', null, true]})") == ["a": [1, "b", nil, true]])
        #expect(try await view.evaluateJavaScript("undefined") == .null)
    }
}

@Suite("JavaScript errors, Promises, typed arguments and cancellation")
@EngineActor
struct JavaScriptAsyncTests {
    @Test func thrownErrorBecomesSwiftErrorWithTheJavaScriptMessage() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<p>x</p>")
        do {
            _ = try await view.evaluateJavaScript("throw new TypeError('the widget is missing')")
            Issue.record("expected an exception")
        } catch let error as ShellError {
            guard case .javaScriptException(let message) = error else { Issue.record("got \(error)"); return }
            #expect(message.contains("TypeError"))
            #expect(message.contains("the widget is missing"))
        }
        await #expect(throws: ShellError.self) { _ = try await view.evaluateJavaScript("this is not javascript") }
    }

    @Test func functionResultIsAnErrorNotNull() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<p>x</p>")
        await #expect(throws: ShellError.self) { _ = try await view.evaluateJavaScript("(function () {})") }
    }

    @Test func callAsyncAwaitsPromisesWithTypedArguments() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<p>x</p>")
        let result = try await view.callAsyncJavaScript(
            "return await new Promise(resolve => setTimeout(() => resolve({sum: a + b.length, list, flag, nothing}), 5))",
            arguments: ["a": 1, "b": "xyz", "list": [1, "two", ["three"]], "flag": true, "nothing": nil])
        #expect(result == ["sum": 4, "list": [1, "two", ["three"]], "flag": true, "nothing": nil])
    }

    @Test func nastyStringsSurviveTypedArgumentsByteExact() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<p>x</p>")
        let nasty = "quote \" apostrophe ' backslash \\ </script> \u{2028} \u{2029} NUL \u{0} emoji 🦊👩‍👩‍👧 tab\t"
        let echoed = try await view.callAsyncJavaScript("return s", arguments: ["s": .string(nasty)])
        #expect(echoed == .string(nasty))
        let length = try await view.callAsyncJavaScript("return s.length", arguments: ["s": .string(nasty)])
        #expect(length == .number(Double(nasty.utf16.count)))
    }

    /// The bridge's delivery path: string arguments go into the GVariant without the `char *`
    /// conversion's copy, and come back as the function's string result.
    @Test func stringArgumentsAndResultsSurviveByteExactInEitherWorld() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<p>x</p>")
        let nasty = "quote \" apostrophe ' backslash \\ </script> \u{2028} \u{2029} emoji 🦊👩‍👩‍👧 tab\t é"
        let large = String(repeating: "ab\u{2028}🦊\"", count: 300_000)  // ~3.3 MB of UTF-8
        for world in [ScriptWorld.page, .isolated("hybridshell-test")] {
            #expect(try await view.callFunctionReturningString("return a + '|' + b", strings: ["a": nasty, "b": "x"], in: world)
                    == nasty + "|x")
            #expect(try await view.callFunctionReturningString("return large", strings: ["large": large], in: world) == large)
            #expect(try await view.callFunctionReturningString("return String(short.length)", strings: ["short": ""], in: world) == "0")
        }
    }

    @Test func rejectedPromiseBecomesAnError() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<p>x</p>")
        await #expect(throws: ShellError.self) {
            _ = try await view.callAsyncJavaScript("return Promise.reject(new Error('nope'))")
        }
    }

    @Test func cancellingTheTaskCancelsTheCall() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<p>x</p>")
        let started = PageEventExpectation(view) { event -> Bool? in
            if case .console(let message) = event, message.text == "waiting forever" { return true }
            return nil
        }
        let task = Task { @EngineActor in
            try await view.callAsyncJavaScript("console.log('waiting forever'); return new Promise(() => {})")
        }
        _ = try await started.value(timeout: .seconds(30))
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        // The view is still usable afterwards.
        #expect(try await view.evaluateJavaScript("40 + 2") == 42)
    }

    @Test func badArgumentNameIsRejectedBeforeAnythingRuns() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<p>x</p>")
        await #expect(throws: ShellError.invalidArgument("argument name \"a-b\" is not a JavaScript identifier")) {
            _ = try await view.callAsyncJavaScript("return 1", arguments: ["a-b": 1])
        }
    }

    @Test func closedViewRefusesScripts() async throws {
        let view = try makeView()
        view.close()
        await #expect(throws: ShellError.viewClosed) { _ = try await view.evaluateJavaScript("1") }
    }
}
