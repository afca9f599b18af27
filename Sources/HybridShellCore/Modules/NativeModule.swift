/// A native ability pages can use (a group of handlers under one name, like `storage` or `http`): a name, the handlers it
/// registers (all named `name.something`, typed as ``BridgeHandlers`` has them), the events it
/// pushes to pages, and the JavaScript facade it adds (the `wx.*` functions), if any.
///
///     let module = NativeModule(name: "greeter") { handlers in
///         handlers.register("greeter.hello") { (name: String) in "hello \(name)" }
///     }
public struct NativeModule: Sendable {
    public let name: String
    /// Events the module pushes with ``Bridge/emit(_:data:)`` (`system.networkStatusChange`).
    public let events: [String]
    /// Page-world JavaScript added after the bridge script, top frame only.
    public let facade: String?
    package let install: @EngineActor @Sendable (BridgeHandlers) -> Void

    public init(name: String, events: [String] = [], facade: String? = nil,
                install: @escaping @EngineActor @Sendable (BridgeHandlers) -> Void) {
        self.name = name
        self.events = events
        self.facade = facade
        self.install = install
    }
}
