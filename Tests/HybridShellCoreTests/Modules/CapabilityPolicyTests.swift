@testable import HybridShellCore
import Testing

@Suite("Capability policy: which origin may call which module handler")
struct CapabilityPolicyTests {
    static let app = "http://127.0.0.1:8000"
    static let partner = "https://shop.example.org"

    func policy(_ capabilities: [Capability] = []) throws -> CapabilityPolicy {
        CapabilityPolicy(modules: ["storage", "system", "navigation", "clipboard", "http"],
                         trusted: [try OriginPattern(parsing: Self.app)], capabilities: capabilities)
    }

    @Test(arguments: [
        // (handler, origin, allowed)
        ("storage.set", app, true),               // the opened page has every enabled module
        ("clipboard.get", app, true),
        ("storage.set", partner, false),          // anyone else: nothing by default …
        ("system.network", partner, false),
        ("system.info", partner, true),           // … but the safe set
        ("echo", partner, true),                  // not a module handler: not governed here
        ("fixture.secret", partner, true),
        ("storage.set", "null", false),           // opaque origins never
        ("storage.set", "", false),
        ("system.info", "null", true),
    ])
    func defaults(handler: String, origin: String, allowed: Bool) throws {
        #expect((try policy().decide(handler: handler, origin: origin) == .allowed) == allowed)
    }

    @Test func aCapabilityGrantsModulesAndSingleHandlers() throws {
        let policy = try policy([Capability(grant: "https://*.example.org=storage,http.request")])
        #expect(policy.decide(handler: "storage.get", origin: Self.partner) == .allowed)
        #expect(policy.decide(handler: "http.request", origin: Self.partner) == .allowed)
        #expect(policy.decide(handler: "http.download", origin: Self.partner) != .allowed)
        #expect(policy.decide(handler: "storage.get", origin: "https://example.org") != .allowed, "*.example.org is subdomains only")
        #expect(policy.decide(handler: "storage.get", origin: "http://shop.example.org") != .allowed, "the scheme is part of the origin")
    }

    @Test func denyWinsOverGrantsAndOverTheOpenedPage() throws {
        let policy = try policy([
            Capability(origins: [try OriginPattern(parsing: "https://*.example.org")], modules: ["storage", "clipboard"], deny: ["clipboard"]),
            Capability(origins: [try OriginPattern(parsing: Self.app)], deny: ["storage.clear"]),
        ])
        #expect(policy.decide(handler: "storage.set", origin: Self.partner) == .allowed)
        guard case .denied(let missing, _) = policy.decide(handler: "clipboard.set", origin: Self.partner) else {
            Issue.record("clipboard should be denied"); return
        }
        #expect(missing == "clipboard")
        #expect(policy.decide(handler: "storage.set", origin: Self.app) == .allowed)
        #expect(policy.decide(handler: "storage.clear", origin: Self.app) == .denied(missing: "storage.clear", reason: "storage.clear is denied to \(Self.app) by a capability"))
    }

    @Test func aRefusalIsDeniedNamingTheMissingCapability() throws {
        let refusal = try #require(try policy().refusal(handler: "storage.set", origin: Self.partner))
        #expect(refusal.code == .denied)
        #expect(refusal.details?["capability"] == "storage")
        #expect(refusal.details?["handler"] == "storage.set")
        #expect(refusal.message.contains("storage"))
        #expect(try policy().refusal(handler: "storage.set", origin: Self.app) == nil)
    }

    @Test(arguments: ["storage", "=storage", "https://x.org=", "https://x.org=storage,", "x.org=storage", "https://x.org/path=storage"])
    func badGrantsAreRejected(text: String) {
        #expect(throws: ShellError.self) { try Capability(grant: text) }
    }

    @Test func aGrantSplitsModulesFromHandlers() throws {
        let capability = try Capability(grant: "https://*.example.org=storage, system ,http.request")
        #expect(capability.modules == ["storage", "system"])
        #expect(capability.handlers == ["http.request"])
        #expect(capability.origins.map(\.description) == ["https://*.example.org"])
    }
}
