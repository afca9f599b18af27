import Foundation
import HybridShell
import Testing

/// `hybrid-run kiosk` end to end in real WebKit under Xvfb: crashes, crash loops, hangs, the
/// allow-list, idle reset, memory limit, `hybrid-run ctl`, shutdown. In the serial pass (the name
/// ends in ExclusiveTests): these kill web processes and assert recovery times.
@Suite("hybrid-run kiosk, end to end", .serialized)
struct KioskCommandLineExclusiveTests {
    static let home = "pages/fixtures/kiosk/index.html"

    @Test func killedWebProcessIsBackWithOnReadyWithinOneSecond() async throws {
        let run = try await Self.kiosk([]) { kiosk, events in
            #expect(await events.next("loaded") != nil)
            let web = try #require(kiosk.webProcess)
            let killed = ContinuousClock.now
            kill(web, SIGKILL)
            #expect(await events.next("webProcessEnded")?["reason"] == "crashed")
            #expect(await events.next { $0["event"] == "lifecycle" && $0["name"] == "ready" } != nil)
            let back = ContinuousClock.now - killed
            let recovered = try #require(await events.next("recovered")?["ms"]?.doubleValue)
            #expect(recovered <= 1000 && back <= .seconds(1), "ready \(back) after the kill (kiosk measured \(recovered) ms)")
            #expect(await events.next("loaded")?["url"]?.stringValue?.hasSuffix("/kiosk/index.html") == true)
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
    }

    @Test func crashLoopIsCappedThenTheErrorPageRetries() async throws {
        let run = try await Self.kiosk(["--max-reloads", "2", "--error-retry", "2"]) { kiosk, events in
            #expect(await events.next("loaded") != nil)
            for round in 1...3 {
                let web = try #require(kiosk.webProcess, "round \(round)")
                kill(web, SIGKILL)
                #expect(await events.next("webProcessEnded")?["count"] == .number(Double(round)))
                if round < 3 { #expect(await events.next("loaded") != nil, "round \(round) reloads home") }
            }
            let gaveUp = await events.next("gaveUp")
            #expect(gaveUp?["crashes"] == 3)
            let status = try await Self.control("status", kiosk)
            #expect(status["showingErrorPage"] == true, "\(status)")
            #expect(await events.next("retrying")?["url"]?.stringValue?.hasSuffix("/kiosk/index.html") == true)
            #expect(await events.next("loaded") != nil, "the app is back after the error page's retry")
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("hybrid-run kiosk: the web process ended 3 times; showing the error page, next try in 2 s"))
    }

    @Test func hungPageIsRecoveredWithinTenSeconds() async throws {
        let run = try await Self.kiosk([]) { kiosk, events in
            #expect(await events.next("loaded") != nil)
            _ = try await Self.control("open pages/fixtures/kiosk/hang.html", kiosk)
            #expect(await events.next { $0["event"] == "console" && $0["text"] == "spinning now" } != nil)
            let spinning = ContinuousClock.now
            #expect(await events.next("hung") != nil)
            #expect(await events.next("webProcessEnded")?["reason"] == "terminatedByAPI")
            #expect(await events.next { $0["event"] == "lifecycle" && $0["name"] == "ready" } != nil)
            let back = ContinuousClock.now - spinning
            #expect(back <= .seconds(10), "home was back \(back) after the page hung")
            let status = try await Self.control("status", kiosk)
            #expect(status["hangs"] == 1)
            #expect(status["url"]?.stringValue?.hasSuffix("/kiosk/index.html") == true)
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
    }

    @Test func navigationAndWindowOpenOutsideTheAllowListAreBlocked() async throws {
        let run = try await Self.kiosk(["--url", "pages/fixtures/kiosk/escape.html"]) { kiosk, events in
            #expect(await events.next("windowOpenBlocked")?["url"] == "https://popup.invalid/")
            #expect(await events.next("navigationBlocked")?["url"] == "https://blocked.invalid/elsewhere")
            #expect(await events.next { $0["text"]?.stringValue?.hasPrefix("still here at ") == true }?["text"] == "still here at escape.html")
            // The remote control obeys the allow-list too.
            let refused = try await Self.controlReply("open https://blocked.invalid/", kiosk)
            #expect(refused["ok"] == false)
            #expect(refused["error"]?.stringValue?.contains("is not on the kiosk's allow-list") == true, "\(refused)")
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.stdout.contains(#""text":"window.open returned null""#))
        #expect(run.stderr.contains("blocked a navigation to https://blocked.invalid/elsewhere (not on the allow-list)"))
    }

    @Test func framesOutsideTheAllowListAreBlockedAndFramesInsideLoad() async throws {
        let run = try await Self.kiosk(["--url", "pages/fixtures/kiosk/frames.html"]) { kiosk, events in
            #expect(await events.next("navigationBlocked")?["url"] == "https://framed.invalid/")
            #expect(await events.next { $0["text"]?.stringValue?.hasPrefix("frame says: ") == true }?["text"] == "frame says: loaded framed.html")
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("blocked a navigation to https://framed.invalid/ (not on the allow-list)"))
    }

    @Test func failedLoadShowsAnErrorPageThatRetriesWithBackOffUntilTheAppIsBack() async throws {
        let server = try await FixtureServer.start()
        let port = server.port
        let home = server.url("fixtures/kiosk/other.html")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let profile = directory + "/net.toml"
        try "home = \"\(home)\"\n[kiosk]\nload_retry = [0.5, 1, 30]\n".write(toFile: profile, atomically: true, encoding: .utf8)
        let run = try await Self.kiosk(["--config", profile, "--url", home]) { kiosk, events in
            #expect(await events.next { $0["text"] == "other page" } != nil)
            server.stop()  // the network goes down
            _ = try await Self.control("reload", kiosk)
            #expect(await events.next("loadFailed")?["retryAfter"] == 0.5)
            #expect(try await Self.control("status", kiosk)["showingErrorPage"] == true)
            #expect(await events.next("retrying") != nil)
            #expect(await events.next("loadFailed")?["retryAfter"] == 1, "the second try waits longer")
            let back = try await FixtureServer.start(port: port)  // and comes back
            defer { back.stop() }
            #expect(await events.next("retrying") != nil)
            #expect(await events.next("loaded")?["url"] == .string(home))
            #expect(try await Self.control("status", kiosk)["showingErrorPage"] == false)
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("hybrid-run kiosk: failed to load \(home): "))
    }

    @Test func idleResetGoesHomeAndClearsData() async throws {
        let run = try await Self.kiosk(["--idle-reset", "2", "--idle-clear-data"]) { kiosk, events in
            #expect(await events.next { $0["text"]?.stringValue?.hasPrefix("home visits=") == true }?["text"] == "home visits=none cookie=none")
            _ = try await Self.control("open pages/fixtures/kiosk/other.html", kiosk)
            #expect(await events.next { $0["text"] == "other page" } != nil)
            #expect(await events.next("idleReset")?["clearedData"] == true)
            // Home again, and what the first visit stored is gone.
            #expect(await events.next { $0["text"]?.stringValue?.hasPrefix("home visits=") == true }?["text"] == "home visits=none cookie=none")
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
    }

    @Test func webProcessOverTheMemoryLimitIsRecoveredLikeACrash() async throws {
        let run = try await Self.kiosk(["--memory-limit", "300"]) { kiosk, events in
            #expect(await events.next("loaded") != nil)
            _ = try await Self.control("open pages/fixtures/kiosk/hog.html", kiosk)
            #expect(await events.next("webProcessEnded")?["reason"] == "exceededMemoryLimit")
            #expect(await events.next("recovered") != nil)
            #expect(await events.next("loaded")?["url"]?.stringValue?.hasSuffix("/kiosk/index.html") == true)
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
    }

    @Test func controlCommandsAnswerAndQuitStopsCleanly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/ctl.sock", pidFile = directory + "/kiosk.pid", png = directory + "/shot.png"
        let run = try await Self.kiosk(["--control-socket", socket, "--pid-file", pidFile], socket: socket) { kiosk, events in
            #expect(await events.next("loaded") != nil)
            #expect(try String(contentsOfFile: pidFile, encoding: .utf8) == "\(kiosk.pid)\n")
            let attributes = try FileManager.default.attributesOfItem(atPath: socket)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let status = try await Self.control("status", kiosk, socket: socket)
            for key in ["url", "home", "uptime", "crashes", "hangs", "memoryBytes", "lastHeartbeatAgo", "responsive"] {
                #expect(status[key] != nil, "status lacks \(key): \(status)")
            }
            #expect(status["memoryBytes"]?.doubleValue ?? 0 > 10_000_000)
            #expect(try await Self.control("open pages/fixtures/kiosk/other.html", kiosk, socket: socket)["url"]?.stringValue?.hasSuffix("other.html") == true)
            #expect(await events.next { $0["text"] == "other page" } != nil)
            _ = try await Self.control("reload", kiosk, socket: socket)
            #expect(await events.next { $0["text"] == "other page" } != nil, "reload shows the page again")
            _ = try await Self.control("home", kiosk, socket: socket)
            #expect(await events.next { $0["text"]?.stringValue?.hasPrefix("home visits=") == true } != nil)
            #expect(try await Self.control("screenshot \(png)", kiosk, socket: socket)["path"] == .string(png))
            let bad = try await Self.controlReply("jump", kiosk, socket: socket)
            #expect(bad["ok"] == false)
            #expect(bad["error"]?.stringValue?.hasPrefix("unknown command \"jump\"") == true, "\(bad)")
            #expect(try await Self.control("quit", kiosk, socket: socket)["quitting"] == true)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let header = try Data(contentsOf: URL(fileURLWithPath: png)).prefix(8)
        #expect(Array(header) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(!FileManager.default.fileExists(atPath: pidFile))
        #expect(await ProcessTree.waitUntilGone(run.webKitChildren) == [], "WebKit processes left behind")
    }

    @Test func sigtermStopsCleanlyWithNoWebKitProcessesLeft() async throws {
        let run = try await Self.kiosk([]) { kiosk, events in
            #expect(await events.next("loaded") != nil)
            #expect(kiosk.webProcess != nil)
            kill(kiosk.pid, SIGTERM)
            #expect(await events.next("stopping")?["reason"] == "SIGTERM")
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.webKitChildren.contains { _ in true })
        #expect(await ProcessTree.waitUntilGone(run.webKitChildren) == [], "WebKit processes left behind")
    }

    @Test func checkPrintsAPassingTableForTheExampleProfile() async throws {
        let run = try await CommandLineRun.run(["kiosk", "--config", "pages/fixtures/kiosk/kiosk.toml", "--check"])
        #expect(run.status == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        for setting in ["home loads", "fullscreen", "undecorated", "background", "cursor hidden", "context menu off", "zoom off",
                        "shortcuts off", "window.open denied", "permissions", "heartbeat", "screen kept on"] {
            #expect(run.stdoutLines.contains { $0.hasPrefix("PASS  \(setting) ") }, "no PASS row for \(setting): \(run.stdout)")
        }
        // Its allow-list admits every file, not https, so the probe navigation is blocked.
        #expect(run.stdout.contains("PASS  allow-list"))
        #expect(run.stdout.contains("view background #102030"))
    }

    @Test func checkSeesTheCursorHideAfterTheIdleTime() async throws {
        let run = try await CommandLineRun.run(["kiosk", "--url", Self.home, "--hide-cursor", "1", "--check"])
        #expect(run.status == 0, "stdout: \(run.stdout) stderr: \(run.stderr)")
        #expect(run.stdout.contains("PASS  cursor hides when idle"), "stdout: \(run.stdout)")
    }

    @Test func checkFailsWhenASettingDoesNotHold() async throws {
        // An allow-list of everything cannot block the probe navigation: an honest FAIL, exit 1.
        let run = try await CommandLineRun.run(["kiosk", "--url", Self.home, "--allow", "*", "--check"])
        #expect(run.status == 1, "stdout: \(run.stdout)")
        #expect(run.stdout.contains("FAIL  allow-list"))
        #expect(run.stderr.contains("hybrid-run: error: 1 kiosk setting did not take effect"))
    }

    @Test(arguments: [
        (["kiosk"], "give the app with --url URL-OR-PATH or a profile with --config FILE"),
        (["kiosk", "--url", "pages/fixtures/kiosk/missing.html"], "no such file"),
        (["kiosk", "--url", home, "--background", "red"], "--background: a colour is #rrggbb"),
        (["kiosk", "--url", home, "--hide-cursor=-3"], "--hide-cursor: expected \"always\", \"never\" or a number of idle seconds"),
        (["kiosk", "--url", home, "--allow-shortcut", "teleport"], "unknown shortcut \"teleport\""),
        (["kiosk", "--url", home, "--permission", "geolocation"], "--permission takes ORIGIN=kind,kind"),
        (["kiosk", "--url", home, "--idle-reset=-1"], "--idle-reset takes a positive number of seconds"),
        (["kiosk", "--url", home, "--fullscreen", "maybe"], "--fullscreen takes on or off"),
        (["kiosk", "--config", "pages/fixtures/kiosk/missing.toml"], "cannot read the configuration file pages/fixtures/kiosk/missing.toml"),
    ] as [([String], String)])
    func badFlagsAndProfilesExitWithCode4(arguments: [String], message: String) async throws {
        let run = try await CommandLineRun.run(arguments)
        #expect(run.status == 4, "stderr: \(run.stderr)")
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(run.webKitChildren.isEmpty, "nothing starts")
    }

    @Test func malformedProfileNamesKeyAndLineAndStartsNothing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let profile = directory + "/bad.toml"
        try "home = \"\(Fixtures.repository.path)/\(Self.home)\"\n\n[kiosk]\npid_file = \"kiosk.pid\"\nidle_reset = \"soon\"\n"
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let run = try await CommandLineRun.run(["kiosk", "--config", profile])
        #expect(run.status == 4)
        #expect(run.stderr == "hybrid-run: error: \(profile):5: kiosk.idle_reset: expected a number of seconds, got a string\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/kiosk.pid"))
        #expect(run.webKitChildren.isEmpty)
    }

    // MARK: Support

    /// Runs `hybrid-run kiosk --print-events` on the fixture home (or `--url` among `flags`) with a
    /// control socket, and hands `body` the running kiosk and its events.
    static func kiosk(_ flags: [String], socket given: String? = nil, deadline: Duration = .seconds(90),
                      _ body: @escaping @Sendable (CommandLineRun.Running, KioskEventReader) async throws -> Void) async throws -> CommandLineRun {
        let socket = given ?? FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(UUID().uuidString).sock").path
        let url = flags.contains("--url") ? [] : ["--url", home]
        let extra = flags.contains("--control-socket") ? [] : ["--control-socket", socket]
        let failure = FailureBox()
        let run = try await CommandLineRun.run(["kiosk", "--print-events"] + url + extra + flags, deadline: deadline) { running in
            do {
                try await body(running, KioskEventReader(running.lines))
            } catch {
                failure.record(error)
                kill(running.pid, SIGTERM)
            }
        }
        if let error = failure.error { throw error }
        return run
    }

    static func control(_ line: String, _ kiosk: CommandLineRun.Running, socket: String? = nil) async throws -> [String: JSONValue] {
        let reply = try await controlReply(line, kiosk, socket: socket)
        #expect(reply["ok"] == true, "\(line): \(reply)")
        return reply
    }

    static func controlReply(_ line: String, _ kiosk: CommandLineRun.Running, socket: String? = nil) async throws -> [String: JSONValue] {
        let path = try socket ?? #require(controlSocket(of: kiosk.pid))
        let text = try await sendControlLine(line, at: path)
        return try #require(JSONValue(parsing: text).objectValue)
    }

    /// The `--control-socket` a running kiosk was started with (from its command line).
    static func controlSocket(of pid: pid_t) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let index = arguments.firstIndex(of: "--control-socket"), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }
}

/// The JSON lines of `--print-events`, read one at a time; `next` returns nil once output ends
/// (the run's deadline kills a kiosk that never produces the event).
final class KioskEventReader: @unchecked Sendable {
    private var iterator: AsyncStream<String>.AsyncIterator

    init(_ lines: AsyncStream<String>) {
        iterator = lines.makeAsyncIterator()
    }

    func next(_ name: String) async -> [String: JSONValue]? {
        await next { $0["event"] == .string(name) }
    }

    func next(_ predicate: ([String: JSONValue]) -> Bool) async -> [String: JSONValue]? {
        while let line = await iterator.next() {
            guard let object = (try? JSONValue(parsing: line))?.objectValue else { continue }
            if predicate(object) { return object }
        }
        return nil
    }
}

/// Carries an error out of a `@Sendable` closure.
final class FailureBox: @unchecked Sendable {
    private(set) var error: Error?
    func record(_ error: Error) { self.error = error }
}
