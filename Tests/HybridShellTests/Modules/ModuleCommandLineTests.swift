import Foundation
import HybridShell
import Testing

@Suite("hybrid-run --modules / --grant, and storage that survives kill -9")
struct ModuleCommandLineTests {
    @Test(arguments: [
        (["--modules", "storage,teleport"], "--modules: unknown module \"teleport\""),
        (["--grant", "https://*.example.org"], "--grant takes ORIGIN=MODULE"),
        (["--grant", "https://*.example.org=storage,camera"], "--grant: unknown module \"camera\""),
        (["--grant", "example.org=storage"], "origin pattern \"example.org\" needs a scheme"),
    ])
    func badModuleFlagsAreUsageErrors(flags: [String], message: String) async throws {
        let run = try await CommandLineRun.run(["--url", "pages/fixtures/modules/second.html", "--exit-after", "load"] + flags)
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func moduleHandlersCanBeMockedForPageTests() async throws {
        let run = try await CommandLineRun.run(["--url", "pages/fixtures/modules/mocked.html", "--modules", "storage,system,clipboard",
                                                "--handlers", "pages/fixtures/modules/mocks.json", "--exit-after", "close", "--timeout", "30"])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stdoutLines.first { $0.contains("MOCKED ") })
        let seen = try JSONValue(parsing: String(line[line.range(of: "MOCKED ")!.upperBound...]))
        #expect(seen == ["storage": "mocked value", "network": "none", "clipboard": "getClipboardData:fail clipboard unavailable", "real": 0])
    }

    @Test func storageWrittenUntilKill9IsIntactOnTheNextRun() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modules-kill-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let common = ["--modules", "storage", "--data-dir", directory, "--pool", "0"]
        let killed = try await CommandLineRun.run(["--url", "pages/fixtures/modules/persist-write.html"] + common, deadline: .seconds(90)) { running in
            _ = await running.waitForLine(containing: "WROTE 200")
            kill(running.pid, SIGKILL)
        }
        #expect(killed.status != 0, "killed")
        let written = killed.stdoutLines.filter { $0.contains("WROTE ") }.count
        #expect(written > 200)
        let reread = try await CommandLineRun.run(["--url", "pages/fixtures/modules/persist-read.html", "--exit-after", "close", "--timeout", "60"] + common,
                                                  deadline: .seconds(90))
        #expect(reread.status == 0, "\(reread.stderr)")
        let line = try #require(reread.stdoutLines.first { $0.contains("SURVIVED ") })
        let report = try JSONValue(parsing: String(line[line.range(of: "SURVIVED ")!.upperBound...]))
        #expect(report["intact"] == true)
        // Every write the page saw finish is there; at most the one in flight may be too.
        let count = try #require(report["count"]?.intValue)
        #expect(count >= written && count <= written + 1, "\(count) keys after \(written) finished writes")
    }
}
