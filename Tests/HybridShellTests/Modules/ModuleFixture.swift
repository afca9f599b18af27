import Foundation
import HybridShell

/// A page manager with built-in modules, as `hybrid-run --modules …` sets it up, over two loopback
/// origins: `app` (the opened page's, trusted) and `other` (has a bridge, gets only what is granted).
@EngineActor
final class ModuleFixture {
    let app: FixtureServer
    let other: FixtureServer
    let manager: PageManager
    let host: ModuleHost

    init(_ modules: [BuiltinModule] = BuiltinModule.allCases,
         grants: (_ other: String) throws -> [Capability] = { _ in [] },
         dataDirectory: String? = nil, opened: String? = nil, configure: (inout ModuleConfiguration) -> Void = { _ in }) async throws {
        app = try await FixtureServer.start()
        other = try await FixtureServer.start()
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.modules.enabled = modules
        configuration.modules.capabilities = try grants(other.origin)
        configure(&configuration.modules)
        // The other origin has a bridge (as with --allow-origin), so what it may call is up to the capabilities.
        configuration.defaults.allowedOrigins = [try OriginPattern(parsing: other.origin)]
        manager = try PageManager(configuration: configuration)
        host = try ModuleHost.builtins(configuration.modules, manager: manager, openedURL: opened ?? app.url("fixtures/modules/index.html"),
                                       dataDirectory: dataDirectory)
    }

    /// Opens a page on top of the stack and waits until its bridge is ready.
    func open(_ url: String) async throws -> Page {
        let page = try manager.open(WebRoute(url))
        let ready = Handoff<Bool>()
        page.bridge.observe { event in
            switch event {
            case .ready: ready.fulfill(true)
            case .denied: ready.fulfill(false)
            case .ended: break
            }
        }
        _ = try await ready.value(timeout: .seconds(30), "the bridge of \(url)")
        return page
    }

    func openApp() async throws -> Page { try await open(app.url("fixtures/modules/index.html")) }
    func openOther() async throws -> Page { try await open(other.url("fixtures/modules/index.html")) }

    func close() async {
        await manager.closeAll()
        app.stop()
        other.stop()
    }
}

extension Page {
    /// Runs `body` (an async function body) in the page and returns what it returns.
    @discardableResult
    func run(_ body: String, _ arguments: [String: JSONValue] = [:]) async throws -> JSONValue {
        try await view.callAsyncJavaScript(body, arguments: arguments)
    }

    /// `callVia(dialect, name, data)` of pages/fixtures/modules/index.html: "ok:…" or an error code.
    func call(_ name: String, _ data: JSONValue = .null, via dialect: String = "hybrid") async throws -> String {
        try await run("return await callVia(dialect, name, data)", ["dialect": .string(dialect), "name": .string(name), "data": data]).stringValue ?? "(not a string)"
    }

    /// `hybrid.call(name, data)`: the result, or `{code, message, details}` for an error.
    func hybridCall(_ name: String, _ data: JSONValue = .null) async throws -> JSONValue {
        try await run("""
            return await hybrid.call(name, data).then(v => ({ ok: v === undefined ? null : v }),
                                                        e => ({ error: { code: e.code, message: e.message, details: e.details } }))
            """, ["name": .string(name), "data": data])
    }
}
