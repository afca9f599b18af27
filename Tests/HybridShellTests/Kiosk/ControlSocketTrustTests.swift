import Foundation
import Glibc
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
@testable import hybrid_run

/// Issue 31, item 10: `hybrid-run ctl` with the default socket talks only to a kiosk of its own
/// user, in a directory of its own user; `ctl screenshot` never writes through a planted link.
@Suite(.serialized)
@EngineActor
struct ControlSocketTrustTests {
    private func status(mode: mode_t, owner: uid_t) -> stat {
        var status = stat()
        status.st_mode = mode
        status.st_uid = owner
        return status
    }

    @Test func theDirectoryMustBeOurOwnPrivateDirectory() {
        let path = "/tmp/hybrid-run-1000/kiosk.sock"
        #expect(ControlSocketTrust.directoryProblem(status(mode: S_IFDIR | 0o700, owner: 1000), socketPath: path, userID: 1000) == nil)
        #expect(ControlSocketTrust.directoryProblem(nil, socketPath: path, userID: 1000) == nil, "missing: the connect says so")
        #expect(ControlSocketTrust.directoryProblem(status(mode: S_IFDIR | 0o700, owner: 1001), socketPath: path, userID: 1000)
                == "the control socket's directory /tmp/hybrid-run-1000 belongs to uid 1001, not to you (uid 1000): another user may be serving it; refusing to use it (remove it, or pass --socket PATH)")
        #expect(ControlSocketTrust.directoryProblem(status(mode: S_IFDIR | 0o777, owner: 1000), socketPath: path, userID: 1000)?
                .hasPrefix("the control socket's directory /tmp/hybrid-run-1000 can be written by other users (mode 777)") == true)
        #expect(ControlSocketTrust.directoryProblem(status(mode: S_IFLNK | 0o777, owner: 1000), socketPath: path, userID: 1000)?
                .hasPrefix("the control socket's directory /tmp/hybrid-run-1000 is a symbolic link, not a directory") == true)
        #expect(ControlSocketTrust.peerProblem(1000, socketPath: path, userID: 1000) == nil)
        #expect(ControlSocketTrust.peerProblem(0, socketPath: path, userID: 1000)?.hasPrefix("the kiosk control socket \(path) is served by uid 0, not by you (uid 1000)") == true)
    }

    /// Another user (root here) made the default directory first and serves a socket in it that
    /// anyone may connect to; the user nobody runs `ctl status` with the default socket.
    @Test func ctlRefusesADefaultSocketAnotherUserServes() async throws {
        let runtime = "/tmp/hybrid-xdg-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        #expect(mkdir(runtime, 0o755) == 0 && chmod(runtime, 0o755) == 0)
        let socketPath = runtime + "/hybrid-run/kiosk.sock"
        let (listener, requests) = try HeldRequests.okListener(at: socketPath)
        defer { listener.close() }
        #expect(chmod(runtime + "/hybrid-run", 0o755) == 0 && chmod(socketPath, 0o666) == 0)

        let squatted = try await runAsNobody(["ctl", "status"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(squatted.status == 2, "\(squatted)")
        #expect(squatted.stderr == "hybrid-run: error: the control socket's directory \(runtime)/hybrid-run belongs to uid 0, not to you (uid 65534): another user may be serving it; refusing to use it (remove it, or pass --socket PATH)\n")

        // The directory is nobody's own now, but the socket in it is still served by root.
        #expect(chown(runtime + "/hybrid-run", 65534, 65534) == 0 && chmod(runtime + "/hybrid-run", 0o700) == 0)
        let served = try await runAsNobody(["ctl", "status"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(served.status == 2, "\(served)")
        #expect(served.stderr == "hybrid-run: error: the kiosk control socket \(socketPath) is served by uid 0, not by you (uid 65534): refusing to talk to it (pass --socket PATH to choose a socket)\n")
        #expect(requests.lines.isEmpty, "nothing was sent")
    }

    @Test func aScreenshotReplacesAPlantedSymbolicLinkInsteadOfWritingThroughIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shot-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim.txt", shot = directory + "/shot.png"
        try "keep me".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: shot, withDestinationPath: victim)
        let view = try makeView { $0.window = .offscreen }
        defer { view.close() }
        let loaded = PageEventExpectation.loadFinished(view)
        view.load("data:text/html,<body style='background:red'>shot</body>")
        _ = try await loaded.value(timeout: .seconds(30), "the page")
        try await waitForPaint(view)
        try await view.snapshot(toPNG: shot)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(UnixSocketCalls.fileStatus(shot).map { $0.st_mode & S_IFMT == S_IFREG } == true, "a regular file replaced the link")
        #expect(try Data(contentsOf: URL(fileURLWithPath: shot)).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["shot.png", "victim.txt"], "no temporary file left")
    }
}
