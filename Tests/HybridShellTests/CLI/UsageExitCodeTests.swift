import HybridShellTestSupport
import Foundation
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// Issue 31, item 20: usage errors exit 4 (not 2 or 6), and an upper-case `HTTP://` URL loads.
@Suite("Usage errors exit 4; HTTP:// URLs")
struct UsageExitCodeTests {
    @Test func packageVerifyWithoutTrustIsAUsageError() async throws {
        let f = try PackageFixtures()
        let package = try f.pack(try f.site("site", PackageFixtures.v1), "d1.zip", sequence: 1)
        let verify = try await CommandLineRun.run(["package", "verify", package.path])
        #expect(verify.status == 4, "\(verify.stderr)")
        #expect(verify.stderr == "hybrid-run: error: no trusted key: pass --trust NAME.pub (or set trusted_keys)\n")
        let install = try await CommandLineRun.run(["package", "install", package.path, "--data-dir", f.path("data").path])
        #expect(install.status == 4, "\(install.stderr)")
    }

    @Test(arguments: ["pack", "index"])
    func anUnreadableExpiryIsAUsageErrorAndWritesNothing(command: String) async throws {
        let f = try PackageFixtures()
        try f.key.fileText.write(to: f.path("rel.key"), atomically: true, encoding: .utf8)
        let site = try f.site("site", PackageFixtures.v1).path
        let output = f.path("out.zip").path
        let arguments = command == "pack"
            ? ["package", "pack", site, "--app-id", "demo", "--app-version", "1.0.0", "--sequence", "1", "--key", f.path("rel.key").path,
               "--output", output, "--expires", "next tuesday"]
            : ["package", "index", try f.pack(URL(fileURLWithPath: site), "d1.zip", sequence: 1).path, "--key", f.path("rel.key").path,
               "--output-dir", f.path("index").path, "--expires", "next tuesday"]
        let run = try await CommandLineRun.run(arguments)
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("hybrid-run: error: --expires next tuesday is not a date like 2027-01-31 or 2027-01-31T12:00:00Z\n"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output) && !FileManager.default.fileExists(atPath: f.path("index").path))
    }

    @Test func anUpperCaseHTTPSchemeLoads() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let url = "HTTP://127.0.0.1:\(server.port)/fixtures/cli/log.html"
        let run = try await CommandLineRun.run(["--url", url, "--exit-after", "load"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.requests.contains { $0.path == "/fixtures/cli/log.html" })
        // A kiosk whose home is written so: its allow-list must match what WebKit reports.
        let kiosk = try await CommandLineRun.run(["kiosk", "--url", url, "--check"], deadline: .seconds(90))
        #expect(kiosk.status == 0, "\(kiosk.stdout)\(kiosk.stderr)")
    }
}
