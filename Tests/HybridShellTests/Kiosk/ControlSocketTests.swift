import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
import Testing

/// A real listener on the engine loop and the real blocking client on a thread of its own.
@Suite("Control socket: listener and client")
@EngineActor
struct ControlSocketTests {
    @Test func requestAndReplyMakeARoundTrip() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let requests = HeldRequests()
        let listener = try UnixSocketListener(path: directory.socket) { line, reply in
            requests.record(line)
            reply(ControlReply.ok(["echo": .string(line)]))
        }
        defer { listener.close() }
        let reply = try await sendControl(.open("https://example.org/"), at: directory.socket)
        #expect(reply == #"{"echo":"open https://example.org/","ok":true}"#)
        #expect(requests.lines == ["open https://example.org/"])
        #expect(listener.openConnectionCount == 0)
    }

    @Test func replyMayComeLaterAndOnlyTheFirstCounts() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let requests = HeldRequests()
        let listener = try UnixSocketListener(path: directory.socket) { requests.hold($0, $1) }
        defer { listener.close() }
        let client = Task { try await sendControl(.screenshot(path: "/tmp/a b.png"), at: directory.socket) }
        Task { _ = await client.result; requests.finish() }  // a client that gave up ends the wait
        #expect(await requests.nextArrival() == "screenshot /tmp/a b.png")
        requests.answerAll(ControlReply.ok(["path": "/tmp/a b.png"]))
        requests.answerAll(ControlReply.error("a second reply is ignored"))
        #expect(try await client.value == #"{"ok":true,"path":"/tmp/a b.png"}"#)
    }

    @Test func malformedRequestGetsTheParseErrorAsItsReply() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let listener = try UnixSocketListener(path: directory.socket) { line, reply in
            do {
                reply(ControlReply.ok(["request": .string(try ControlRequest.parse(line).line)]))
            } catch {
                reply(ControlReply.error("\(error)"))
            }
        }
        defer { listener.close() }
        let line = try await sendControlLine("frobnicate now\r", at: directory.socket)
        let reply = try ControlReply(parsing: line)
        #expect(!reply.ok)
        #expect(reply.error == #"unknown command "frobnicate": the commands are status, open URL, reload, home, screenshot FILE.png, quit"#)
        #expect(try await sendControlLine("status\r", at: directory.socket) == #"{"ok":true,"request":"status"}"#)
    }

    @Test func socketIsOwnerOnlyInAnOwnerOnlyDirectoryCreatedForIt() throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let path = directory.path + "/run/kiosk/ctl.sock"
        let listener = try UnixSocketListener(path: path) { _, reply in reply(ControlReply.ok()) }
        defer { listener.close() }
        let socket = try #require(UnixSocketCalls.fileStatus(path))
        #expect(UnixSocketCalls.isSocket(socket))
        #expect(socket.st_mode & 0o7777 == 0o600)
        for created in [directory.path + "/run", directory.path + "/run/kiosk"] {
            let status = try #require(UnixSocketCalls.fileStatus(created))
            #expect(UnixSocketCalls.isDirectory(status))
            #expect(status.st_mode & 0o7777 == 0o700, "\(created)")
        }
    }

    @Test func staleSocketIsReplaced() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        try makeStaleSocket(at: directory.socket)
        await #expect(throws: ShellError.invalidArgument(
            "connection refused at \(directory.socket): the socket is stale (the kiosk that created it is no longer running)")) {
            try await sendControl(.status, at: directory.socket)
        }
        let listener = try UnixSocketListener(path: directory.socket) { _, reply in reply(ControlReply.ok()) }
        defer { listener.close() }
        #expect(try await sendControl(.status, at: directory.socket) == #"{"ok":true}"#)
    }

    @Test func secondListenerOnALivePathFailsAndTheFirstKeepsWorking() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let first = try UnixSocketListener(path: directory.socket) { _, reply in reply(ControlReply.ok(["first": true])) }
        defer { first.close() }
        #expect(throws: ShellError.invalidArgument("another kiosk is already listening on \(directory.socket)")) {
            try UnixSocketListener(path: directory.socket) { _, reply in reply(ControlReply.ok()) }
        }
        #expect(try await sendControl(.status, at: directory.socket) == #"{"first":true,"ok":true}"#)
    }

    @Test func fileThatIsNotASocketIsAnErrorAndStaysUntouched() throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        try "keep me".write(toFile: directory.socket, atomically: false, encoding: .utf8)
        #expect(throws: ShellError.invalidArgument(
            "\(directory.socket) exists and is a regular file, not a socket; remove it or choose another control socket path")) {
            try UnixSocketListener(path: directory.socket) { _, reply in reply(ControlReply.ok()) }
        }
        #expect(try String(contentsOfFile: directory.socket, encoding: .utf8) == "keep me")
    }

    @Test func tooLongRequestGetsAnErrorReply() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let (listener, requests) = try HeldRequests.okListener(at: directory.socket)
        defer { listener.close() }
        let longest = "open " + String(repeating: "a", count: UnixSocketListener.maximumRequestLength - 5)
        #expect(try await sendControlLine(longest, at: directory.socket) == #"{"ok":true}"#)
        let line = try await sendControlLine(longest + "a", at: directory.socket)
        #expect(line == ControlReply.error("request too long: a request is one line of at most 65536 bytes"))
        #expect(requests.lines == [longest])
    }

    @Test func replyLargerThanTheSocketBufferIsWrittenInPieces() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let data = String(repeating: "x", count: 900_000)  // several times what a socket buffers
        let listener = try UnixSocketListener(path: directory.socket) { _, reply in reply(ControlReply.ok(["data": .string(data)])) }
        defer { listener.close() }
        let reply = try ControlReply(parsing: try await sendControl(.status, at: directory.socket))
        #expect(reply.fields["data"]?.stringValue == data)
        #expect(listener.openConnectionCount == 0)
    }

    @Test func clientsThatLeaveEarlyBreakNothing() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let requests = HeldRequests()
        let listener = try UnixSocketListener(path: directory.socket) { line, reply in
            if line == "home" { requests.hold(line, reply) } else { reply(ControlReply.ok()) }
        }
        defer { listener.close() }
        // One connects and leaves without a word; one asks and leaves before the (late) reply.
        close(try connectRawControlClient(to: directory.socket))
        let impatient = try connectRawControlClient(to: directory.socket)
        #expect(send(impatient, "home\n", 5, Int32(MSG_NOSIGNAL)) == 5)
        #expect(await requests.nextArrival() == "home")
        close(impatient)
        // Both hung up before this connection arrived, so the loop has seen them by its reply.
        #expect(try await sendControl(.status, at: directory.socket) == #"{"ok":true}"#)
        #expect(listener.openConnectionCount == 0)
        requests.answerAll(ControlReply.ok())  // to nobody: harmless
        #expect(try await sendControl(.reload, at: directory.socket) == #"{"ok":true}"#)
    }

    @Test func clientGivesUpAfterItsTimeout() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let requests = HeldRequests()
        let listener = try UnixSocketListener(path: directory.socket) { requests.hold($0, $1) }
        defer { listener.close() }
        await #expect(throws: ShellError.timedOut("no reply from the kiosk at \(directory.socket) within 0.3 s")) {
            try await sendControl(.status, at: directory.socket, timeout: .milliseconds(300))
        }
    }

    @Test func closeUnlinksTheSocketAndDropsPendingRequests() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let requests = HeldRequests()
        let listener = try UnixSocketListener(path: directory.socket) { requests.hold($0, $1) }
        let client = Task { try await sendControl(.quit, at: directory.socket) }
        Task { _ = await client.result; requests.finish() }
        #expect(await requests.nextArrival() == "quit")
        listener.close()
        listener.close()
        #expect(UnixSocketCalls.fileStatus(directory.socket) == nil)
        await #expect(throws: ShellError.invalidArgument("the kiosk at \(directory.socket) closed the connection without a reply")) {
            try await client.value
        }
        requests.answerAll(ControlReply.ok())  // after close: harmless
        await #expect(throws: ShellError.invalidArgument(
            "no kiosk control socket at \(directory.socket) (is the kiosk running? was it started with --control-socket?)")) {
            try await sendControl(.status, at: directory.socket)
        }
    }

    @Test func droppingTheListenerAlsoUnlinksTheSocket() throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        do {
            let listener = try UnixSocketListener(path: directory.socket) { _, reply in reply(ControlReply.ok()) }
            #expect(UnixSocketCalls.fileStatus(listener.path) != nil)
        }
        #expect(UnixSocketCalls.fileStatus(directory.socket) == nil)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root, to run hybrid-run ctl as the user nobody"))
    func otherUsersAreRefusedByTheListener() async throws {
        let directory = try SocketDirectory(mode: 0o711)  // nobody may pass through, not list
        defer { directory.remove() }
        let (listener, requests) = try HeldRequests.okListener(at: directory.socket)
        defer { listener.close() }
        // Only here: with the kernel's own file check out of the way, SO_PEERCRED is what refuses.
        chmod(directory.socket, 0o666)
        let run = try await runAsNobody(["ctl", "--socket", directory.socket, "status"])
        let refusal = "permission denied: uid 65534 is neither the kiosk's user (uid 0) nor root"
        #expect(run.stdout == ControlReply.error(refusal) + "\n")
        #expect(run.stderr == "hybrid-run: error: \(refusal)\n")
        #expect(run.status == 1)
        #expect(requests.lines.isEmpty)
        #expect(listener.openConnectionCount == 0)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root, to run hybrid-run ctl as the user nobody"))
    func otherUsersCannotEvenConnectToTheOwnerOnlySocket() async throws {
        let directory = try SocketDirectory(mode: 0o711)
        defer { directory.remove() }
        let listener = try UnixSocketListener(path: directory.socket) { _, reply in reply(ControlReply.ok()) }
        defer { listener.close() }
        let run = try await runAsNobody(["ctl", "--socket", directory.socket, "status"])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "hybrid-run: error: permission denied: cannot connect to \(directory.socket) (the kiosk runs as another user? run hybrid-run ctl as that user)\n")
    }
}
