import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
import Testing

/// The scripts compiled into the library must be the bytes of bridge-js/src (regenerate with
/// `node bridge-js/tools/embed.mjs`).
@Suite("Embedded bridge scripts match bridge-js/src")
struct EmbeddedScriptsTests {
    func source(_ path: String) throws -> String {
        try String(contentsOf: Fixtures.repository.appendingPathComponent("bridge-js/src/\(path)"), encoding: .utf8)
    }

    @Test func relayMatches() throws {
        #expect(BridgeScripts.relay == (try source("relay.js")), "run: node bridge-js/tools/embed.mjs")
    }

    @Test func pageMatchesItsSourcesInOrder() throws {
        let rebuilt = try BridgeScripts.pageSources.map { try source("page/\($0)") }.joined()
        #expect(BridgeScripts.page == rebuilt, "run: node bridge-js/tools/embed.mjs")
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Fixtures.repository.appendingPathComponent("bridge-js/src/page").path)
        #expect(Set(onDisk.filter { $0.hasSuffix(".js") }) == Set(BridgeScripts.pageSources), "a page source is missing from the build order")
    }

    @Test func consoleMatches() throws {
        #expect(EngineScripts.console == (try source("console.js")), "run: node bridge-js/tools/embed.mjs")
    }
}
