import Foundation
import HybridShell
import Testing

/// Issue 12, item 7: `hybrid-run --url` is as honest about HTTP errors as `hybrid-run test`.
@Suite("hybrid-run --url and HTTP status")
struct HTTPStatusCommandLineTests {
    @Test func aPageAnsweredWith404ExitsTwoNamingTheStatus() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        // The server answers 404 for any path it has no file or route for.
        let run = try await CommandLineRun.run(["--url", server.url("missing.html"), "--exit-after", "load", "--print-events"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("HTTP 404"), "\(run.stderr)")
        let events = try run.stdoutLines.map { try JSONValue(parsing: $0) }
        #expect(events.contains { $0["event"] == "loadFinished" && $0["status"] == 404 }, "\(run.stdout)")
    }

    @Test func errorPagesCanBeAllowed() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let run = try await CommandLineRun.run(["--url", server.url("missing.html"), "--exit-after", "load", "--allow-http-errors"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func anOrdinaryPageCarriesItsStatusInTheEvents() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        server.route("/ok.html") { _ in .text("<!doctype html><title>ok</title>", type: "text/html") }
        let run = try await CommandLineRun.run(["--url", server.url("ok.html"), "--exit-after", "load", "--print-events"])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.stdoutLines.map { try JSONValue(parsing: $0) }
        #expect(events.contains { $0["event"] == "loadCommitted" && $0["status"] == 200 }, "\(run.stdout)")
    }
}
