import Foundation
import HybridShellTestSupport
@testable import HybridShell
@testable import HybridShellCore
import Testing

/// The loopback listener of ``SchemeMediaRelay`` spoken to with a raw HTTP client: ranges (206, 416),
/// the refusals (Host, method, path, unknown token), a package file changed on disk, a file outside
/// the manifest, and a client that hangs up mid-body. No web view: these are the relay's own answers.
@Suite("Media relay: the loopback listener of custom-scheme media")
@EngineActor
struct MediaRelayTests {
    let log = LogCapture()
    let fixtures: PackageFixtures
    let store: PackageStore
    let mount: URL
    let relay: SchemeMediaRelay
    let clip: Data

    init() throws {
        fixtures = try PackageFixtures()
        store = fixtures.store()
        let site = fixtures.path("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        clip = try Data(contentsOf: Fixtures.page("media/clip.webm"))
        try clip.write(to: site.appendingPathComponent("clip.webm"))
        try Data("<!doctype html>".utf8).write(to: site.appendingPathComponent("index.html"))
        try store.install(file: try fixtures.pack(site, "relay.zip", sequence: 1, app: "demo"))
        // A directory mount with a 32 MB file: big enough to be still sending when a client hangs up.
        mount = fixtures.path("mount")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 32 << 20).write(to: mount.appendingPathComponent("big.webm"))
        var app = try SchemeRegistration(scheme: "app", handler: PackageSchemeHandler(store: store))
        app.mediaHosts = ["demo"]
        var directory = try SchemeRegistration(scheme: "media", handler: try DirectoryHandler(root: mount.path))
        directory.mediaHosts = [""]
        relay = try SchemeMediaRelay(registrations: [app, directory], logger: log.logger())
    }

    private func path(_ url: String) throws -> String {
        String(try #require(relay.relayURL(for: url)).dropFirst("http://127.0.0.1:\(relay.port)".count))
    }

    private func send(_ path: String, method: String = "GET", headers: [String] = [], host: String? = nil) async throws -> RawHTTP.Response {
        let lines = ["\(method) \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(relay.port)")"] + headers
        return try await RawHTTP.send(port: relay.port, lines.joined(separator: "\r\n"))
    }

    @Test func rangesAreByteExactAndAnUnsatisfiableRangeIs416() async throws {
        let clipPath = try path("app://demo/clip.webm")
        let middle = try await send(clipPath, headers: ["Range: bytes=100-199"])
        #expect(middle.status == 206, "\(middle)")
        #expect(middle.headers["content-range"] == "bytes 100-199/\(clip.count)", "\(middle)")
        #expect(middle.body == clip[100..<200])
        let whole = try await send(clipPath)
        #expect(whole.status == 200 && whole.body == clip, "\(whole)")
        let past = try await send(clipPath, headers: ["Range: bytes=\(clip.count + 10)-"])
        #expect(past.status == 416, "\(past)")
        #expect(past.headers["content-range"] == "bytes */\(clip.count)", "\(past)")
    }

    @Test func refusalsCarryTheirStatusAndAreLogged() async throws {
        let clipPath = try path("app://demo/clip.webm")
        #expect(try await send(clipPath, host: "evil.example:\(relay.port)").status == 403)
        let post = try await send(clipPath, method: "POST", headers: ["Content-Length: 0"])
        #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD", "\(post)")
        let unknown = "/" + String(repeating: "ab", count: 16) + "/clip.webm"
        #expect(try await send(unknown).status == 404)
        #expect(try await send("/" + String(repeating: "ab", count: 16)).status == 400)
        let token = clipPath.dropFirst().prefix(32)
        // libsoup hands the path over with %2f decoded: the package then has no such file.
        let encoded = try await send("/\(token)/..%5c..%5cmanifest.json")
        #expect([400, 403, 404].contains(encoded.status), "\(encoded)")
        let escape = try await send("/\(token)/a%2f..%2f..%2fmanifest.json")
        #expect([400, 403, 404].contains(escape.status), "\(escape)")
        #expect(log.contains("DNS-rebinding defence") && log.contains("unknown token"), "\(log.lines)")
        #expect(!log.lines.contains { $0.contains(String(token)) }, "a whole token was logged")
    }

    @Test func onlyTheSignedUnchangedFilesOfThePackageAreServed() async throws {
        let root = try #require(store.activeRoot("demo"))
        try clip.write(to: root.appendingPathComponent("extra.webm"))
        #expect(try await send(try path("app://demo/extra.webm")).status == 404, "a file outside the manifest")
        // Truncated on disk after install: its hash no longer matches, so nothing of it is served.
        try clip.prefix(1000).write(to: root.appendingPathComponent("clip.webm"))
        let truncated = try await send(try path("app://demo/clip.webm"), headers: ["Range: bytes=0-99"])
        #expect(truncated.status == 500, "\(truncated)")
    }

    @Test func aClientThatHangsUpMidBodyLeavesNothingOpen() async throws {
        let bigPath = try path("media:///big.webm")
        let read = try await RawHTTP.hangUp(port: relay.port, "GET \(bigPath) HTTP/1.1\r\nHost: 127.0.0.1:\(relay.port)", after: 300_000)
        #expect(read >= 300_000)
        #expect(await log.wait(for: "the client went away"), "\(log.lines)")
        #expect(relay.activeStreams == 0, "the body's stream was released")
        let after = try await send(bigPath, headers: ["Range: bytes=0-9"])
        #expect(after.status == 206 && after.body == Data(repeating: 7, count: 10), "the relay still answers: \(after)")
    }
}
