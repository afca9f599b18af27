import Foundation
import HybridShell
import Synchronization
import Testing

/// `hybrid-run` with no DISPLAY starts its own Xvfb and leaves nothing behind, whatever ends it.
@Suite("A private Xvfb when there is no display")
struct VirtualDisplayCommandLineTests {
    /// The test process runs under Xvfb; these runs must not see its display.
    static var headless: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["XAUTHORITY"] = nil
        return environment
    }

    /// The Xvfb below `pid` (through setpriv's shell) and the directory of its authority file.
    static func server(below pid: pid_t) -> (pid: pid_t, directory: String)? {
        var queue = [pid]
        while let next = queue.popLast() {
            for child in ProcessTree.children(of: next) {
                if ProcessTree.command(child) == "Xvfb" {
                    let arguments = ((try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8)) ?? "").split(separator: "\0")
                    guard let index = arguments.firstIndex(of: "-auth"), index + 1 < arguments.count else { return nil }
                    return (child, URL(fileURLWithPath: String(arguments[index + 1])).deletingLastPathComponent().path)
                }
                queue.append(child)
            }
        }
        return nil
    }

    @Test func aPageLoadsWithoutDisplayAndTheServerIsGoneAfterwards() async throws {
        let found = Mutex<(pid: pid_t, directory: String)?>(nil)
        let run = try await CommandLineRun.run(["--url", "pages/fixtures/engine/console.html", "--exit-after", "close", "--timeout", "30",
                                                "--print-events"], environment: Self.headless) { command in
            _ = await command.waitForLine(containing: "\"loadFinished\"")
            found.withLock { $0 = Self.server(below: command.pid) }
            kill(command.pid, SIGTERM)
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("hello 1 [object Object]"))
        let server = try #require(found.withLock { $0 })
        #expect(await ProcessTree.waitUntilGone([server.pid]) == [])
        #expect(!FileManager.default.fileExists(atPath: server.directory))
    }

    @Test func exitAfterLoadStopsTheServer() async throws {
        let found = Mutex<(pid: pid_t, directory: String)?>(nil)
        let run = try await CommandLineRun.run(["pages/fixtures/engine/console.html", "--exit-after", "load"], environment: Self.headless) { command in
            _ = await command.waitForLine(containing: "CONSOLE LOG hello")
            found.withLock { $0 = Self.server(below: command.pid) }
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("CONSOLE LOG hello 1"))
        // Read while the command ran: it may have exited before the line arrived here.
        if let server = found.withLock({ $0 }) {
            #expect(await ProcessTree.waitUntilGone([server.pid]) == [])
            #expect(!FileManager.default.fileExists(atPath: server.directory))
        }
    }

    /// SIGKILL runs no exit handler: the kernel's parent-death signal ends the server instead.
    @Test func aKilledRunLeavesNoServer() async throws {
        let found = Mutex<(pid: pid_t, directory: String)?>(nil)
        _ = try await CommandLineRun.run(["--url", "pages/fixtures/engine/console.html", "--print-events", "--pool", "0"],
                                         environment: Self.headless) { command in
            _ = await command.waitForLine(containing: "\"loadFinished\"")
            found.withLock { $0 = Self.server(below: command.pid) }
            kill(command.pid, SIGKILL)
        }
        let server = try #require(found.withLock { $0 })
        #expect(await ProcessTree.waitUntilGone([server.pid]) == [])
        #expect(!FileManager.default.fileExists(atPath: server.directory))
    }

    @Test func withoutXvfbOneLineNamesTheAptPackage() async throws {
        var environment = Self.headless
        environment["PATH"] = "/nonexistent"
        let run = try await CommandLineRun.run(["--url", "pages/demo/index.html", "--exit-after", "load"], environment: environment)
        #expect(run.status == 2)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("apt install xvfb"))
    }

    @Test func pageTestsRunWithoutDisplay() async throws {
        let run = try await CommandLineRun.run(["test", "pages/fixtures/test/hybrid/all-pass.html"], environment: Self.headless)
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// kiosk --check gets a private Xvfb; a kiosk proper does not (it fails, and systemd restarts it).
    @Test func kioskCheckRunsWithoutDisplayButAKioskDoesNot() async throws {
        let check = try await CommandLineRun.run(["kiosk", "--config", "pages/fixtures/kiosk/kiosk.toml", "--check"], environment: Self.headless)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("settings hold"))
        let kiosk = try await CommandLineRun.run(["kiosk", "--url", "pages/demo/index.html"], environment: Self.headless)
        #expect(kiosk.status == 2)
        #expect(kiosk.stderr.contains("no X display"))
    }
}
