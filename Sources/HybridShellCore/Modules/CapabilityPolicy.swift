/// Which document may call which module handler: a pure decision, asked by the bridge before any
/// handler runs in any dialect (``BridgeHandlers/authorize``).
///
/// - Handlers outside every module namespace (an app's own, `echo`, `log`) are not governed here
///   (the bridge's ``OriginPolicy`` already decided who has a bridge at all).
/// - A matching capability's `deny` wins over everything, the opened page included.
/// - The page the shell opened (``trusted``: its origin, a local file, an installed package) gets
///   every enabled module.
/// - Anyone else gets ``safeHandlers`` plus what a matching capability grants.
public struct CapabilityPolicy: Sendable, Equatable {
    public enum Decision: Sendable, Equatable {
        case allowed
        /// `missing` is the module (or handler) a capability would have to grant.
        case denied(missing: String, reason: String)
    }

    /// Module names whose handlers this policy governs (`storage` governs `storage.*`).
    public var modules: Set<String>
    public var trusted: [OriginPattern]
    public var capabilities: [Capability]
    /// What any document with a bridge may call.
    public var safeHandlers: Set<String>

    public static let defaultSafeHandlers: Set<String> = ["system.info"]

    public init(modules: Set<String>, trusted: [OriginPattern], capabilities: [Capability] = [],
                safeHandlers: Set<String> = CapabilityPolicy.defaultSafeHandlers) {
        self.modules = modules
        self.trusted = trusted
        self.capabilities = capabilities
        self.safeHandlers = safeHandlers
    }

    /// The module a handler belongs to: the part before its first dot, when that is a module.
    public func module(of handler: String) -> String? {
        guard let dot = handler.firstIndex(of: ".") else { return nil }
        let name = String(handler[..<dot])
        return modules.contains(name) ? name : nil
    }

    public func decide(handler: String, origin: String) -> Decision {
        guard let module = module(of: handler) else { return .allowed }
        let matching = capabilities.filter { $0.applies(to: origin) }
        if let denying = matching.first(where: { $0.deny.contains(module) || $0.deny.contains(handler) }) {
            let what = denying.deny.contains(handler) ? handler : module
            return .denied(missing: what, reason: "\(what) is denied to \(origin) by a capability")
        }
        let isTrusted = origin != "null" && !origin.isEmpty && trusted.contains { $0.matches(origin) }
        if isTrusted || safeHandlers.contains(handler) { return .allowed }
        if matching.contains(where: { $0.modules.contains(module) || $0.handlers.contains(handler) }) { return .allowed }
        return .denied(missing: module,
                       reason: "origin \(origin.isEmpty ? "(none)" : origin) has no capability for \(module) (grant the module \(module) or the handler \(handler))")
    }

    /// The decision as the bridge's answer: nil, or DENIED naming the missing capability.
    public func refusal(handler: String, origin: String) -> BridgeError? {
        switch decide(handler: handler, origin: origin) {
        case .allowed: return nil
        case .denied(let missing, let reason):
            return BridgeError(.denied, reason, details: ["capability": .string(missing), "handler": .string(handler), "origin": .string(origin)])
        }
    }
}
