import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShell

/// `hybrid-run --package --update-url --modules updates --print-events`: the update manager's
/// events among the page events, and a page's check through the CLI.
@Suite struct PackageUpdatesCommandLineTests {
    @Test func updateEventsArePrintedAndThePageChecks() async throws {
        let f = try PackageFixtures()
        let site = ["index.html": """
            <!doctype html><script>
            hybrid.updates.check().then(function (status) { console.log('hasUpdate ' + status.hasUpdate); window.close(); },
                                        function (error) { console.log('check failed ' + error.code); window.close(); });
            </script>
            """]
        let v1 = try f.pack(try f.site("s1", site), "v1.zip", sequence: 1)
        try f.store().install(file: v1)
        let (index, signature) = try PackageIndex.make(packages: [v1], expires: nil, key: f.key)
        let server = try await FixtureServer.start()
        defer { server.stop() }
        server.route("/pkg/index.json") { _ in .init(status: 200, body: index) }
        server.route("/pkg/index.json.sig") { _ in .init(status: 200, body: signature) }
        let trust = f.path("rel.pub").path
        try f.key.publicKey.fileText.write(toFile: trust, atomically: true, encoding: .utf8)
        let run = try await CommandLineRun.run(["--package", "demo", "--data-dir", f.path("data").path, "--trust", trust,
                                                "--update-url", server.url("pkg/"), "--update-interval", "0", "--modules", "updates",
                                                "--print-events", "--exit-after", "close", "--timeout", "20"])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.stdoutLines.map { try JSONValue(parsing: $0) }
        #expect(events.contains { $0["event"] == "updateChecked" && $0["available"] == [] }, "\(run.stdout)")
        #expect(events.contains { $0["event"] == "packageChecked" }, "\(run.stdout)")
        #expect(events.contains { $0["event"] == "console" && $0["text"] == "hasUpdate false" }, "\(run.stdout)")
    }
}
