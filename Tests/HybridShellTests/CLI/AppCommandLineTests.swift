import Foundation
import HybridShell
import Synchronization
import Testing

/// Issue 33, items 2 and 3: `hybrid-run init` writes an app that `test` passes and `dev` runs on
/// its own origin, reloading the page when a file under web/ changes.
@Suite("hybrid-run init and dev")
struct AppCommandLineTests {
    static func scaffold() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-app-\(UUID().uuidString)/shop").path
        let made = try await CommandLineRun.run(["init", folder, "--id", "org.example.Shop", "--name", "Shop"])
        #expect(made.status == 0, "\(made.stderr)")
        return folder
    }

    @Test func theScaffoldPassesItsPageTest() async throws {
        let folder = try await Self.scaffold()
        defer { try? FileManager.default.removeItem(atPath: folder + "/..") }
        let run = try await CommandLineRun.run(["test", folder + "/tests/", "--config", folder + "/app.toml"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("1 passed, 0 failed"), "\(run.stdout)")
        let again = try await CommandLineRun.run(["init", folder])
        #expect(again.status == 4 && again.stderr.contains("is not empty"), "\(again.stderr)")
    }

    /// The page runs on app://<id>/ with the storage module (its count survives the reload), and a
    /// save under web/ reloads it within 300 ms.
    @Test func devReloadsThePageWhenAFileChanges() async throws {
        let folder = try await Self.scaffold()
        defer { try? FileManager.default.removeItem(atPath: folder + "/..") }
        let reloadLatency = Mutex<Duration?>(nil)
        let run = try await CommandLineRun.run(["dev", folder, "--headless", "--print-events", "--exit-after", "60"],
                                               deadline: .seconds(90)) { running in
            guard await running.waitForLine(containing: "opened 1 times") != nil else { return }
            let saved = ContinuousClock.now
            try? Data("<!doctype html><title>v2</title><script src=\"app.js\"></script><p id=\"visits\"></p>\n".utf8)
                .write(to: URL(fileURLWithPath: folder + "/web/index.html"))
            guard await running.waitForLine(containing: "\"loadStarted\"") != nil else { return }
            reloadLatency.withLock { $0 = ContinuousClock.now - saved }
            _ = await running.waitForLine(containing: "opened 2 times")
            kill(running.pid, SIGTERM)
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\"url\":\"app://org.example.shop/index.html\""), "\(run.stdout)")
        #expect(run.stdout.contains("opened 2 times"), "\(run.stdout)")
        #expect(run.stderr.contains("reloading after a change to index.html"), "\(run.stderr)")
        let latency = try #require(reloadLatency.withLock { $0 })
        #expect(latency < .milliseconds(300), "reload \(latency) after the save")
        print("dev: reload started \(latency) after the save")
    }

    @Test func devRefusesABadAppTomlWithFileAndLine() async throws {
        let folder = try await Self.scaffold()
        defer { try? FileManager.default.removeItem(atPath: folder + "/..") }
        let toml = try String(contentsOfFile: folder + "/app.toml", encoding: .utf8)
        try (toml.replacingOccurrences(of: "icon = \"icon.svg\"", with: "icon = \"logo.png\"")).write(toFile: folder + "/app.toml", atomically: true, encoding: .utf8)
        let line = toml.components(separatedBy: "\n").firstIndex { $0.hasPrefix("icon = ") }! + 1
        let run = try await CommandLineRun.run(["dev", folder, "--headless", "--exit-after", "load"])
        #expect(run.status == 4)
        #expect(run.stderr == "hybrid-run: error: \(folder)/app.toml:\(line): icon: no such file: \(folder)/logo.png\n", "\(run.stderr)")
    }
}
