import Foundation
import HybridShell
import Testing

/// Issue 12, item 10: one log handler, `--log-level`, and a `--quiet` that means it.
@Suite("hybrid-run --log-level and --quiet")
struct LogLevelCommandLineTests {
    private func run(_ flags: [String]) async throws -> CommandLineRun {
        let run = try await CommandLineRun.run(["pages/fixtures/cli/log.html", "--exit-after", "close"] + flags)
        #expect(run.status == 0, "\(run.stderr)")
        return run
    }

    @Test func debugRecordsAppearAtDebugLevel() async throws {
        let run = try await run(["--log-level", "debug"])
        #expect(run.stderr.contains("hybrid-run: debug: [hybridshell.page] a debug line"), "\(run.stderr)")
        #expect(run.stderr.contains("hybrid-run: info: [hybridshell.page] an info line"), "\(run.stderr)")
    }

    @Test func theDefaultLevelIsInfo() async throws {
        let run = try await run([])
        #expect(!run.stderr.contains("a debug line"), "\(run.stderr)")
        #expect(run.stderr.contains("an info line"), "\(run.stderr)")
    }

    @Test func quietKeepsOnlyErrors() async throws {
        let run = try await run(["--quiet"])
        #expect(!run.stderr.contains("an info line"), "\(run.stderr)")
        #expect(run.stderr.contains("hybrid-run: error: [hybridshell.page] an error line"), "\(run.stderr)")
    }
}
