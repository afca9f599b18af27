import Foundation
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 31, items 4 and 5: `http.request`'s timeout bounds the whole request (a stalled or
/// trickling server), and its response body is capped while it streams in (decoded, so a small
/// gzip that inflates is stopped too), with no partial file left behind.
@Suite("http module: whole-request timeout and body cap")
struct HTTPModuleLimitTests {
    /// A loopback server whose `/stall` answers nothing until the test ends, `/trickle` sends a
    /// byte every 100 ms, `/big` sends 5000 bytes and `/gzip` 1 KB of gzip that inflates to 1 MB.
    private static func server() async throws -> (FixtureServer, release: DispatchSemaphore) {
        let api = try await FixtureServer.start()
        let release = DispatchSemaphore(value: 0)
        api.route("/stall") { _ in
            _ = release.wait(timeout: .now() + 30)
            return .text("late")
        }
        api.route("/trickle") { _ in
            var response = FixtureServer.Response.text(String(repeating: "t", count: 100))
            response.pace = .milliseconds(100)
            return response
        }
        api.route("/big") { _ in .text(String(repeating: "b", count: 5000)) }
        let gzip = try gzipped(Data(count: 1_000_000))
        api.route("/gzip") { _ in
            FixtureServer.Response(status: 200, headers: ["Content-Type": "application/octet-stream", "Content-Encoding": "gzip"], body: gzip)
        }
        return (api, release)
    }

    private static func gzipped(_ data: Data) throws -> Data {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body")
        try data.write(to: file)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        gzip.arguments = ["-n", file.path]
        try gzip.run()
        gzip.waitUntilExit()
        return try Data(contentsOf: directory.appendingPathComponent("body.gz"))
    }

    private func request(_ url: String) -> URLRequest { URLRequest(url: URL(string: url)!) }

    private func privateDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("http-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aStalledServerTimesOutAtTheRequestedTime() async throws {
        let (api, release) = try await Self.server()
        defer { release.signal(); api.stop() }
        let started = ContinuousClock.now
        let outcome = await HTTPTransfer.run(request(api.url("stall")), timeout: .milliseconds(500), maxBytes: 1 << 20)
        guard case .timedOut = outcome else { Issue.record("not a timeout: \(outcome)"); return }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func aTricklingServerTimesOutTooAndLeavesNoFile() async throws {
        let (api, release) = try await Self.server()
        defer { release.signal(); api.stop() }
        let directory = try privateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let started = ContinuousClock.now
        let outcome = await HTTPTransfer.run(request(api.url("trickle")), timeout: .milliseconds(500), maxBytes: 1 << 20, directory: directory)
        guard case .timedOut = outcome else { Issue.record("not a timeout: \(outcome)"); return }
        #expect(ContinuousClock.now - started < .seconds(5), "the body takes 10 s to arrive")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }

    @Test func aBodyOverTheCapIsRefusedAndItsPartialFileDeleted() async throws {
        let (api, release) = try await Self.server()
        defer { release.signal(); api.stop() }
        let directory = try privateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let big = await HTTPTransfer.run(request(api.url("big")), timeout: .seconds(10), maxBytes: 1000, directory: directory)
        guard case .tooLarge = big else { Issue.record("not refused: \(big)"); return }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
        // Counted decoded: 1 KB on the wire, 1 MB inflated.
        let inflated = await HTTPTransfer.run(request(api.url("gzip")), timeout: .seconds(10), maxBytes: 100_000, directory: directory)
        guard case .tooLarge = inflated else { Issue.record("not refused: \(inflated)"); return }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
        // Within the cap, the whole body is there.
        let fits = await HTTPTransfer.run(request(api.url("big")), timeout: .seconds(10), maxBytes: 5000, directory: directory)
        guard case .finished(let file, let response) = fits else { Issue.record("not finished: \(fits)"); return }
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: file).count == 5000)
    }

    @Test @EngineActor func thePageGetsTimeoutAndPayloadTooLarge() async throws {
        let (api, release) = try await Self.server()
        defer { release.signal() }
        let fixture = try await ModuleFixture([.http], configure: {
            $0.httpAllow = [try! OriginPattern(parsing: api.origin)]
            $0.httpMaxBytes = 1000
        })
        let page = try await fixture.openApp()
        let started = ContinuousClock.now
        let stalled = try await page.hybridCall("http.request", ["url": .string(api.url("stall")), "timeout": 500])
        #expect(stalled["error"]?["code"] == "TIMEOUT", "\(stalled)")
        #expect(ContinuousClock.now - started < .seconds(5))
        let trickled = try await page.hybridCall("http.request", ["url": .string(api.url("trickle")), "timeout": 500])
        #expect(trickled["error"]?["code"] == "TIMEOUT", "a byte every 100 ms is no excuse: \(trickled)")
        #expect(ContinuousClock.now - started < .seconds(8))
        let big = try await page.hybridCall("http.request", ["url": .string(api.url("big"))])
        #expect(big["error"]?["code"] == "PAYLOAD_TOO_LARGE", "\(big)")
        #expect(big["error"]?["details"]?["reason"] == "tooLarge")
        #expect(big["error"]?["message"] == .string("the response of GET \(api.url("big")) is larger than 1000 bytes (module_settings.http_max_bytes)"))
        // Issue 31, item 20: an upper-case scheme reaches the same allowed origin.
        let upper = try await page.hybridCall("http.request", ["url": .string(api.url("big").replacingOccurrences(of: "http://", with: "HTTP://")),
                                                                "method": "HEAD"])
        #expect(upper["ok"]?["statusCode"] == 200, "\(upper)")
        let file = try await page.hybridCall("http.request", ["url": .string(api.url("big")), "responseType": "file"])
        #expect(file["error"]?["code"] == "PAYLOAD_TOO_LARGE", "\(file)")
        await fixture.close()
        api.stop()
    }
}
