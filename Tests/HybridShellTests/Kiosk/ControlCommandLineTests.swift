import Foundation
import HybridShell
import Testing

/// `hybrid-run ctl` as a user runs it, against a listener in this process.
@Suite("hybrid-run ctl, end to end")
@EngineActor
struct ControlCommandLineTests {
    @Test func badCommandIsAUsageError() async throws {
        let run = try await CommandLineRun.run(["ctl", "frobnicate"])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        #expect(run.stderr == "hybrid-run: error: unknown command \"frobnicate\": the commands are status, open URL, reload, home, screenshot FILE.png, quit\n")
    }

    @Test func extraArgumentIsAUsageError() async throws {
        let run = try await CommandLineRun.run(["ctl", "--socket", "/nonexistent/kiosk.sock", "status", "now"])
        #expect(run.status == 4)
        #expect(run.stderr == "hybrid-run: error: status takes no argument, got \"now\"\n")
    }

    @Test func missingSocketExitsWithCode2() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let run = try await CommandLineRun.run(["ctl", "--socket", directory.socket, "status"])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "hybrid-run: error: no kiosk control socket at \(directory.socket) (is the kiosk running? was it started with --control-socket?)\n")
    }

    @Test func replyIsPrintedAndOkDecidesTheExitCode() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let listener = try UnixSocketListener(path: directory.socket) { line, reply in
            reply(line == "status" ? ControlReply.ok(["url": "https://example.org/"]) : ControlReply.error("no page to reload"))
        }
        defer { listener.close() }

        let status = try await CommandLineRun.run(["ctl", "--socket", directory.socket, "status"])
        #expect(status.status == 0)
        #expect(status.stdout == #"{"ok":true,"url":"https://example.org/"}"# + "\n")
        #expect(status.stderr == "")

        let reload = try await CommandLineRun.run(["ctl", "--socket", directory.socket, "--timeout", "5", "reload"])
        #expect(reload.status == 1)
        #expect(reload.stdout == ControlReply.error("no page to reload") + "\n")
        #expect(reload.stderr == "hybrid-run: error: no page to reload\n")
    }

    @Test func relativeScreenshotPathIsSentAbsolute() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let (listener, requests) = try HeldRequests.okListener(at: directory.socket)
        defer { listener.close() }
        // CommandLineRun runs commands in the repository.
        let run = try await CommandLineRun.run(["ctl", "--socket", directory.socket, "screenshot", "shots/front page.png"])
        #expect(run.status == 0)
        #expect(requests.lines == ["screenshot \(Fixtures.repository.path)/shots/front page.png"])
    }

    @Test func silentKioskTimesOutWithCode2() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let requests = HeldRequests()
        let listener = try UnixSocketListener(path: directory.socket) { requests.hold($0, $1) }
        defer { listener.close() }
        let run = try await CommandLineRun.run(["ctl", "--socket", directory.socket, "--timeout", "0.5", "home"])
        #expect(run.status == 2)
        #expect(run.stderr == "hybrid-run: error: timed out: no reply from the kiosk at \(directory.socket) within 0.5 s\n")
    }
}
