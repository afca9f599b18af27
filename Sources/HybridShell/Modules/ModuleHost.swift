import Foundation
import HybridShellCore
import HybridShellWebKit

/// The native modules of one ``PageManager``: registers each module's handlers in the manager's
/// registry, checks every call against the ``CapabilityPolicy`` (every dialect, before the handler
/// runs), adds the modules' JavaScript facades to new views, and pushes module events to the pages
/// allowed to receive them.
///
///     let host = ModuleHost(manager: manager, trusted: [try OriginPattern(parsing: "https://app.example")])
///     host.register(StorageModule.module(path: nil, quota: 10 << 20))
@EngineActor
public final class ModuleHost {
    public let manager: PageManager
    public private(set) var modules: [NativeModule] = []
    public var policy: CapabilityPolicy
    /// Where `http` keeps the large bodies it shares (made by ``builtins(_:manager:openedURL:dataDirectory:options:)``).
    public internal(set) var downloads: ModuleDownloads?

    public init(manager: PageManager, trusted: [OriginPattern], capabilities: [Capability] = []) {
        self.manager = manager
        policy = CapabilityPolicy(modules: [], trusted: trusted, capabilities: capabilities)
        manager.handlers.authorize = { [weak self] name, origin in
            self?.policy.refusal(handler: name, origin: origin)
        }
    }

    /// Adds a module: its handlers, its facade (for views made from now on), its name to the policy.
    public func register(_ module: NativeModule) {
        module.install(manager.handlers)
        policy.modules.insert(module.name)
        if let facade = module.facade {
            manager.userScripts.append(UserScript(source: facade, injectionTime: .documentStart, frames: .topFrameOnly))
        }
        modules.append(module)
    }

    /// Pushes `event` (named `module.something`) to every page whose origin may use that module.
    public func emit(_ event: String, data: JSONValue) {
        for page in manager.stack {
            guard let session = page.bridge.currentSession, session.allowed,
                  policy.decide(handler: event, origin: session.origin) == .allowed else { continue }
            try? page.bridge.emit(event, data: data)
        }
    }

    /// The page whose current document made `call`.
    func page(of call: BridgeCall) -> Page? {
        manager.stack.first { $0.bridge.currentSession?.id == call.sessionID }
    }

    /// Refuses a clipboard call from a page the user does not see (see ``ClipboardVisibility``).
    /// Holds the host weakly (the manager's handlers keep it); once the host is gone, everyone is refused.
    var clipboardRefusal: @EngineActor @Sendable (BridgeCall) -> BridgeError? {
        { [weak self] call in
            let page = self?.page(of: call)
            return ClipboardVisibility.refusal(handler: call.handler, isOnTop: page?.isOnTop ?? false, isShown: page?.view.isShown ?? false,
                                               backgroundGranted: self.map { ClipboardVisibility.granted(to: call.origin, by: $0.policy.capabilities) } ?? false)
        }
    }
}
