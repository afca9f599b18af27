import Foundation
import HybridShell
import Testing

/// Capabilities in real WebKit: the opened page's origin calls every enabled module; another
/// origin with a bridge but no capability is DENIED for each module in each dialect.
@Suite("Module capabilities with two local origins")
@EngineActor
struct ModuleCapabilityTests {
    /// One harmless call per module.
    static let probes: [(module: String, handler: String, data: JSONValue)] = [
        ("storage", "storage.info", .null),
        ("navigation", "navigation.pages", .null),
        ("system", "system.network", .null),
        ("clipboard", "clipboard.get", .null),
        ("ui", "ui.showToast", ["title": "hi"]),
    ]
    /// Calls whose success needs more set-up (an allowed URL, a chosen file): for refusals only.
    static let refusalProbes: [(module: String, handler: String, data: JSONValue)] = probes + [
        ("http", "http.request", ["url": "http://127.0.0.1:1/"]),
        ("files", "files.choose", .null),
    ]
    static let dialects = ["hybrid", "wvjb", "dsbridge", "wx"]

    @Test func theOpenedOriginCallsEveryModuleInEveryDialect() async throws {
        let fixture = try await ModuleFixture()
        let page = try await fixture.openApp()
        for probe in Self.probes {
            for dialect in Self.dialects {
                let outcome = try await page.call(probe.handler, probe.data, via: dialect)
                #expect(outcome.hasPrefix("ok:"), "\(probe.handler) via \(dialect): \(outcome)")
            }
        }
        await fixture.close()
    }

    @Test func anotherOriginIsDeniedEveryModuleInEveryDialectAndEachRefusalIsLogged() async throws {
        let fixture = try await ModuleFixture()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("modules-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        fixture.manager.transcript = try BridgeTranscript(path: log)
        let page = try await fixture.openOther()
        for probe in Self.refusalProbes {
            for dialect in Self.dialects {
                #expect(try await page.call(probe.handler, probe.data, via: dialect) == "DENIED", "\(probe.handler) via \(dialect)")
            }
        }
        // The refusal names the missing capability.
        let refusal = try await page.hybridCall("storage.set", ["key": "k", "data": 1])
        #expect(refusal["error"]?["code"] == "DENIED")
        #expect(refusal["error"]?["details"]?["capability"] == "storage")
        // What is safe for anyone still works.
        #expect(try await page.call("system.info").hasPrefix("ok:"))
        _ = try await page.run("return 1")  // the WVJB answers have been recorded by now
        let entries = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        let denied = entries.filter { $0["outcome"] == "DENIED" && $0["handler"] != nil }
        for probe in Self.refusalProbes {
            // hybrid, WVJB and wx arrive as frames ("call"), dsbridge's synchronous form by prompt.
            let kinds = denied.filter { $0["handler"]?.stringValue == probe.handler }.compactMap { $0["kind"]?.stringValue }.sorted()
            #expect(kinds == ["call", "call", "call", "dsbridge-sync"], "\(probe.handler): \(kinds)")
        }
        await fixture.close()
    }

    @Test func aGrantOpensModulesToAnotherOriginAndDenyWins() async throws {
        let fixture = try await ModuleFixture(grants: { other in
            [Capability(origins: [try OriginPattern(parsing: other)], modules: ["storage", "clipboard"], handlers: ["system.network"], deny: ["clipboard"])]
        })
        let page = try await fixture.openOther()
        for dialect in Self.dialects {
            #expect(try await page.call("storage.info", via: dialect).hasPrefix("ok:"), "storage via \(dialect)")
            #expect(try await page.call("system.network", via: dialect).hasPrefix("ok:"), "system.network via \(dialect)")
            #expect(try await page.call("system.screen", via: dialect) == "DENIED", "only the granted handler of system")
            #expect(try await page.call("clipboard.get", via: dialect) == "DENIED", "deny wins over the grant")
            #expect(try await page.call("navigation.pages", via: dialect) == "DENIED")
        }
        await fixture.close()
    }
}
