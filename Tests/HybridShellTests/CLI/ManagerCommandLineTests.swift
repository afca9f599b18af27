import Foundation
import HybridShell
import Testing

@Suite("hybrid-run routes, configuration, data directory, crash recovery")
struct ManagerCommandLineTests {
    @Test func cookiesAndStoragePersistAcrossRunsWithADataDirectory() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-data-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let page = server.url("fixtures/manager/cookie.html")
        let first = try await CommandLineRun.run(["--url", page, "--data-dir", directory, "--exit-after", "close"])
        #expect(first.status == 0)
        #expect(first.stdout.contains("found cookie=[] storage=[]"))
        let second = try await CommandLineRun.run(["--url", page, "--data-dir", directory, "--exit-after", "close"])
        #expect(second.status == 0)
        #expect(second.stdout.contains("found cookie=[remembered=yes] storage=[1]"), "second run: \(second.stdout)")
        let ephemeral = try await CommandLineRun.run(["--url", page, "--ephemeral", "--exit-after", "close"])
        #expect(ephemeral.stdout.contains("found cookie=[] storage=[]"))
        #expect(FileManager.default.fileExists(atPath: directory + "/cookies.sqlite"))
    }

    @Test func routeParametersHeadersAndConfigReachTheServer() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let run = try await CommandLineRun.run([
            "--url", server.origin + "/fixtures/{dir}/lifecycle.html?lang={lang}", "--param", "dir=manager", "--param", "lang=zh CN",
            "--header", "X-Token: 42", "--config", "pages/fixtures/manager/app.toml", "--exit-after", "load", "--quiet",
        ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let request = try #require(server.requests.first { $0.path == "/fixtures/manager/lifecycle.html" })
        #expect(request.query == "lang=zh%20CN")
        #expect(request.headers["x-token"] == "42")
        #expect(request.headers["x-from-config"] == "yes")
        #expect(request.headers["user-agent"]?.hasSuffix(" ConfigApp/3.1") == true)
    }

    @Test func lifecycleEventsAppearInPrintEvents() async throws {
        let run = try await CommandLineRun.run(["--url", "pages/fixtures/manager/lifecycle.html", "--print-events"]) { command in
            _ = await command.waitForLine(containing: #""name":"show""#)
            kill(command.pid, SIGTERM)
        }
        let names = run.stdoutLines.compactMap { try? JSONValue(parsing: $0) }.filter { $0["event"] == "lifecycle" }.compactMap { $0["name"]?.stringValue }
        #expect(names == ["ready", "show"])
    }

    @Test func crashBeyondTheReloadLimitExitsWithCode2() async throws {
        let run = try await CommandLineRun.run(["--url", "pages/fixtures/engine/frames.html", "--max-reloads", "0", "--print-events", "--pool", "0"]) { command in
            _ = await command.waitForLine(containing: #""loadFinished""#)
            if let web = command.webProcess { kill(web, SIGKILL) }
        }
        #expect(run.status == 2)
        #expect(run.stderr == "hybrid-run: error: the web process crashed\n")
    }

    @Test func crashWithinTheLimitRecovers() async throws {
        let run = try await CommandLineRun.run(["--url", "pages/fixtures/manager/lifecycle.html", "--print-events", "--pool", "0"]) { command in
            _ = await command.waitForLine(containing: #""name":"show""#)
            if let web = command.webProcess { kill(web, SIGKILL) }
            _ = await command.waitForLine(containing: #""name":"show""#)  // shown again after the reload
            kill(command.pid, SIGTERM)
        }
        #expect(run.status == 0)
        let events = run.stdoutLines.compactMap { try? JSONValue(parsing: $0) }
        #expect(events.contains { $0["event"] == "webProcessTerminated" && $0["reason"] == "crashed" })
        let lifecycle = events.filter { $0["event"] == "lifecycle" }.compactMap { $0["name"]?.stringValue }
        #expect(lifecycle == ["ready", "show", "unload", "ready", "show"])
    }

    @Test(arguments: [
        (["--param", "lang"], "--param takes name=value"),
        (["--param", "lang=en"], "parameter lang matches no placeholder"),
        (["--header", "X-Bad"], "a header is Name: value"),
        (["--header", "Bad Name: 1"], "is not an HTTP token"),
        (["--config", "pages/fixtures/manager/missing.toml"], "cannot read the configuration file pages/fixtures/manager/missing.toml"),
        (["--config", "pages/fixtures/manager/bad.toml"], "pages/fixtures/manager/bad.toml:4: crash_recovery.max_reloads: expected a whole number, got a string"),
        (["--pool", "99"], "--pool takes 0 to 16 views"),
        (["--max-reloads", "101"], "--max-reloads takes 0 to 100"),
        (["--ephemeral", "--data-dir", "/tmp/x"], "--ephemeral and --data-dir exclude each other"),
        (["--new-windows", "tabs"], "--new-windows takes same-view, new-page or deny"),
    ] as [([String], String)])
    func badManagerFlagsExitWithCode4(arguments: [String], message: String) async throws {
        let run = try await CommandLineRun.run(["pages/fixtures/engine/frames.html", "--exit-after", "load"] + arguments)
        #expect(run.status == 4)
        #expect(run.stderr.contains(message), "stderr was: \(run.stderr)")
    }

    @Test func unfilledPlaceholderIsAUsageError() async throws {
        let run = try await CommandLineRun.run(["--url", "https://example.invalid/{lang}", "--exit-after", "load"])
        #expect(run.status == 4)
        #expect(run.stderr == "hybrid-run: error: URL template placeholder {lang} has no value (give --param lang=…)\n")
    }
}
