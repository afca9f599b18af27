internal import CWebKitGTK

extension WebKitView {
    /// `webkit_web_view_evaluate_javascript`, with task cancellation passed to WebKit.
    func evaluate(_ script: String, world: String?, sourceURI: String?) async throws -> JSONValue {
        let cancellable = TaskCancellable()
        let view = self.view
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
                let completion = AsyncCallCompletion { _, result in
                    var error: UnsafeMutablePointer<GError>?
                    let value = webkit_web_view_evaluate_javascript_finish(view, result, &error)
                    continuation.resume(with: WebKitView.javaScriptResult(value, error))
                }
                webkit_web_view_evaluate_javascript(view, script, -1, world, sourceURI, cancellable.pointer,
                                                    asyncCallReady, completion.retainedUserData())
            }
        } onCancel: {
            cancellable.cancel()
        }
    }

    /// `webkit_web_view_call_async_javascript_function`: `body` is a function body that sees each
    /// argument as a local variable and may return a Promise, which WebKit awaits.
    func callAsync(_ body: String, arguments: [String: JSONValue], world: String?, sourceURI: String?) async throws -> JSONValue {
        let cancellable = TaskCancellable()
        let view = self.view
        let variant = GVariantArguments.make(arguments)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
                let completion = AsyncCallCompletion { _, result in
                    var error: UnsafeMutablePointer<GError>?
                    let value = webkit_web_view_call_async_javascript_function_finish(view, result, &error)
                    continuation.resume(with: WebKitView.javaScriptResult(value, error))
                }
                webkit_web_view_call_async_javascript_function(view, body, -1, variant, world, sourceURI, cancellable.pointer,
                                                               asyncCallReady, completion.retainedUserData())
            }
        } onCancel: {
            cancellable.cancel()
        }
    }

    /// Like ``callAsync(_:arguments:world:sourceURI:)`` for string arguments and a string result,
    /// without the JSON round trip: the bridge's delivery path, where payloads can be megabytes.
    func callAsyncReturningString(_ body: String, strings: [String: String], world: String?) async throws -> String? {
        let view = self.view
        let variant = GVariantArguments.make(strings: strings)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String?, any Error>) in
            let completion = AsyncCallCompletion { _, result in
                var error: UnsafeMutablePointer<GError>?
                guard let value = webkit_web_view_call_async_javascript_function_finish(view, result, &error) else {
                    continuation.resume(throwing: WebKitView.javaScriptError(error))
                    return
                }
                defer { g_object_unref(value) }
                continuation.resume(returning: jsc_value_is_string(value) != 0 ? takeGLibString(jsc_value_to_string(value)) : nil)
            }
            webkit_web_view_call_async_javascript_function(view, body, -1, variant, world, nil, nil,
                                                           asyncCallReady, completion.retainedUserData())
        }
    }

    static func javaScriptResult(_ value: UnsafeMutablePointer<JSCValue>?, _ error: UnsafeMutablePointer<GError>?) -> Result<JSONValue, any Error> {
        guard let value else { return .failure(javaScriptError(error)) }
        defer { g_object_unref(value) }
        return Result { try JSCValueConversion.json(value) }
    }

    static func javaScriptError(_ error: UnsafeMutablePointer<GError>?) -> any Error {
        guard let error else { return ShellError.engine(domain: "WebKit", code: 0, message: "JavaScript failed without an error") }
        let details = GLibError(consuming: error)
        if details.isCancellation { return CancellationError() }
        let javascript = String(cString: g_quark_to_string(hs_webkit_javascript_error()))
        if details.domain == javascript {
            if details.code == Int(WEBKIT_JAVASCRIPT_ERROR_INVALID_RESULT.rawValue) {
                return ShellError.unsupportedJavaScriptResult(details.message)
            }
            return ShellError.javaScriptException(message: details.message)
        }
        return ShellError.engine(domain: details.domain, code: details.code, message: details.message)
    }
}

enum JSCValueConversion {
    /// A JavaScript value as JSON: `undefined` becomes `null`; functions, symbols and other values
    /// JSON cannot hold are an error rather than a silent `null`.
    static func json(_ value: UnsafeMutablePointer<JSCValue>) throws -> JSONValue {
        if jsc_value_is_undefined(value) != 0 || jsc_value_is_null(value) != 0 { return .null }
        if jsc_value_is_string(value) != 0 { return .string(takeGLibString(jsc_value_to_string(value)) ?? "") }
        if jsc_value_is_boolean(value) != 0 { return .bool(jsc_value_to_boolean(value) != 0) }
        if jsc_value_is_number(value) != 0 { return .number(jsc_value_to_double(value)) }
        if jsc_value_is_function(value) != 0 {
            throw ShellError.unsupportedJavaScriptResult("a function cannot be converted to JSON")
        }
        guard let text = takeGLibString(jsc_value_to_json(value, 0)) else {
            throw ShellError.unsupportedJavaScriptResult("the value cannot be converted to JSON")
        }
        return try JSONParser().parse(text)
    }

    /// The text of a value: itself if it is a string, its JSON otherwise.
    static func text(_ value: UnsafeMutablePointer<JSCValue>) -> (text: String, isString: Bool) {
        if jsc_value_is_string(value) != 0 { return (takeGLibString(jsc_value_to_string(value)) ?? "", true) }
        return (takeGLibString(jsc_value_to_json(value, 0)) ?? "null", false)
    }
}

/// Typed arguments for `webkit_web_view_call_async_javascript_function` (a `GVariant` of type
/// `a{sv}`): strings, numbers, booleans, arrays and objects map to their GVariant counterparts, so
/// no value is ever written into JavaScript source.
enum GVariantArguments {
    static func make(_ arguments: [String: JSONValue]) -> OpaquePointer? {
        guard !arguments.isEmpty else { return nil }
        return dictionary(arguments)
    }

    static func make(strings: [String: String]) -> OpaquePointer? {
        guard !strings.isEmpty else { return nil }
        let dict = g_variant_dict_new(nil)
        for (key, value) in strings { g_variant_dict_insert_value(dict, key, g_variant_new_string(value)) }
        defer { g_variant_dict_unref(dict) }
        return hs_variant_dict_end(dict)
    }

    private static func dictionary(_ members: [String: JSONValue]) -> OpaquePointer {
        let dict = g_variant_dict_new(nil)
        defer { g_variant_dict_unref(dict) }
        for (key, value) in members { g_variant_dict_insert_value(dict, key, variant(value)) }
        return hs_variant_dict_end(dict)
    }

    private static func variant(_ value: JSONValue) -> OpaquePointer {
        switch value {
        case .null: return g_variant_new_maybe(hs_variant_type("v"), nil)
        case .bool(let flag): return g_variant_new_boolean(flag ? 1 : 0)
        case .number(let number): return g_variant_new_double(number)
        case .string(let string): return g_variant_new_string(string)
        case .array(let items):
            var children: [OpaquePointer?] = items.map { g_variant_new_variant(variant($0)) }
            return g_variant_new_array(hs_variant_type("v"), &children, gsize(children.count))
        case .object(let members): return dictionary(members)
        }
    }
}
