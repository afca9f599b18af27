/// One registered native handler. Synchronous ones run inline on the engine thread and can answer
/// a dsbridge `prompt()` at once; asynchronous ones run in a task off the engine thread.
enum BridgeHandler: Sendable {
    case sync(@Sendable (RawJSON, BridgeCall) throws -> RawJSON)
    case async(@Sendable (RawJSON, BridgeCall) async throws -> RawJSON)

    var isSynchronous: Bool {
        if case .sync = self { return true }
        return false
    }
}
