internal import CWebKitGTK
import HybridShellCore

extension WebKitView {
    /// `webkit_web_view_evaluate_javascript`; see ``javaScriptCall(_:finish:)`` for cancellation.
    func evaluate(_ script: String, world: String?, sourceURI: String?) async throws -> JSONValue {
        let view = self.view
        return try await WebKitView.javaScriptCall({ cancellable, userData in
            webkit_web_view_evaluate_javascript(view, script, -1, world, sourceURI, cancellable, asyncCallReady, userData)
        }, finish: { result in
            var error: UnsafeMutablePointer<GError>?
            let value = webkit_web_view_evaluate_javascript_finish(view, result, &error)
            return WebKitView.javaScriptResult(value, error)
        })
    }

    /// `webkit_web_view_call_async_javascript_function`: `body` is a function body that sees each
    /// argument as a local variable and may return a Promise, which WebKit awaits.
    ///
    /// Each argument travels as its JSON text in a GVariant string and is parsed by a prelude made
    /// only of the (validated) argument names: GVariant strings end at NUL, and WebKit rejects
    /// `maybe` and nested variant arrays, while JSON text carries every value exactly.
    func callAsync(_ body: String, arguments: [String: JSONValue], world: String?, sourceURI: String?) async throws -> JSONValue {
        let view = self.view
        let prelude = arguments.keys.sorted().map { "\($0) = JSON.parse(\($0));" }.joined()
        let source = prelude.isEmpty ? body : prelude + "\n" + body
        let variant = UncheckedOptionalPointer(UnsafeMutableRawPointer(GVariantArguments.make(strings: arguments.mapValues(\.jsonText))))
        return try await WebKitView.javaScriptCall({ cancellable, userData in
            webkit_web_view_call_async_javascript_function(view, source, -1, OpaquePointer(variant.raw), world, sourceURI,
                                                           cancellable, asyncCallReady, userData)
        }, finish: { result in
            var error: UnsafeMutablePointer<GError>?
            let value = webkit_web_view_call_async_javascript_function_finish(view, result, &error)
            return WebKitView.javaScriptResult(value, error)
        })
    }

    /// Runs one asynchronous WebKit JavaScript call. Cancelling the Swift task settles it at once
    /// with `CancellationError` and cancels the `GCancellable`: WebKit does not abort a call whose
    /// Promise is still pending (its callback came ~25 s later here), so Swift cannot wait for it.
    static func javaScriptCall(
        _ start: (UnsafeMutablePointer<GCancellable>, gpointer) -> Void,
        finish: @escaping @EngineActor (OpaquePointer?) -> Result<JSONValue, any Error>
    ) async throws -> JSONValue {
        let cancellable = TaskCancellable()
        let call = JavaScriptCall()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
                call.start(continuation)
                let completion = AsyncCallCompletion { _, result in call.settle(finish(result)) }
                start(cancellable.pointer, completion.retainedUserData())
            }
        } onCancel: {
            Task { @EngineActor in call.settle(.failure(CancellationError())) }
            cancellable.cancel()
        }
    }

    /// Like ``callAsync(_:arguments:world:sourceURI:)`` for string arguments and a string result,
    /// without the JSON round trip: the bridge's delivery path, where payloads can be megabytes.
    func callAsyncReturningString(_ body: String, strings: [String: String], world: String?) async throws -> String? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String?, any Error>) in
            callAsyncReturningString(body, strings: strings, world: world) { continuation.resume(with: $0) }
        }
    }

    /// ``callAsyncReturningString(_:strings:world:)`` with a completion that runs in WebKit's own
    /// callback: no Swift job in between, which is a main-loop turn saved per bridge delivery.
    func callAsyncReturningString(_ body: String, strings: [String: String], world: String?,
                                  completion: @escaping @EngineActor (Result<String?, any Error>) -> Void) {
        let view = self.view
        let variant = GVariantArguments.make(strings: strings)
        let finish = AsyncCallCompletion { _, result in
            var error: UnsafeMutablePointer<GError>?
            guard let value = webkit_web_view_call_async_javascript_function_finish(view, result, &error) else {
                completion(.failure(WebKitView.javaScriptError(error)))
                return
            }
            defer { g_object_unref(value) }
            completion(.success(jsc_value_is_string(value) != 0 ? JSCValueConversion.string(value) : nil))
        }
        // Through withCString: a `String` passed as `char *` is copied first, on every delivery.
        body.withCString { body in
            withOptionalCString(world) { world in
                webkit_web_view_call_async_javascript_function(view, body, -1, variant, world, nil, nil,
                                                               asyncCallReady, finish.retainedUserData())
            }
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
        if jsc_value_is_string(value) != 0 { return .string(string(value)) }
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
        if jsc_value_is_string(value) != 0 { return (string(value), true) }
        return (takeGLibString(jsc_value_to_json(value, 0)) ?? "null", false)
    }

    /// A JavaScript string as UTF-8 with its length (`jsc_value_to_string_as_bytes`), so a NUL
    /// inside it does not cut it short as `jsc_value_to_string` would.
    static func string(_ value: UnsafeMutablePointer<JSCValue>) -> String {
        guard let bytes = jsc_value_to_string_as_bytes(value) else { return "" }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size), size > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(size)), as: UTF8.self)
    }
}

/// `string.withCString`, or a null pointer for nil.
func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString(body)
}

/// Typed string arguments for `webkit_web_view_call_async_javascript_function` (a `GVariant` of
/// type `a{sv}`), so no value is ever written into JavaScript source. Strings must not hold NUL.
enum GVariantArguments {
    /// A floating `a{sv}` made of its entries directly: a `GVariantDict` would hash every key into
    /// a table only to write them out again, which cost the bridge more per delivery than WebKit's
    /// own handling of the arguments. (The keys of a Swift dictionary are already unique.)
    static func make(strings: [String: String]) -> OpaquePointer? {
        guard !strings.isEmpty else { return nil }
        var entries: [OpaquePointer?] = strings.map { key, value in
            // One copy of each value, which the variant takes: `g_variant_new_string(value)` would
            // copy it twice (Swift's `char *` conversion, then GLib's own).
            let text = value.withCString { g_variant_new_take_string(g_strdup($0)) }
            return key.withCString { g_variant_new_dict_entry(g_variant_new_string($0), g_variant_new_variant(text)) }
        }
        return entries.withUnsafeMutableBufferPointer { g_variant_new_array(nil, $0.baseAddress, gsize($0.count)) }
    }
}

/// The Swift side of one JavaScript call: settled exactly once, by WebKit's callback or by
/// cancellation, whichever comes first.
@EngineActor
final class JavaScriptCall {
    private var continuation: CheckedContinuation<JSONValue, any Error>?
    private var early: Result<JSONValue, any Error>?
    private var settled = false

    func start(_ continuation: CheckedContinuation<JSONValue, any Error>) {
        if let early {
            continuation.resume(with: early)
        } else {
            self.continuation = continuation
        }
    }

    func settle(_ result: Result<JSONValue, any Error>) {
        guard !settled else { return }
        settled = true
        if let continuation {
            self.continuation = nil
            continuation.resume(with: result)
        } else {
            early = result
        }
    }
}
