/// One registered native handler. Synchronous ones run inline on the engine thread and can answer
/// a dsbridge `prompt()` at once; asynchronous ones run in a task off the engine thread, unless
/// `inOrder`: then the task starts inline (`Task.immediate`), so an engine-isolated body sees
/// calls in the order they arrived, interleaved correctly with the view's other events.
enum BridgeHandler: Sendable {
    case sync(@Sendable (RawJSON, BridgeCall) throws -> RawJSON)
    case async(@Sendable (RawJSON, BridgeCall) async throws -> RawJSON, inOrder: Bool = false)

    var isSynchronous: Bool {
        if case .sync = self { return true }
        return false
    }
}
