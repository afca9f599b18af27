import Foundation
import HybridShell
import Testing

@Suite("hybrid-run doctor, end to end")
struct DoctorCommandLineTests {
    /// This machine has what the tests need, so nothing fails, and the renderer check really painted.
    @Test func passesHereAndPaintsTheTestPage() async throws {
        let run = try await CommandLineRun.run(["doctor"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("PASS  renderer") && $0.contains("painted correctly") }, "\(run.stdout)")
        #expect(run.stdoutLines.last?.hasPrefix("hybrid-run doctor: ") == true)
    }

    /// Without a display it paints on a private Xvfb; --json is one array of checks.
    @Test func jsonWithoutDisplay() async throws {
        let run = try await CommandLineRun.run(["doctor", "--json"], environment: VirtualDisplayCommandLineTests.headless)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let checks = try #require(try JSONValue(parsing: run.stdout).arrayValue)
        let names = checks.compactMap { $0["check"]?.stringValue }
        #expect(["display", "webkitgtk", "renderer", "media-webm", "webdriver", "fonts", "sandbox", "data-dir"].allSatisfy(names.contains), "\(names)")
        let display = try #require(checks.first { $0["check"] == "display" })
        #expect(display["detail"]?.stringValue?.contains("private X server") == true)
        let renderer = try #require(checks.first { $0["check"] == "renderer" })
        #expect(renderer["status"] == "pass")
        #expect(checks.allSatisfy { ["pass", "warn", "fail"].contains($0["status"]?.stringValue ?? "") })
    }

    /// A data directory that is a file is a FAIL with its fix and exit code 1, not a crash.
    @Test func aBrokenDataDirectoryFails() async throws {
        let run = try await CommandLineRun.run(["doctor", "--data-dir", "README.md"])
        #expect(run.status == 1)
        #expect(run.stdoutLines.contains { $0.hasPrefix("FAIL  data-dir") && $0.contains("not a directory") && $0.contains(" → ") })
    }

    @Test func noXvfbWithoutDisplayIsAFailNamingTheAptPackage() async throws {
        var environment = VirtualDisplayCommandLineTests.headless
        environment["PATH"] = "/nonexistent"
        let run = try await CommandLineRun.run(["doctor"], environment: environment)
        #expect(run.status == 1)
        #expect(run.stdoutLines.contains { $0.hasPrefix("FAIL  display") && $0.contains("apt install xvfb") }, "\(run.stdout)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("WARN  renderer") })
    }
}
