import Foundation
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// Every page of a ``PageManager`` can be handed `hybrid-file://` URLs out of the box, and a
/// document's shares end with its bridge session.
@Suite(.timeLimit(.minutes(2)))
@EngineActor
struct ManagerFileShareTests {
    @Test func aHandlerSharesAFileThePageFetchesUntilItsSessionEnds() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shares-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("clip.bin")
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: file)
        let server = try await FixtureServer.start()
        defer { server.stop() }
        server.route("/index.html") { _ in .text("<!doctype html><title>share</title>", type: "text/html") }

        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        let manager = try PageManager(configuration: configuration)
        let shares = try #require(manager.fileShares)
        manager.handlers.register("clip.share") { (_: JSONValue, call: BridgeCall) async throws -> String in
            try call.share(file: file.path, in: shares)
        }
        let page = try manager.open(WebRoute(server.url("index.html")))
        #expect(try await PageEventExpectation.loadFinished(page.view).value(timeout: .seconds(30), "the page's load"))
        let fetched = try await page.view.callAsyncJavaScript("""
            await hybrid.ready;
            const url = await hybrid.call('clip.share');
            const buffer = await (await fetch(url)).arrayBuffer();
            const view = new Uint8Array(buffer);
            let sum = 0;
            for (const byte of view) sum = (sum * 31 + byte) % 1000000007;
            return {url, length: view.length, sum};
            """)
        #expect(fetched["length"] == .number(Double(bytes.count)))
        let expectedSum = bytes.reduce(0) { ($0 * 31 + Int($1)) % 1_000_000_007 }
        #expect(fetched["sum"] == .number(Double(expectedSum)))
        let url = try #require(fetched["url"]?.stringValue)
        #expect(url.hasPrefix("hybrid-file://"))
        #expect(shares.count == 1)
        page.bridge.endSession()
        #expect(shares.count == 0)
        await manager.closeAll()
    }
}
