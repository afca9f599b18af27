/// An engine that can run an async function body with string arguments and hand its string result
/// to a completion in the engine's own callback (`webkit_web_view_call_async_javascript_function`).
/// The bridge delivers through it when it can: awaiting the `async` form costs one more main-loop
/// turn per delivery (the continuation's job), which a native → page call pays on its critical path.
@EngineActor
package protocol StringFunctionCalling: AnyObject {
    func callFunctionReturningString(_ body: String, strings: [String: String], in world: ScriptWorld,
                                     completion: @escaping @EngineActor (Result<String?, any Error>) -> Void)
}
